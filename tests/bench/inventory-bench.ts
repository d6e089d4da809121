// The inventory write and read paths over HTTP beside bare Fastify routes doing the one
// statement underneath (each pair measured in turn, see alternate), and search latency at
// 100,000 and 1,000,000 items.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.js';
import { exposeEmulatorToFirebaseAdmin, loadConfig } from '../../server/config.js';
import { createTokenVerifier } from '../../server/auth/verify-token.js';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { benchBackends, fmt, load, openBenchStore, percentile, type BenchBackend, type Row } from './bench-kit.js';
import { BenchCatalog, WORDS } from './generate-items.js';

async function emulatorToken(host: string, verifierAuth: import('firebase-admin/auth').Auth): Promise<string> {
  const call = async (p: string, body: unknown) =>
    (
      await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/${p}?key=any`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json() as Promise<any>;
  const email = `bench-${Date.now()}@stockroom.test`;
  const created = await call('accounts:signUp', { email, password: 'bench123', returnSecureToken: true });
  await verifierAuth.setCustomUserClaims(created.localId, { role: 'manager' });
  return (await call('accounts:signInWithPassword', { email, password: 'bench123', returnSecureToken: true })).idToken;
}

/**
 * The app's path and the bare one, in turn: a warm-up of each (not counted), then app, bare,
 * bare, app, so drift on a shared machine (and its linear part exactly) hits both sides
 * alike, as in the command-path bench. The mean rate of each side.
 */
async function alternate(
  app: () => Promise<{ perSecond: number }>,
  bare: () => Promise<{ perSecond: number }>,
): Promise<{ app: number; bare: number }> {
  await app();
  await bare();
  const rates = { app: [] as number[], bare: [] as number[] };
  for (const side of ['app', 'bare', 'bare', 'app'] as const)
    rates[side].push((await (side === 'app' ? app : bare)()).perSecond);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return { app: mean(rates.app), bare: mean(rates.bare) };
}

async function httpPaths(backend: BenchBackend, emulatorHost: string): Promise<Row[]> {
  const bench = await openBenchStore(backend, 20);
  const config = loadConfig({
    FIREBASE_PROJECT_ID: 'demo-stockroom-bench',
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  exposeEmulatorToFirebaseAdmin(config);
  const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: Boolean(config.authEmulatorHost) });
  const app = await buildApp({ config, database: bench.database, store: bench.store, verifier });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify();
  bare.post<{ Params: { id: string } }>('/bare/:id/adjust', async (request) => {
    await sql`update items set quantity = quantity + 1 where id = ${request.params.id}`.execute(bench.database.db);
    return { ok: true };
  });
  bare.get<{ Params: { id: string } }>('/bare/:id', async (request) => {
    const rows = await sql`select * from items where id = ${request.params.id}`.execute(bench.database.db);
    return rows.rows[0];
  });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const token = await emulatorToken(emulatorHost, verifier.auth);
  const ids = await new BenchCatalog(bench.store).addItems(50);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const total = backend.name === 'pglite' ? 1000 : 3000;
  const concurrency = 16;

  const adjust = () =>
    load(total, concurrency, async (i) => {
      const res = await fetch(`${appUrl}/api/inventory/${ids[i % ids.length]}/adjust`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ delta: 1, reason: 'restock' }),
      });
      if (res.status !== 200) throw new Error(`adjust: ${res.status}`);
      await res.arrayBuffer();
    });
  const plainUpdate = () =>
    load(total, concurrency, async (i) => {
      const res = await fetch(`${bareUrl}/bare/${ids[i % ids.length]}/adjust`, { method: 'POST' });
      await res.arrayBuffer();
    });
  const getItem = () =>
    load(total, concurrency, async (i) => {
      const res = await fetch(`${appUrl}/api/inventory/${ids[i % ids.length]}`, { headers });
      if (res.status !== 200) throw new Error(`get: ${res.status}`);
      await res.arrayBuffer();
    });
  const plainSelect = () =>
    load(total, concurrency, async (i) => {
      const res = await fetch(`${bareUrl}/bare/${ids[i % ids.length]}`);
      await res.arrayBuffer();
    });
  const writes = await alternate(adjust, plainUpdate);
  const reads = await alternate(getItem, plainSelect);

  await app.close();
  await bare.close();
  await verifier.close();
  await bench.close();
  const ratio = (a: number, b: number) => fmt(a / b, 2);
  return [
    {
      benchmark: `adjust over HTTP, req/s (${backend.name}, ${concurrency} clients)`,
      result: `${fmt(writes.app)} vs bare UPDATE ${fmt(writes.bare)} = ${ratio(writes.app, writes.bare)}`,
      target: 'ratio >= 0.80',
    },
    {
      benchmark: `GET item with token check, req/s (${backend.name}, ${concurrency} clients)`,
      result: `${fmt(reads.app)} vs bare SELECT ${fmt(reads.bare)} = ${ratio(reads.app, reads.bare)}`,
      target: 'ratio >= 0.90',
    },
  ];
}

async function searchLatency(backend: BenchBackend, sizes: number[], log: (s: string) => void): Promise<Row[]> {
  const { ItemQueries } = await import('../../server/inventory/item-queries.js');
  const rows: Row[] = [];
  const bench = await openBenchStore(backend, 6);
  const queries = new ItemQueries(bench.database.db, bench.store);
  const catalog = new BenchCatalog(bench.store);
  let have = 0;
  for (const size of sizes) {
    log(`  generating ${size.toLocaleString()} items on ${backend.name}...`);
    await catalog.addItems(size - have, { start: have, writers: backend.url ? 4 : 1, log });
    have = size;
    await sql`analyze items`.execute(bench.database.db);
    const terms = Array.from({ length: 200 }, (_, i) => {
      const word = WORDS[i % WORDS.length]!;
      // Every other query carries a typo (a dropped letter), as people type.
      return i % 2 ? word.slice(0, 1) + word.slice(2) : `${word} ${i % 7}`;
    });
    const result = await load(terms.length, 1, async (i) => {
      await queries.search(terms[i]!, 50);
    });
    const row = {
      benchmark: `search at ${size.toLocaleString()} items, p50 / p95 ms (${backend.name})`,
      result: `${fmt(percentile(result.latencies, 50), 1)} / ${fmt(percentile(result.latencies, 95), 1)}`,
      target: 'p95 <= 25 ms',
    };
    log(`  ${row.benchmark}: ${row.result}`); // shown now too: the larger sizes take a while
    rows.push(row);
  }
  await bench.close();
  return rows;
}

export async function inventoryBench(log: (s: string) => void): Promise<Row[]> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-auth-'));
  const emulator = await startAuthEmulator({ projectId: 'demo-stockroom-bench', port: 9850, stateDir, persist: false });
  const rows: Row[] = [];
  try {
    for (const backend of benchBackends()) {
      log(`inventory HTTP paths on ${backend.name}...`);
      rows.push(...(await httpPaths(backend, emulator.host)));
    }
    const sizes = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000').split(',').map(Number);
    for (const backend of benchBackends()) {
      // PGlite is single-connection and slower to fill: it gets the first size only.
      rows.push(...(await searchLatency(backend, backend.name === 'pglite' ? sizes.slice(0, 1) : sizes, log)));
    }
  } finally {
    await emulator.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
  return rows;
}
