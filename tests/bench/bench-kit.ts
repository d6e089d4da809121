// Small tools the benchmarks share: backends to run on, timing, percentiles, a load loop.
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import pg from 'pg';

export interface Row {
  benchmark: string;
  result: string;
  target: string;
}

export interface BenchBackend {
  name: 'pglite' | 'postgres';
  url?: string;
}

export function benchBackends(): BenchBackend[] {
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  return url ? [{ name: 'pglite' }, { name: 'postgres', url }] : [{ name: 'pglite' }];
}

export interface BenchStore {
  database: Database;
  store: EventStore;
  close(): Promise<void>;
}

/** A fresh schema (PostgreSQL) or in-memory database (PGlite), migrated. */
export async function openBenchStore(backend: BenchBackend, poolSize = 20): Promise<BenchStore> {
  const schema = backend.url ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const database = await openDatabase({ url: backend.url, schema, poolSize });
  await migrate(database.db);
  return {
    database,
    store: new EventStore(database.db, projections),
    async close() {
      await database.close();
      if (backend.url && schema) {
        const client = new pg.Client({ connectionString: backend.url });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `total` calls of `task` with `concurrency` in flight; returns calls/s and latencies (ms). */
export async function load(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<{ perSecond: number; latencies: number[] }> {
  let next = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: total / seconds, latencies: latencies.sort((a, b) => a - b) };
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
