// The cursor of the item list's pages (live and as of a moment): base64url of
// "created_at|id", the last row of a page. A client hands it back as it got it, but it is
// still input: anything PostgreSQL could not cast (a moment like "1" or "9999-99-99", an id
// of 36 dashes) is refused here, 400 'cursor is invalid', before it reaches a query.
import { ValidationError } from '../errors.js';

export interface ItemCursor {
  createdAt: string;
  id: string;
}

/** Exactly what encodeItemCursor writes: the moment to the microsecond, in UTC. */
const MOMENT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,6})?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeItemCursor(row: { created_key: string; id: string }): string {
  return Buffer.from(`${row.created_key}|${row.id}`).toString('base64url');
}

export function decodeItemCursor(cursor: string): ItemCursor {
  const parts = Buffer.from(cursor, 'base64url').toString().split('|');
  const [createdAt = '', id = ''] = parts;
  const moment = MOMENT.exec(createdAt);
  const at = moment ? new Date(createdAt) : null;
  // Date.parse rolls 2024-02-30 over to March: the moment must read back as written.
  const real =
    at && !Number.isNaN(at.getTime()) && at.getUTCFullYear() >= 1 && at.toISOString().slice(0, 19) === moment![1];
  if (parts.length !== 2 || !real || !UUID.test(id)) throw new ValidationError('cursor is invalid');
  return { createdAt, id };
}
