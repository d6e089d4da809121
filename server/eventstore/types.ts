// Shapes of the event store: what goes in, what is stored, and the read cursor.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface Actor {
  uid: string | null;
  /** Display name, else email, else 'Unknown User'. */
  name: string;
}

export interface EventMetadata {
  actor: Actor;
  correlationId: string;
  idempotencyKey?: string;
}

export interface NewEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface StoredEvent<D = any> {
  position: number;
  txId: string;
  streamId: string;
  streamType: string;
  streamVersion: number;
  eventId: string;
  type: string;
  data: D;
  metadata: EventMetadata;
  createdAt: Date;
}

/** Where a reader is: strictly after (txId, position). The start is ('0', 0). */
export interface Cursor {
  txId: string;
  position: number;
}

export const START: Cursor = { txId: '0', position: 0 };

export interface StreamRef {
  id: string;
  type: string;
}

/** 'any' skips the version check; a number is the version the caller last saw (0 = new stream). */
export type ExpectedVersion = number | 'any';

export interface AppendResult {
  streamId: string;
  /** The stream's version after this append. */
  version: number;
  events: StoredEvent[];
  /** True when the idempotency key was seen before and nothing was written. */
  replayed: boolean;
}

export type Transaction = Kysely<DB>;

/** A projection keeps read tables in step with events, inside the append's transaction. */
export interface Projection {
  name: string;
  /** Tables it owns: rebuilt from scratch by projections:rebuild and compared by verify. */
  tables: string[];
  handlers: Record<string, (event: StoredEvent, trx: Transaction) => Promise<void>>;
}

export function formatCursor(cursor: Cursor): string {
  return `${cursor.txId}:${cursor.position}`;
}

export function parseCursor(text: string): Cursor | null {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(text);
  if (!match) return null;
  return { txId: match[1]!, position: Number(match[2]) };
}
