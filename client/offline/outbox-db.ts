// The outbox's IndexedDB database (via idb): what waits to be sent, what the server refused
// on replay (the Conflicts list), and what the user chose to drop ("Keep current"), so no
// change disappears without a trace. IndexedDB survives a closed tab and a reboot.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export type OutboxKind = 'adjust' | 'count' | 'edit';
export type OutboxMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A write the app wants the server to apply, as the caller describes it. */
export interface OutboxRequest {
  kind: OutboxKind;
  method: OutboxMethod;
  /** API path without the /api prefix, e.g. /inventory/<id>/adjust. */
  path: string;
  body?: unknown;
  /** Kept across every retry and replay, so the server applies the change once. New when absent. */
  idempotencyKey?: string;
  /** The version of the thing the user saw when making the change. */
  baseVersion?: number;
  /** Send baseVersion as If-Match (a replay against a changed thing gets 409). Default: edits only. */
  ifMatch?: boolean;
  /** What the user did, in words: shown in the header list and in Conflicts. */
  label: string;
  /** The item the change is about (pending marks on screens). */
  itemId?: string;
  /** GET path of the thing's current value, shown against the user's change in Conflicts. */
  currentPath?: string;
}

export interface OutboxEntry extends OutboxRequest {
  seq: number;
  idempotencyKey: string;
  /** The signed-in user who made the change: only they replay it. */
  uid: string;
  createdAt: number;
  attempts: number;
  /** Why the last try did not go through (offline, server busy, signed out). */
  lastError: string | null;
}

export interface ConflictEntry {
  seq: number;
  entry: OutboxEntry;
  status: number;
  message: string;
  /** The server's current value when it refused (the 409 body's `current`, or a fresh GET). */
  current: unknown;
  at: number;
}

export interface ResolvedEntry {
  id?: number;
  entry: OutboxEntry;
  decision: 'kept-current' | 'applied-mine';
  current: unknown;
  at: number;
}

export interface OutboxSchema extends DBSchema {
  outbox: { key: number; value: OutboxEntry; indexes: { uid: string } };
  conflicts: { key: number; value: ConflictEntry };
  resolved: { key: number; value: ResolvedEntry };
}

export type OutboxDb = IDBPDatabase<OutboxSchema>;

export const OUTBOX_DB_NAME = 'stockroom-offline';

export function openOutboxDb(name = OUTBOX_DB_NAME): Promise<OutboxDb> {
  return openDB<OutboxSchema>(name, 1, {
    upgrade(db) {
      const outbox = db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      outbox.createIndex('uid', 'uid');
      db.createObjectStore('conflicts', { keyPath: 'seq' });
      db.createObjectStore('resolved', { keyPath: 'id', autoIncrement: true });
    },
  });
}
