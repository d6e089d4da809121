// Reads by place at a chain's size, through the real HTTP app: a store of 100,000 items over
// 1,000 locations of 10 sites (about 1,000,000 stock_levels rows, places-fill.ts), then, one
// request at a time, the item list filtered by site, by location (a bin) and by an aisle with
// the bins inside it (target p95 <= 50 ms) and "where is it", GET /api/inventory/{id}/locations
// (p95 <= 10 ms), each beside a bare Fastify route running the one plain statement underneath
// (the newest page of items, an item's stock_levels rows) and the unfiltered list. Then
// transfers of 500 lines between two sites, drafted, shipped and received through the API
// (target: shipped and received <= 500 ms each), each step beside a bare route doing the
// same stock changes in one statement on copies of items and stock_levels. PostgreSQL only: a
// million-row fill on PGlite would measure the fill. BENCH_PLACES_ITEMS sets the size,
// BENCH_PLACES_TRANSFERS the transfers timed; BENCH_PLACES_KEEP=<schema> fills that schema once
// and reuses it on later runs (for profiling; it is never dropped).
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import type { TransferLine } from '../../shared/transfers.js';
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
/** Transfers timed, after one not counted, and the lines of each. */
const TRANSFER_RUNS = Number(process.env.BENCH_PLACES_TRANSFERS ?? 10);
const TRANSFER_LINES = 500;

interface Places {
  siteIds: string[];
  /** Bins holding stock (inside aisles, with nothing inside them), in a random order. */
  locationIds: string[];
  /** Aisles (top-level locations, holding stock themselves and with bins inside), in a random order. */
  aisleIds: string[];
  /** Bins per aisle, on average. */
  binsPerAisle: number;
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
  const aisles = await sql<{ id: string }>`select l.id::text as id from locations l
    where l.parent_id is null and exists (select 1 from locations b where b.parent_id = l.id)
    order by md5(l.id::text) limit ${RUNS}`.execute(db);
  const tree = await sql<{ bins_per_aisle: number }>`select (count(*) filter (where parent_id is not null))::float
      / greatest(1, count(*) filter (where parent_id is null)) as bins_per_aisle
    from locations where site_id in (select id from sites where code like 'B%')`.execute(db);
  const items = await sql<{
    id: string;
  }>`select id::text as id from items order by md5(id::text) limit ${RUNS}`.execute(db);
  const rows = await sql<{ n: number }>`select count(*)::int as n from stock_levels`.execute(db);
  return {
    siteIds: sites.rows.map((r) => r.id),
    locationIds: locations.rows.map((r) => r.id),
    aisleIds: aisles.rows.map((r) => r.id),
    binsPerAisle: Number(tree.rows[0]!.bins_per_aisle),
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

/** The transfers the bench makes: from the first bench site to the second, each its own items. */
interface TransferPlan {
  fromSiteId: string;
  toSiteId: string;
  /** A bin of the destination, where every transfer is received. */
  toLocationId: string;
  /** A transfer's lines per run (the first not counted): one unit of an item from where it has most. */
  runs: TransferLine[][];
}

async function transferPlan(bench: BenchStore, siteIds: string[]): Promise<TransferPlan> {
  const db = bench.database.db;
  const [fromSiteId, toSiteId] = siteIds as [string, string];
  const stocked = await sql<{ item_id: string; location_id: string }>`select item_id::text as item_id,
      location_id::text as location_id
    from (select distinct on (item_id) item_id, location_id from stock_levels
      where site_id = ${fromSiteId}::uuid and quantity > 0 order by item_id, quantity desc, location_id) s
    order by md5(item_id::text) limit ${(TRANSFER_RUNS + 1) * TRANSFER_LINES}`.execute(db);
  const to = await sql<{ id: string }>`select id::text as id from locations
    where site_id = ${toSiteId}::uuid and parent_id is not null order by code limit 1`.execute(db);
  const perRun = Math.min(TRANSFER_LINES, Math.floor(stocked.rows.length / (TRANSFER_RUNS + 1)));
  const runs = Array.from({ length: TRANSFER_RUNS + 1 }, (_, k) =>
    stocked.rows
      .slice(k * perRun, (k + 1) * perRun)
      .map((r) => ({ itemId: r.item_id, fromLocationId: r.location_id, quantity: 1 })),
  );
  return { fromSiteId, toSiteId, toLocationId: to.rows[0]!.id, runs };
}

/**
 * The bare side of the transfer rows: what a shipment and a receipt change (stock_levels and
 * the items' quantity and units in transit), each in one statement, with none of the app's
 * checks, locks, events, transfer rows or activity. On copies of the two tables (their
 * indexes and constraints too), so the store stays what its events say.
 */
async function bareTransferRoutes(bare: FastifyInstance, db: BenchStore['database']['db']): Promise<void> {
  await sql`drop table if exists bare_levels, bare_items`.execute(db);
  await sql`create table bare_items (like items including all)`.execute(db);
  await sql`insert into bare_items select * from items`.execute(db);
  await sql`create table bare_levels (like stock_levels including all)`.execute(db);
  await sql`insert into bare_levels select * from stock_levels`.execute(db);
  await sql`analyze bare_items, bare_levels`.execute(db);
  const linesOf = (lines: unknown) =>
    sql`select * from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb)
      as l("itemId" uuid, "fromLocationId" uuid, quantity int)`;
  bare.post<{ Body: { lines: TransferLine[] } }>('/bare/ship', async (request) => {
    const rows = await sql`with l as (${linesOf(request.body.lines)}),
        taken as (update bare_levels s set quantity = s.quantity - l.quantity from l
          where s.item_id = l."itemId" and s.location_id = l."fromLocationId" returning s.item_id)
      update bare_items i set quantity = i.quantity - l.quantity, in_transit = i.in_transit + l.quantity from l
      where i.id = l."itemId" returning i.id, i.quantity, i.in_transit`.execute(db);
    return rows.rows;
  });
  bare.post<{ Body: { toLocationId: string; toSiteId: string; lines: TransferLine[] } }>(
    '/bare/receive',
    async (request) => {
      const { toLocationId, toSiteId, lines } = request.body;
      const rows = await sql`with l as (${linesOf(lines)}),
          put as (insert into bare_levels (item_id, location_id, site_id, quantity, item_created_at)
            select l."itemId", ${toLocationId}::uuid, ${toSiteId}::uuid, l.quantity, i.created_at
            from l join bare_items i on i.id = l."itemId"
            on conflict (item_id, location_id) do update set quantity = bare_levels.quantity + excluded.quantity
            returning item_id)
        update bare_items i set quantity = i.quantity + l.quantity, in_transit = i.in_transit - l.quantity from l
        where i.id = l."itemId" returning i.id, i.quantity, i.in_transit`.execute(db);
      return rows.rows;
    },
  );
}

/** A POST's time (ms) and answer; anything but 2xx stops the bench. */
async function timedPost(url: string, body: unknown, token?: string): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const took = performance.now() - started;
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms: took, body: JSON.parse(text) };
}

interface TransferTimes {
  lines: number;
  draft: number[];
  ship: number[];
  receive: number[];
  bareShip: number[];
  bareReceive: number[];
}

/**
 * Each run drafts a transfer, ships it and receives every line at the destination's bin, one
 * request at a time, and does the bare shipment and receipt of the same lines between them
 * (so both sides share the machine's drift). The first run is not counted.
 */
async function timeTransfers(plan: TransferPlan, appUrl: string, bareUrl: string, token: string) {
  const times: TransferTimes = {
    lines: plan.runs[0]!.length,
    draft: [],
    ship: [],
    receive: [],
    bareShip: [],
    bareReceive: [],
  };
  for (const [k, lines] of plan.runs.entries()) {
    const { fromSiteId, toSiteId, toLocationId } = plan;
    const draft = await timedPost(`${appUrl}/api/transfers`, { fromSiteId, toSiteId, lines }, token);
    const ship = await timedPost(`${appUrl}/api/transfers/${draft.body.id}/ship`, {}, token);
    const bareShip = await timedPost(`${bareUrl}/bare/ship`, { lines });
    const units = lines.map((l) => ({ itemId: l.itemId, quantity: l.quantity }));
    const receive = await timedPost(
      `${appUrl}/api/transfers/${draft.body.id}/receive`,
      { toLocationId, lines: units },
      token,
    );
    const bareReceive = await timedPost(`${bareUrl}/bare/receive`, { toLocationId, toSiteId, lines });
    if (
      ship.body.status !== 'shipped' ||
      receive.body.status !== 'received' ||
      bareReceive.body.length !== lines.length
    )
      throw new Error(`places: transfer ${draft.body.number} is ${receive.body.status} after receiving every line`);
    if (k === 0) continue;
    times.draft.push(draft.ms);
    times.ship.push(ship.ms);
    times.receive.push(receive.ms);
    times.bareShip.push(bareShip.ms);
    times.bareReceive.push(bareReceive.ms);
  }
  for (const list of [times.draft, times.ship, times.receive, times.bareShip, times.bareReceive])
    list.sort((a, b) => a - b);
  return times;
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
  const started = Date.now();
  await bareTransferRoutes(bare, db);
  console.error(`places: copied items and stock_levels for the bare transfers in ${Date.now() - started} ms`);
  try {
    const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const token = await signIn(emulatorHost);
    const places = await placesOf(bench);
    await checkSample(bench, appUrl, token, places.itemIds);
    const size = `${fmt(await itemCount(bench))} items, ${fmt(places.stockRows)} stock rows`;
    console.error(`places: timing reads at ${size}...`);
    const { siteIds, locationIds, aisleIds, itemIds } = places;
    const unfiltered = await timeGets(() => '/api/inventory', appUrl, token);
    const bareList = await timeGets(() => '/bare/items', bareUrl);
    const bySite = await timeGets((i) => `/api/inventory?siteId=${siteIds[i % siteIds.length]}`, appUrl, token);
    const byLocation = await timeGets(
      (i) => `/api/inventory?locationId=${locationIds[i % locationIds.length]}`,
      appUrl,
      token,
    );
    const byAisle = await timeGets((i) => `/api/inventory?locationId=${aisleIds[i % aisleIds.length]}`, appUrl, token);
    const whereIs = await timeGets((i) => `/api/inventory/${itemIds[i % itemIds.length]}/locations`, appUrl, token);
    const bareLevels = await timeGets((i) => `/bare/items/${itemIds[i % itemIds.length]}/levels`, bareUrl);
    console.error(`places: timing ${TRANSFER_RUNS} transfers (after one not counted)...`);
    const transfers = await timeTransfers(await transferPlan(bench, siteIds), appUrl, bareUrl, token);
    const row = (what: string, result: string, target: string): Row => ({
      benchmark: `${what}, p50 / p95 ms (postgres, ${size})`,
      result,
      target,
    });
    const transferRow = (step: string, app: number[], bareTimes: number[] | null, target: string): Row =>
      row(
        `transfer of ${transfers.lines} lines between sites ${step}, ${app.length} runs`,
        bareTimes ? `${ms(app)} (bare UPDATEs ${ms(bareTimes)})` : ms(app),
        target,
      );
    return [
      row(
        'list, 100 items (bare baseline: its statement alone)',
        `${ms(unfiltered)} (bare ${ms(bareList)})`,
        '(baseline)',
      ),
      row(`list filtered by site (${siteIds.length} sites)`, ms(bySite), 'p95 <= 50'),
      row(`list filtered by location (${locationIds.length} bins)`, ms(byLocation), 'p95 <= 50'),
      row(
        `list filtered by location with those inside it (${aisleIds.length} aisles of ${fmt(places.binsPerAisle, 1)} bins)`,
        ms(byAisle),
        'p95 <= 50',
      ),
      row(
        'where is it, GET /api/inventory/{id}/locations',
        `${ms(whereIs)} (bare SELECT of its rows ${ms(bareLevels)})`,
        'p95 <= 10',
      ),
      transferRow('drafted', transfers.draft, null, '(no target)'),
      transferRow('shipped', transfers.ship, transfers.bareShip, 'p95 <= 500'),
      transferRow('received at one bin', transfers.receive, transfers.bareReceive, 'p95 <= 500'),
    ];
  } finally {
    await app.close();
    await bare.close();
    await sql`drop table if exists bare_levels, bare_items`.execute(db);
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
