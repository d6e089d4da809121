// Replays every event into scratch copies of the projection tables. `rebuild` swaps the
// copies in; `verify` compares them row for row with the live tables and throws them away.
import { sql } from 'kysely';
import type { EventStore } from './event-store.js';
import { toStoredEvent } from './event-store.js';
import type { Transaction } from './types.js';

export interface TableDifference {
  table: string;
  /** Rows in the live table that a replay does not produce. */
  onlyLive: number;
  /** Rows a replay produces that the live table lacks. */
  onlyRebuilt: number;
  /** A few of the differing rows from each side, to show what went wrong. */
  samples?: { live: unknown[]; rebuilt: unknown[] };
}

const BATCH = 1000;

function projectionTables(store: EventStore): string[] {
  return [...new Set(store.projections.flatMap((p) => p.tables))];
}

async function replayIntoScratch(store: EventStore, trx: Transaction): Promise<{ live: string; SCRATCH: string }> {
  const live = (await sql<{ schema: string }>`select current_schema() as schema`.execute(trx)).rows[0]!.schema;
  // Named after the live schema so test runs sharing a database never meet.
  const SCRATCH = `${live}_rebuild`;
  await sql`drop schema if exists ${sql.id(SCRATCH)} cascade`.execute(trx);
  await sql`create schema ${sql.id(SCRATCH)}`.execute(trx);
  for (const table of projectionTables(store)) {
    await sql`create table ${sql.id(SCRATCH, table)} (like ${sql.id(live, table)} including all)`.execute(trx);
  }
  // Projections use unqualified names: the scratch tables now come first, events stay live.
  await sql.raw(`set local search_path to "${SCRATCH}", "${live}", public`).execute(trx);
  let after = { txId: '0', position: 0 };
  for (;;) {
    // ORDER BY names the table: the bare name would be the tx_id::text alias (1000 before 999).
    const rows = await sql<any>`select position, tx_id::text as tx_id, stream_id, stream_type, stream_version,
        event_id::text as event_id, type, data, metadata, created_at from events
      where (tx_id, position) > (${after.txId}::xid8, ${after.position}::bigint)
      order by events.tx_id, events.position limit ${BATCH}`.execute(trx);
    for (const row of rows.rows) {
      const event = toStoredEvent(row);
      await store.project(event, trx);
      after = { txId: event.txId, position: event.position };
    }
    if (rows.rows.length < BATCH) break;
  }
  return { live, SCRATCH };
}

export async function rebuildProjections(store: EventStore): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    const { live, SCRATCH } = await replayIntoScratch(store, trx);
    for (const table of projectionTables(store)) {
      await sql`drop table ${sql.id(live, table)}`.execute(trx);
      await sql`alter table ${sql.id(SCRATCH, table)} set schema ${sql.id(live)}`.execute(trx);
    }
    await sql`drop schema ${sql.id(SCRATCH)} cascade`.execute(trx);
  });
}

export async function verifyProjections(store: EventStore): Promise<TableDifference[]> {
  const differences: TableDifference[] = [];
  await store.db
    .transaction()
    .execute(async (trx) => {
      const { live, SCRATCH } = await replayIntoScratch(store, trx);
      for (const table of projectionTables(store)) {
        const count = async (a: string, b: string) =>
          Number(
            (
              await sql<{ n: number }>`select count(*)::int as n from (
                select * from ${sql.id(a, table)} except all select * from ${sql.id(b, table)}) d`.execute(trx)
            ).rows[0]!.n,
          );
        const onlyLive = await count(live, SCRATCH);
        const onlyRebuilt = await count(SCRATCH, live);
        if (onlyLive || onlyRebuilt) {
          const sample = async (a: string, b: string) =>
            (await sql`select * from ${sql.id(a, table)} except all select * from ${sql.id(b, table)} limit 3`.execute(trx))
              .rows;
          differences.push({
            table,
            onlyLive,
            onlyRebuilt,
            samples: { live: await sample(live, SCRATCH), rebuilt: await sample(SCRATCH, live) },
          });
        }
      }
      throw new RollbackScratch();
    })
    .catch((error) => {
      if (!(error instanceof RollbackScratch)) throw error;
    });
  return differences;
}

class RollbackScratch extends Error {}
