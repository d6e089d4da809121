// As-of reads at 1,000,000 events over 10,000 items: the as-of listing and the
// as-of dashboard (target p95 <= 100 ms) and a month's compare (p95 <= 300 ms), each beside
// the live listing measured in the same run on the same store. The store holds 90 days of
// history written with the times it would have had (as-of-fill.ts), and a sample of it is
// checked against a replay of the events before anything is timed. BENCH_AS_OF_EVENTS sets
// the size, BENCH_BACKEND one backend.
import { sql } from 'kysely';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { itemStream } from '../../shared/inventory-events.js';
import { NotFoundError } from '../../server/errors.js';
import { ItemQueries } from '../../server/inventory/item-queries.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { AsOfQueries } from '../../server/history/as-of-queries.js';
import { AsOfDashboardQueries } from '../../server/history/as-of-dashboard.js';
import { ChangesQueries } from '../../server/history/changes-queries.js';
import {
  benchBackends,
  fmt,
  openBenchStore,
  percentile,
  type BenchBackend,
  type BenchStore,
  type Row,
} from './bench-kit.js';
import { fillAsOfStore, type AsOfFill } from './as-of-fill.js';

const ITEMS = 10_000;
const DAY = 86_400_000;

/**
 * The fill must be what the app would have written: for a sample of items and moments, the
 * as-of read equals a fold of the item's events up to that moment (the property tests in
 * history-as-of.test.ts check the same on small stores, history-bench-fill.test.ts the fill).
 */
async function checkSample(bench: BenchStore, fill: AsOfFill): Promise<void> {
  const asOf = new AsOfQueries(bench.database.db);
  const span = fill.to.getTime() - fill.from.getTime();
  for (let s = 0; s < 20; s++) {
    const id = fill.itemIds[(s * 7919) % fill.itemIds.length]!;
    const t = new Date(fill.from.getTime() + ((s * 0.37) % 1) * span + 1);
    let state: ItemState | null = null;
    for (const e of await bench.store.readStream(itemStream(id).id, { until: t })) {
      state = evolveItem(state, { type: e.type, data: e.data } as InventoryEvent, {
        version: e.streamVersion,
        at: e.createdAt,
        streamId: e.streamId,
      });
    }
    const read = await asOf.item(t, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null; // not created yet at `t`
      throw error;
    });
    const want = state && { name: state.name, quantity: state.quantity, price: state.price, version: state.version };
    const got = read && { name: read.name, quantity: read.quantity, price: read.price, version: read.version };
    if (JSON.stringify(want) !== JSON.stringify(got)) {
      throw new Error(
        `as-of fill: item ${id} at ${t.toISOString()} reads ${JSON.stringify(got)}, a replay gives ${JSON.stringify(want)}`,
      );
    }
  }
}

async function time(runs: number, task: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await task(i);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

async function measure(backend: BenchBackend, events: number, log: (s: string) => void): Promise<Row[]> {
  const bench = await openBenchStore(backend);
  try {
    log(`as-of: filling ${fmt(events)} events over ${fmt(ITEMS)} items on ${backend.name}...`);
    const started = Date.now();
    const fill = await fillAsOfStore(bench.store, { items: ITEMS, events, log });
    log(`as-of: filled in ${Math.round((Date.now() - started) / 1000)} s; vacuum, then a sample against a replay...`);
    // Every version is closed by an UPDATE, which leaves a dead tuple whose open range matches
    // every later moment: unvacuumed, a lookup at one moment visits ~all of them (PGlite:
    // listing p95 490 ms, compare 1,021 ms; after VACUUM 33 and 203). PostgreSQL's autovacuum
    // keeps up in a store that lives for months; PGlite has no autovacuum, so the app has to
    // vacuum item_versions itself for these numbers to hold (server/db/pglite-vacuum.ts).
    await sql`vacuum analyze`.execute(bench.database.db);
    await checkSample(bench, fill);
    return await timeReads(bench, backend.name, events);
  } finally {
    await bench.close();
  }
}

/** The timings on a filled store (exported for profiling a kept store). */
export async function timeReads(bench: BenchStore, backendName: string, events: number): Promise<Row[]> {
  {
    const db = bench.database.db;
    const live = new ItemQueries(db, bench.store);
    const asOf = new AsOfQueries(db);
    const changes = new ChangesQueries(db);
    // Instants spread over the last 90 days, the same ones for every case.
    const moments = Array.from({ length: 60 }, (_, i) => new Date(Date.now() - ((i * 37) % 89) * DAY - 3_600_000));
    const row = (what: string, r: { p50: number; p95: number }, target: string): Row => ({
      benchmark: `${what} at ${fmt(events)} events, p50 / p95 ms (${backendName})`,
      result: `${fmt(r.p50, 1)} / ${fmt(r.p95, 1)}`,
      target,
    });
    await time(5, () => live.list(100)); // warm
    const baseline = await time(60, () => live.list(100));
    const listing = await time(60, (i) => asOf.items(moments[i]!, 100));
    const dashboard = await time(60, (i) => new AsOfDashboardQueries(db, moments[i]!).summary());
    const compare = await time(20, (i) => changes.between(new Date(moments[i]!.getTime() - 30 * DAY), moments[i]!));
    return [
      row('live listing, 100 items (bare baseline)', baseline, '(baseline)'),
      row('as-of listing, 100 items', listing, 'p95 <= 100'),
      row('as-of dashboard', dashboard, 'p95 <= 100'),
      row('compare over a month', compare, 'p95 <= 300'),
    ];
  }
}

export async function asOfBench(log: (s: string) => void): Promise<Row[]> {
  const events = Number(process.env.BENCH_AS_OF_EVENTS ?? 1_000_000);
  const rows: Row[] = [];
  const only = process.env.BENCH_BACKEND; // pglite or postgres: one backend
  for (const backend of benchBackends().filter((b) => !only || b.name === only))
    rows.push(...(await measure(backend, events, log)));
  return rows;
}
