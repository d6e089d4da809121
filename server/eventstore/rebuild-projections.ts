// Replays every event into scratch copies of the projection tables, a chunk of events per
// transaction. `rebuild` swaps the copies in (the last events and the swap in one
// transaction); `verify` compares them row for row with the live tables and drops them.
import { sql } from 'kysely';
import type { EventStore } from './event-store.js';
import { toStoredEvent } from './event-store.js';
import { START, type Cursor, type Transaction } from './types.js';

export interface TableDifference {
  table: string;
  /** Rows in the live table that a replay does not produce. */
  onlyLive: number;
  /** Rows a replay produces that the live table lacks. */
  onlyRebuilt: number;
  /** A few of the differing rows from each side, to show what went wrong. */
  samples?: { live: unknown[]; rebuilt: unknown[] };
}

/**
 * Events replayed per transaction. A row changed again and again inside one transaction
 * keeps every version it had until the commit (none can be pruned while the transaction
 * runs), and each change walks past all of them: replaying one busy item's 10,000
 * adjustments in a single transaction took 68 s on PostgreSQL, most of it in those walks.
 * Committing every CHUNK events keeps the chains short, so a replay grows with the log, not
 * with the square of a row's changes.
 */
const CHUNK = 250;

interface Scratch {
  live: string;
  scratch: string;
}

/** Where a chunk of the replay got to, and how many events it replayed (fewer than CHUNK: the end). */
interface Chunk {
  after: Cursor;
  count: number;
}

function projectionTables(store: EventStore): string[] {
  return [...new Set(store.projections.flatMap((p) => p.tables))];
}

/** Empty copies of the projection tables in a schema of their own (committed: each chunk of the replay is a transaction of its own). */
async function createScratch(store: EventStore): Promise<Scratch> {
  return store.db.transaction().execute(async (trx) => {
    const live = (await sql<{ schema: string }>`select current_schema() as schema`.execute(trx)).rows[0]!.schema;
    // Named after the live schema so test runs sharing a database never meet.
    const scratch = `${live}_rebuild`;
    await sql`drop schema if exists ${sql.id(scratch)} cascade`.execute(trx);
    await sql`create schema ${sql.id(scratch)}`.execute(trx);
    for (const table of projectionTables(store)) {
      await sql`create table ${sql.id(scratch, table)} (like ${sql.id(live, table)} including all)`.execute(trx);
    }
    return { live, scratch };
  });
}

const dropScratch = (store: EventStore, { scratch }: Scratch) =>
  sql`drop schema if exists ${sql.id(scratch)} cascade`.execute(store.db);

/** Replays up to CHUNK events after `after` into the scratch tables, inside `trx`; returns where it got to and how many it replayed. */
async function replayChunk(
  store: EventStore,
  trx: Transaction,
  { live, scratch }: Scratch,
  after: Cursor,
): Promise<Chunk> {
  // Projections use unqualified names: the scratch tables now come first, events stay live.
  await sql.raw(`set local search_path to "${scratch}", "${live}", public`).execute(trx);
  // ORDER BY names the table: the bare name would be the tx_id::text alias (1000 before 999).
  const rows = await sql<any>`select position, tx_id::text as tx_id, stream_id, stream_type, stream_version,
      event_id::text as event_id, type, data, metadata, created_at from events
    where (tx_id, position) > (${after.txId}::xid8, ${after.position}::bigint)
    order by events.tx_id, events.position limit ${CHUNK}`.execute(trx);
  let reached = after;
  for (const row of rows.rows) {
    const event = toStoredEvent(row);
    await store.project(event, trx);
    reached = { txId: event.txId, position: event.position };
  }
  return { after: reached, count: rows.rows.length };
}

/**
 * Replays every event after `after` into the scratch tables, a chunk at a time, each chunk
 * in the transaction `inTransaction` gives it (its own, or one shared); returns where it got to.
 */
async function replayFrom(
  store: EventStore,
  names: Scratch,
  after: Cursor,
  inTransaction: (work: (trx: Transaction) => Promise<Chunk>) => Promise<Chunk>,
): Promise<Cursor> {
  for (;;) {
    const chunk = await inTransaction((trx) => replayChunk(store, trx, names, after));
    after = chunk.after;
    if (chunk.count < CHUNK) return after;
  }
}

/** A transaction of its own for each chunk. */
const ownTransaction =
  (store: EventStore) =>
  <T>(work: (trx: Transaction) => Promise<T>) =>
    store.db.transaction().execute(work);

export async function rebuildProjections(store: EventStore): Promise<void> {
  const names = await createScratch(store);
  try {
    const after = await replayFrom(store, names, START, ownTransaction(store));
    // What was written meanwhile, and the swap, in one transaction.
    await store.db.transaction().execute(async (trx) => {
      await replayFrom(store, names, after, (work) => work(trx));
      for (const table of projectionTables(store)) {
        await sql`drop table ${sql.id(names.live, table)}`.execute(trx);
        await sql`alter table ${sql.id(names.scratch, table)} set schema ${sql.id(names.live)}`.execute(trx);
      }
      await sql`drop schema ${sql.id(names.scratch)} cascade`.execute(trx);
    });
  } catch (error) {
    await dropScratch(store, names).catch(() => undefined);
    throw error;
  }
}

export async function verifyProjections(store: EventStore): Promise<TableDifference[]> {
  const names = await createScratch(store);
  const { live, scratch } = names;
  try {
    await replayFrom(store, names, START, ownTransaction(store));
    const differences: TableDifference[] = [];
    for (const table of projectionTables(store)) {
      const count = async (a: string, b: string) =>
        Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from (
              select * from ${sql.id(a, table)} except all select * from ${sql.id(b, table)}) d`.execute(store.db)
          ).rows[0]!.n,
        );
      const onlyLive = await count(live, scratch);
      const onlyRebuilt = await count(scratch, live);
      if (onlyLive || onlyRebuilt) {
        const sample = async (a: string, b: string) =>
          (
            await sql`select * from ${sql.id(a, table)} except all select * from ${sql.id(b, table)} limit 3`.execute(
              store.db,
            )
          ).rows;
        differences.push({
          table,
          onlyLive,
          onlyRebuilt,
          samples: { live: await sample(live, scratch), rebuilt: await sample(scratch, live) },
        });
      }
    }
    return differences;
  } finally {
    await dropScratch(store, names);
  }
}
