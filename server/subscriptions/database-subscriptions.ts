// The subscriptions of one server process on its database. On PostgreSQL other instances
// write too: a commit here is announced with a coalesced `pg_notify` after it
// (commit-notifier.ts), and theirs wake this reader through LISTEN. PGlite lives in this one
// process, so the store's own after-commit signal already reaches the only reader.
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { EventStore } from '../eventstore/event-store.js';
import { EVENTS_CHANNEL } from './commit-notifier.js';
import { Subscriptions, type SubscriptionsOptions } from './subscriptions.js';

export function subscriptionsFor(
  database: Database,
  store: EventStore,
  options: Pick<SubscriptionsOptions, 'pollMs' | 'log' | 'batchSize' | 'minGapMs' | 'busyShare'>,
): Subscriptions {
  const shared = database.kind === 'postgres';
  return new Subscriptions({
    ...options,
    store,
    listen: shared ? (onNotify) => database.listen(EVENTS_CHANNEL, onNotify) : undefined,
    notify: shared
      ? async () => void (await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(database.db))
      : undefined,
  });
}
