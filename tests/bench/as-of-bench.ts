// As-of reads (issue 14) at 1,000,000 events over 10,000 items: the as-of listing and the
// as-of dashboard (target p95 <= 100 ms) and a month's compare (p95 <= 300 ms), each beside
// the live listing measured in the same run on the same store. The store is filled through
// the event store's append statement (projections included, adjustments in their set-based
// form), 500 items to a statement; the history rows' times are then spread over the last
// 90 days in log order (the fill itself takes minutes, not months), which keeps every
// version's range in the order a real store's would be. BENCH_AS_OF_EVENTS sets the size.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { categoryStream, itemStream } from '../../shared/inventory-events.js';
import { createCategory } from '../../server/categories/decide.js';
import { createItem } from '../../server/inventory/decide.js';
import { ItemQueries } from '../../server/inventory/item-queries.js';
import { AsOfQueries } from '../../server/history/as-of-queries.js';
import { AsOfDashboardQueries } from '../../server/history/as-of-dashboard.js';
import { ChangesQueries } from '../../server/history/changes-queries.js';
import { benchBackends, fmt, openBenchStore, percentile, type BenchBackend, type BenchStore, type Row } from './bench-kit.js';

const ITEMS = 10_000;
const CHUNK = 500;
const DAY = 86_400_000;
const meta = { actor: { uid: 'bench', name: 'Bench' }, correlationId: 'bench-as-of' };

export async function fill(bench: BenchStore, events: number, log: (s: string) => void): Promise<void> {
  const { store } = bench;
  const categories: string[] = [];
  for (let c = 0; c < 20; c++) {
    const id = randomUUID();
    await store.append(categoryStream(id), 0, createCategory({ categoryId: id, name: `As-of Category ${c}`, description: '' }), meta);
    categories.push(id);
  }
  const ids = Array.from({ length: ITEMS }, () => randomUUID());
  const quantity = new Map(ids.map((id) => [id, 1000]));
  for (let i = 0; i < ITEMS; i += CHUNK) {
    await store.db.transaction().execute((trx) =>
      store.appendBatch(
        trx,
        ids.slice(i, i + CHUNK).map((id, k) => ({
          stream: itemStream(id),
          expectedVersion: 0,
          commands: [
            {
              events: createItem({ itemId: id, fields: { name: `As-of item ${i + k}`, description: '', sku: `ASOF-${i + k}`, categoryId: categories[(i + k) % 20]!, quantity: 1000, price: 2.5, threshold: 5, imageUrl: null, expiryDate: null, barcode: null } }, null),
              metadata: meta,
            },
          ],
        })),
      ),
    );
  }
  const rounds = Math.max(1, Math.round((events - ITEMS) / ITEMS));
  const started = Date.now();
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < ITEMS; i += CHUNK) {
      await store.db.transaction().execute((trx) =>
        store.appendBatch(
          trx,
          ids.slice(i, i + CHUNK).map((id) => {
            const delta = r % 2 === 0 ? -3 : 3;
            const q = quantity.get(id)! + delta;
            quantity.set(id, q);
            return {
              stream: itemStream(id),
              expectedVersion: 'any' as const,
              commands: [{ events: [{ type: 'StockAdjusted', data: { delta, reason: delta < 0 ? 'sale' : 'restock', note: null, quantity: q } }], metadata: meta }],
            };
          }),
        ),
      );
    }
    if (r % 10 === 9) log(`  as-of fill: ${fmt((r + 1) * ITEMS + ITEMS)} events (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  // Spread the versions over the last 90 days in log order (see the top of this file).
  const { rows } = await sql<{ max: number }>`select max(position)::bigint as max from events`.execute(store.db);
  const max = Number(rows[0]!.max);
  const start = Date.now() - 90 * DAY;
  const step = (90 * DAY) / max;
  const at = (column: string) => sql`to_timestamp((${start} + ${sql.ref(column)} * ${step}::float8) / 1000.0)`;
  await sql`update item_versions set from_at = ${at('valid_from')}, to_at = case when valid_to is null then null else ${at('valid_to')} end,
    created_at = to_timestamp(${start} / 1000.0)`.execute(store.db);
  await sql`update category_versions set from_at = to_timestamp(${start - DAY} / 1000.0), created_at = to_timestamp(${start - DAY} / 1000.0)`.execute(store.db);
  await sql`analyze`.execute(store.db);
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
    await fill(bench, events, log);
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
  for (const backend of benchBackends().filter((b) => !only || b.name === only)) rows.push(...(await measure(backend, events, log)));
  return rows;
}
