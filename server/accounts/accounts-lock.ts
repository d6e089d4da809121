// Serializes the account commands whose rules span several streams: "the last active
// manager stays", "a role in use is not deleted", "a role name is unique". Each such
// command reads its state and appends inside one transaction holding this advisory lock,
// so two managers demoting each other at once cannot both succeed. Works on every instance
// sharing the database; on PGlite (one connection) it costs nothing.
import { sql } from 'kysely';
import type { EventStore } from '../eventstore/event-store.js';
import { WrongExpectedVersionError } from '../eventstore/event-store.js';
import type {
  AppendResult,
  EventMetadata,
  ExpectedVersion,
  NewEvent,
  StreamRef,
  Transaction,
} from '../eventstore/types.js';

/** An arbitrary, fixed key: "accounts" in ASCII. */
const ACCOUNTS_LOCK = 0x6163636f756e7473n;

export type Append = (
  stream: StreamRef,
  expected: ExpectedVersion,
  events: NewEvent[],
  metadata: EventMetadata,
) => Promise<AppendResult>;

export function withAccountsLock<T>(
  store: EventStore,
  work: (trx: Transaction, append: Append) => Promise<T>,
): Promise<T> {
  return store.transact(async (trx, append) => {
    await sql`select pg_advisory_xact_lock(${ACCOUNTS_LOCK.toString()}::bigint)`.execute(trx);
    return work(trx, append);
  });
}

/** Runs a read-decide-append again when another writer moved the stream meanwhile. */
export async function retryOnConflict<T>(attempt: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || i >= attempts) throw error;
    }
  }
}

/** A unique-index violation of our own projections (pg and PGlite both report the name). */
export function violates(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || !!e.message?.includes(constraint));
}
