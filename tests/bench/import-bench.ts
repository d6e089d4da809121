// `npm run bench import`: a CSV file imported end to end over HTTP (parsed as the browser
// parses it, dry run, confirmed categories, commit in batches of 500, one after the other as
// the page sends them), 10,000 rows on PGlite and PostgreSQL and 100,000 rows on PostgreSQL;
// then the same file with every price and count changed (each row updates its item by SKU);
// beside a bare baseline measured in the same run: the same rows as plain multi-row INSERTs
// of 500 into a copy of the items table (no events, no projections, no HTTP).
// The server runs in this process with a fixed manager principal (no auth emulator: sign-in
// is not what is measured); the memory reported is this process's peak RSS while importing
// (the server, and with PGlite the database too) and how much it grew during this import.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Auth } from 'firebase-admin/auth';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { claimPrincipalResolver } from '../../server/auth/principal.js';
import type { TokenVerifier } from '../../server/auth/verify-token.js';
import { IMPORT_BATCH_ROWS } from '../../shared/import.js';
import { guessMapping } from '../../client/features/import/column-mapping.js';
import { parseCsv } from '../../client/features/import/parse-csv.js';
import { batchesOf, toImportRows } from '../../client/features/import/import-rows.js';
import { stockFile } from '../helpers/import-fixture.js';
import { benchBackends, openBenchStore, type BenchBackend, type Row } from './bench-kit.js';

const managerVerifier: TokenVerifier = {
  verify: async () => ({
    uid: 'bench-manager',
    email: 'bench@stockroom.test',
    name: 'Bench Manager',
    picture: null,
    roleClaim: 'manager',
    provider: 'password',
    expiresAt: Date.now() / 1000 + 3600,
  }),
  auth: {} as Auth,
  close: async () => undefined,
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function importOnce(backend: BenchBackend, size: number, log: (s: string) => void) {
  const bench = await openBenchStore(backend);
  // The emulator host is never called: the verifier above answers every token.
  const config = loadConfig({
    FIREBASE_PROJECT_ID: 'demo-bench',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const app = await buildApp({
    config,
    database: bench.database,
    store: bench.store,
    verifier: managerVerifier,
    resolvePrincipal: claimPrincipalResolver,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };
  const file = stockFile(size);
  global.gc?.(); // with --expose-gc: the growth below is this import's, not a previous run's garbage
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    const started = performance.now();
    const parsed = parseCsv(file.text);
    const { columns, rows } = toImportRows(parsed, guessMapping(parsed.header));
    const report = await post('/api/inventory/import/dry-run', { fileName: 'stock.csv', columns, rows });
    const checked = performance.now();
    const importId = randomUUID();
    await post('/api/inventory/import/categories', { importId, fileName: 'stock.csv', names: report.newCategories });
    const bad = new Set(report.problems.map((p: { row: number }) => p.row));
    let created = 0;
    for (const batch of batchesOf(
      rows.filter((r) => !bad.has(r.row)),
      IMPORT_BATCH_ROWS,
    )) {
      const { results } = await post('/api/inventory/import/commit', {
        importId,
        fileName: 'stock.csv',
        columns,
        rows: batch,
      });
      created += results.filter((r: { outcome: string }) => r.outcome === 'created').length;
    }
    const total = performance.now() - started;
    if (created !== file.good) throw new Error(`created ${created} of ${file.good}`);
    log(`${backend.name} ${size}: dry run ${seconds(checked - started)}, total ${seconds(total)}`);

    // The same file again with every price and count changed: each row updates its item by
    // SKU (ItemUpdated, StockAdjusted, and crossings where a count goes low or recovers).
    const price = columns.indexOf('price');
    const quantity = columns.indexOf('quantity');
    const changed = rows.map((r) => {
      if (!('cells' in r)) return r;
      const cells = [...r.cells];
      cells[price] = String(Number(cells[price]) + 1);
      cells[quantity] = String((Number(cells[quantity]) + 7) % 60);
      return { row: r.row, cells };
    });
    const updateStarted = performance.now();
    const again = await post('/api/inventory/import/dry-run', { fileName: 'stock.csv', columns, rows: changed });
    const updateId = randomUUID();
    let updated = 0;
    for (const batch of batchesOf(
      changed.filter((r) => !bad.has(r.row)),
      IMPORT_BATCH_ROWS,
    )) {
      const { results } = await post('/api/inventory/import/commit', {
        importId: updateId,
        fileName: 'stock.csv',
        columns,
        rows: batch,
      });
      updated += results.filter((r: { outcome: string }) => r.outcome === 'updated').length;
    }
    const update = performance.now() - updateStarted;
    if (again.update !== file.good || updated !== file.good) throw new Error(`updated ${updated} of ${file.good}`);
    log(`${backend.name} ${size}: re-import updating every item ${seconds(update)}`);

    // The baseline: the same rows as bare multi-row INSERTs into a copy of items.
    await sql`create table bare_items (like items including all)`.execute(bench.database.db);
    const good = rows.filter((r) => !bad.has(r.row) && 'cells' in r) as Array<{ row: number; cells: string[] }>;
    const bareStarted = performance.now();
    for (const batch of batchesOf(good, IMPORT_BATCH_ROWS)) {
      const values = batch.map(
        (
          r,
        ) => sql`(${randomUUID()}, ${r.cells[0]}, ${r.cells[7] ?? ''}, ${r.cells[1]}, ${randomUUID()}, ${r.cells[3]}, ${Number(r.cells[4])},
          ${Number(r.cells[5])}, ${Number(r.cells[6])}, 1, now(), now(), ${r.cells[0]})`,
      );
      await sql`insert into bare_items (id, name, description, sku, category_id, category_name, quantity, price, threshold,
        version, created_at, updated_at, search_text) values ${sql.join(values)}`.execute(bench.database.db);
    }
    const bare = performance.now() - bareStarted;
    return {
      total,
      dryRun: checked - started,
      update,
      bare,
      peakMb: peak / 1024 / 1024,
      growthMb: (peak - before) / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
    await app.close();
    await bench.close();
  }
}

export async function importBench(log: (s: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const sizes = (process.env.BENCH_IMPORT_SIZES ?? '').split(',').filter(Boolean).map(Number);
  for (const backend of benchBackends()) {
    const wanted = backend.name === 'postgres' ? [10_000, 100_000] : [10_000];
    for (const size of sizes.length ? wanted.filter((s) => sizes.includes(s)) : wanted) {
      const r = await importOnce(backend, size, log);
      const target = size === 10_000 ? '<= 20 s' : '<= 120 s';
      rows.push({
        benchmark: `import ${size.toLocaleString('en')} rows (${backend.name}), end to end`,
        result: `${seconds(r.total)} (dry run ${seconds(r.dryRun)}), peak RSS ${r.peakMb.toFixed(0)} MB (+${r.growthMb.toFixed(0)} MB)`,
        target,
      });
      rows.push({
        benchmark: `  the same file with new prices and counts, updating every item (${backend.name})`,
        result: seconds(r.update),
        target,
      });
      rows.push({
        benchmark: `  bare multi-row INSERT of the same rows (${backend.name})`,
        result: seconds(r.bare),
        target: 'baseline',
      });
    }
  }
  return rows;
}
