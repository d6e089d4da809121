// A kept as-of bench store for profiling (not part of `npm run bench`): fills a PostgreSQL
// schema or a PGlite data folder the way the as-of bench does, once, then times the reads on
// it as often as asked, so a query can be looked at with EXPLAIN ANALYZE without a new fill.
//   node --import tsx tests/bench/as-of-keep.ts fill|time  (AS_OF_KEEP=pg-schema-name or /pglite/folder)
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import { fillAsOfStore } from './as-of-fill.js';
import { timeReads } from './as-of-bench.js';
import { AsOfDashboardQueries } from '../../server/history/as-of-dashboard.js';
import { percentile } from './bench-kit.js';

const target = process.env.AS_OF_KEEP ?? '/tmp/as-of-keep-pglite';
const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const pglite = target.startsWith('/');
const database = await openDatabase(pglite ? { dataDir: target } : { url, schema: target, poolSize: 20 });
await migrate(database.db);
const store = new EventStore(database.db, projections);
const events = Number(process.env.BENCH_AS_OF_EVENTS ?? 1_000_000);
try {
  if (process.argv[2] === 'fill') {
    await fillAsOfStore(store, { items: 10_000, events, log: console.log });
    await sql`vacuum analyze`.execute(database.db);
  } else if (process.argv[2] === 'parts') {
    // Each of the as-of dashboard's queries alone, at the bench's moments.
    await sql`analyze`.execute(database.db);
    const DAY = 86_400_000;
    const moments = Array.from({ length: 60 }, (_, i) => new Date(Date.now() - ((i * 37) % 89) * DAY - 3_600_000));
    const parts: Record<string, (q: AsOfDashboardQueries, t: Date) => Promise<unknown>> = {
      summary: (q) => q.summary(),
      totals: (q) => q.totals(),
      revenue: (q, t) => q.revenue(t),
      topSelling: (q, t) => q.topSelling(t),
      nearExpiry: (q, t) => q.nearExpiry(t),
      recentActivity: (q) => q.recentActivity(),
      stockValue: (q, t) => q.stockValue(t),
    };
    for (const [name, run] of Object.entries(parts)) {
      const ms: number[] = [];
      for (const t of moments) {
        const t0 = performance.now();
        await run(new AsOfDashboardQueries(database.db, t), t);
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      console.log(`${name}: p50 ${percentile(ms, 50).toFixed(1)} p95 ${percentile(ms, 95).toFixed(1)} ms`);
    }
  } else {
    for (const row of await timeReads(
      { database, store, close: async () => {} },
      pglite ? 'pglite' : 'postgres',
      events,
    )) {
      console.log(`${row.benchmark}: ${row.result} (${row.target})`);
    }
  }
} finally {
  await database.close();
}
