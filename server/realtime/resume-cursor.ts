// Decides whether a reconnecting client's cursor can be resumed: it must parse, name an
// event this database really has (a cursor from another database or from before a reset
// would silently skip or repeat events), and not be so far behind that replaying costs
// more than reloading. Otherwise the client is told `snapshot-required`.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { parseCursor, START, type Cursor } from '../eventstore/types.js';
import { compareCursors } from './cursor-order.js';

export type ResumeCheck = { ok: true; cursor: Cursor } | { ok: false; reason: string };

export async function checkResumeCursor(
  db: Kysely<DB>,
  text: string,
  target: Cursor,
  maxEvents: number,
): Promise<ResumeCheck> {
  const cursor = parseCursor(text);
  if (!cursor) return { ok: false, reason: 'Unknown cursor' };
  if (compareCursors(cursor, START) !== 0) {
    const found = await sql<{ one: number }>`select 1 as one from events
      where position = ${cursor.position} and tx_id = ${cursor.txId}::xid8`.execute(db);
    if (found.rows.length === 0) return { ok: false, reason: 'Unknown cursor' };
  }
  if (compareCursors(cursor, target) >= 0) return { ok: true, cursor };
  const missed = await sql<{ n: number }>`select count(*)::int as n from (select 1 from events
      where (tx_id, position) > (${cursor.txId}::xid8, ${cursor.position}::bigint)
        and (tx_id, position) <= (${target.txId}::xid8, ${target.position}::bigint)
      limit ${maxEvents + 1}) missed`.execute(db);
  if (Number(missed.rows[0]?.n ?? 0) > maxEvents) {
    return { ok: false, reason: `Cursor too old: more than ${maxEvents} events were missed` };
  }
  return { ok: true, cursor };
}
