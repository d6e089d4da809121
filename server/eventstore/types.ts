// Shapes of the event store: what goes in, what is stored, and the read cursor.
import type { Kysely, RawBuilder } from 'kysely';
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
  /** Set on events a CSV import wrote (the correlation id is then the import's id): the file's name. */
  importFile?: string;
  /**
   * Set on a stocktake's `count` adjustment: who counted the number it posts. The actor is
   * whoever approved it. Kept out of the event's data, which reaches guests on the feed.
   */
  countedBy?: Actor;
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
  /**
   * The same work for a whole batch of new events in one statement (see BatchProjection).
   * Several forms: the first that covers the batch's types runs (a lean form for the hot
   * path first, a general one after it).
   */
  batch?: BatchProjection | BatchProjection[];
}

/**
 * The set-based form of some of a projection's handlers, for the group-commit path: its
 * updates become data-modifying CTEs of the one statement that inserts a batch's events.
 * They read the inserted events from the CTE `new_events` (columns position, stream_id,
 * stream_type, stream_version, event_id, type, data, metadata, created_at; created_at is
 * whole milliseconds, as handlers see it) and see every table as it was before the
 * statement, so they cannot read each other's writes, and may change a row only once:
 * aggregate per row first. They must leave exactly what the handlers, run event by event,
 * would leave; projections:verify (a replay through the handlers) checks that.
 */
export interface BatchProjection {
  /** Event types it covers; a batch with another type this projection handles goes event by event. */
  types: string[];
  /** Named CTE bodies; names are prefixed with the projection's name when composed. */
  ctes: Record<string, RawBuilder<unknown>>;
}

export function formatCursor(cursor: Cursor): string {
  return `${cursor.txId}:${cursor.position}`;
}

/** The largest xid8 (an unsigned 64-bit transaction id). */
const MAX_TX_ID = 2n ** 64n - 1n;

/**
 * "txId:position", or null for anything else, including numbers out of range: a transaction
 * id beyond xid8, or a position beyond what a JS number holds exactly (a bigint column, but
 * positions travel as numbers), which PostgreSQL or the comparison would get wrong.
 */
export function parseCursor(text: string): Cursor | null {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(text);
  if (!match) return null;
  const position = Number(match[2]);
  if (BigInt(match[1]!) > MAX_TX_ID || !Number.isSafeInteger(position)) return null;
  return { txId: match[1]!, position };
}
