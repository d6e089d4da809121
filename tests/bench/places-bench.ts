// Reads by place at a chain's size, through the real HTTP app: a store of 100,000 items over
// 1,000 locations of 10 sites (about 1,000,000 stock_levels rows, places-fill.ts), then, one
// request at a time, the item list filtered by site and by location (target p95 <= 50 ms) and
// "where is it", GET /api/inventory/{id}/locations (p95 <= 10 ms), each beside a bare Fastify
// route running the one plain statement underneath (the newest page of items, an item's
// stock_levels rows) and the unfiltered list. PostgreSQL only: a million-row fill on PGlite
// would measure the fill. BENCH_PLACES_ITEMS sets the size; BENCH_PLACES_KEEP=<schema> fills
// that schema once and reuses it on later runs (for profiling; it is never dropped).
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import { buildApp } from '../../server/app.js';
import { exposeEmulatorToFirebaseAdmin, loadConfig } from '../../server/config.js';
import { createTokenVerifier } from '../../server/auth/verify-token.js';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { startAuthEmulator } from '../../server/launch/auth-emulator.js';
import { benchBackends, fmt, load, openBenchStore, percentile, type BenchStore, type Row } from './bench-kit.js';
import { signIn } from './command-path-bench.js';
import { fillPlacesStore } from './places-fill.js';

const PROJECT = 'demo-stockroom-bench';
const EMULATOR_PORT = Number(process.env.BENCH_PLACES_EMULATOR_PORT ?? 9852);
/** Requests per case, after a warm-up of a tenth as many. */
const RUNS = 200;

interface Places {
  siteIds: string[];
  /** Locations holding stock, one per site in turn (aisles are parents, bins hold the stock). */
  locationIds: string[];
  itemIds: string[];
  stockRows: number;
}

/** A kept schema (BENCH_PLACES_KEEP) or a fresh one, filled to `items` unless it already is. */
async function openFilled(url: string, items: number, log: (s: string) => void): Promise<BenchStore> {
  const keep = process.env.BENCH_PLACES_KEEP;
  const bench = keep
    ? await (async () => {
        const database = await openDatabase({ url, schema: keep, poolSize: 10 });
        await migrate(database.db);
        return { database, store: new EventStore(database.db, projections), close: () => database.close() };
      })()
    : await openBenchStore({ name: 'postgres', url }, 10);
  const have = Number(
    (await sql<{ n: number }>`select count(*)::int as n from items`.execute(bench.database.db)).rows[0]!.n,
  );
  if (have > 0 && have < items) throw new Error(`places: ${keep} holds ${fmt(have)} items, not ${fmt(items)}: drop it`);
  if (have === 0) {
    log(`places: filling ${fmt(items)} items over 1,000 locations...`);
    const started = Date.now();
    await fillPlacesStore(bench.store, { items, log });
    log(`places: filled in ${Math.round((Date.now() - started) / 1000)} s; vacuum analyze...`);
    await sql`vacuum analyze`.execute(bench.database.db);
  }
  return bench;
}

/** What the cases read: the bench's sites, locations that hold stock, and a spread of items. */
async function placesOf(bench: BenchStore): Promise<Places> {
  const db = bench.database.db;
  const sites = await sql<{ id: string }>`select id::text as id from sites where code like 'B%' order by code`.execute(
    db,
  );
  const locations = await sql<{ id: string }>`select l.id::text as id from locations l
    where l.parent_id is not null and exists (select 1 from stock_levels s where s.location_id = l.id)
    order by md5(l.id::text) limit ${RUNS}`.execute(db);
  const items = await sql<{
    id: string;
  }>`select id::text as id from items order by md5(id::text) limit ${RUNS}`.execute(db);
  const rows = await sql<{ n: number }>`select count(*)::int as n from stock_levels`.execute(db);
  return {
    siteIds: sites.rows.map((r) => r.id),
    locationIds: locations.rows.map((r) => r.id),
    itemIds: items.rows.map((r) => r.id),
    stockRows: Number(rows.rows[0]!.n),
  };
}

/** "Where is it" must say what a replay of the item's events says: a sample, before anything is timed. */
async function checkSample(bench: BenchStore, appUrl: string, token: string, itemIds: string[]): Promise<void> {
  for (const id of itemIds.slice(0, 20)) {
    let state: ItemState | null = null;
    for (const e of await bench.store.readStream(itemStream(id).id))
      state = evolveItem(state, { type: e.type, data: e.data } as InventoryEvent, {
        version: e.streamVersion,
        at: e.createdAt,
        streamId: e.streamId,
      });
    const answer = (await (
      await fetch(`${appUrl}/api/inventory/${id}/locations`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { total: number; locations: Array<{ locationId: string; quantity: number }> };
    const read = Object.fromEntries(answer.locations.map((l) => [l.locationId, l.quantity]));
    if (JSON.stringify(Object.entries(read).sort()) !== JSON.stringify(Object.entries(state!.levels).sort()))
      throw new Error(
        `places fill: item ${id} is at ${JSON.stringify(read)}, a replay says ${JSON.stringify(state!.levels)}`,
      );
  }
}

/** Latencies (ms, sorted) of `RUNS` GETs made one after the other, after a warm-up. */
async function timeGets(pathOf: (i: number) => string, base: string, token?: string): Promise<number[]> {
  const get = async (i: number) => {
    const res = await fetch(base + pathOf(i), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (res.status !== 200) throw new Error(`GET ${pathOf(i)}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  await load(RUNS / 10, 1, get);
  return (await load(RUNS, 1, get)).latencies;
}

const ms = (sorted: number[]) => `${fmt(percentile(sorted, 50), 1)} / ${fmt(percentile(sorted, 95), 1)}`;

async function measure(bench: BenchStore, emulatorHost: string): Promise<Row[]> {
  const config = loadConfig({
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  exposeEmulatorToFirebaseAdmin(config);
  const verifier = createTokenVerifier(config.firebaseProjectId, { emulator: true });
  const app = await buildApp({ config, database: bench.database, store: bench.store, verifier });
  const bare = Fastify();
  const db = bench.database.db;
  bare.get('/bare/items', async () => {
    const rows = await sql`select * from items order by created_at desc, id desc limit 101`.execute(db);
    return rows.rows;
  });
  bare.get<{ Params: { id: string } }>('/bare/items/:id/levels', async (request) => {
    const rows = await sql`select * from stock_levels where item_id = ${request.params.id}`.execute(db);
    return rows.rows;
  });
  try {
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const token = await signIn(emulatorHost);
    const places = await placesOf(bench);
    await checkSample(bench, appUrl, token, places.itemIds);
    const size = `${fmt(await itemCount(bench))} items, ${fmt(places.stockRows)} stock rows`;
    console.error(`places: timing reads at ${size}...`);
    const { siteIds, locationIds, itemIds } = places;
    const unfiltered = await timeGets(() => '/api/inventory', appUrl, token);
    const bareList = await timeGets(() => '/bare/items', bareUrl);
    const bySite = await timeGets((i) => `/api/inventory?siteId=${siteIds[i % siteIds.length]}`, appUrl, token);
    const byLocation = await timeGets(
      (i) => `/api/inventory?locationId=${locationIds[i % locationIds.length]}`,
      appUrl,
      token,
    );
    const whereIs = await timeGets((i) => `/api/inventory/${itemIds[i % itemIds.length]}/locations`, appUrl, token);
    const bareLevels = await timeGets((i) => `/bare/items/${itemIds[i % itemIds.length]}/levels`, bareUrl);
    const row = (what: string, result: string, target: string): Row => ({
      benchmark: `${what}, p50 / p95 ms (postgres, ${size})`,
      result,
      target,
    });
    return [
      row(
        'list, 100 items (bare baseline: its statement alone)',
        `${ms(unfiltered)} (bare ${ms(bareList)})`,
        '(baseline)',
      ),
      row(`list filtered by site (${siteIds.length} sites)`, ms(bySite), 'p95 <= 50'),
      row(`list filtered by location (${locationIds.length} locations)`, ms(byLocation), 'p95 <= 50'),
      row(
        'where is it, GET /api/inventory/{id}/locations',
        `${ms(whereIs)} (bare SELECT of its rows ${ms(bareLevels)})`,
        'p95 <= 10',
      ),
    ];
  } finally {
    await app.close();
    await bare.close();
    await verifier.close();
  }
}

const itemCount = async (bench: BenchStore) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from items`.execute(bench.database.db)).rows[0]!.n);

export async function placesBench(log: (s: string) => void): Promise<Row[]> {
  const postgres = benchBackends().find((b) => b.url);
  if (!postgres?.url) {
    log('places: needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL); skipped');
    return [{ benchmark: 'reads by place (PostgreSQL only)', result: 'not run: no PostgreSQL', target: '' }];
  }
  // The fill first: the emulator need not wait through it.
  const bench = await openFilled(postgres.url, Number(process.env.BENCH_PLACES_ITEMS ?? 100_000), log);
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'stockroom-bench-auth-'));
  try {
    const emulator = await startAuthEmulator({ projectId: PROJECT, port: EMULATOR_PORT, stateDir, persist: false });
    try {
      return await measure(bench, emulator.host);
    } finally {
      await emulator.stop();
    }
  } finally {
    await rm(stateDir, { recursive: true, force: true });
    await bench.close();
  }
}
