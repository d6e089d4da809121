// What the log and time travel know about places, through the API on both backends: the
// activity log (and its CSV) filtered by a site or a location finds the entries about it, a
// move's under both ends; the items at a location or site as of a moment, with their units
// there then; a move reverted by moving it back, refused while the destination no longer holds
// what it got; and a revert of a site's or location's change answered with a clear 422.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { splitStatements } from '../../server/db/migrate.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';

const [MAIN, BACK, SHELF, DOCK] = TEST_PLACES.map((p) => p.id) as [string, string, string, string];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends())('places in the log and in time on $name', { timeout: 120_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let categoryId: string;
  let n = 0;

  const send = (account: TestAccount, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account.idToken, body });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const r = await send(account, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newItem = (name: string, quantity: number, locationId: string) =>
    ok(manager, 'POST', '/api/inventory', {
      name: `${name} ${++n}`,
      sku: `PH-${n}-${backend.name}`,
      category_id: categoryId,
      quantity,
      price: 3,
      threshold: 0,
      location_id: locationId,
    });
  const move = (itemId: string, fromLocationId: string, toLocationId: string, quantity: number) =>
    ok(staff, 'POST', '/api/moves', { itemId, fromLocationId, toLocationId, quantity });
  /** The log's entries under a filter, as their sentences. */
  const logged = async (query: string) =>
    ((await ok(manager, 'GET', `/api/activity?limit=500&${query}`)).entries as Array<{ details: string }>).map(
      (e) => e.details,
    );
  const levels = async (itemId: string) =>
    Object.fromEntries(
      ((await ok(staff, 'GET', `/api/inventory/${itemId}/locations`)).locations as any[]).map((l) => [
        l.locationId,
        l.quantity,
      ]),
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedPlaces(server.store.store);
    manager = await accountWithRole(server, 'manager', 'Mira Manager');
    staff = await accountWithRole(server, 'staff', 'Sol Staff');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Tools ${backend.name}` })).id;
  });
  afterAll(() => server.close());

  it('filters the activity log and its CSV by site and location; a move is under both ends', async () => {
    const saw = await newItem('Saw', 5, BACK);
    const nails = await newItem('Nails', 4, MAIN);
    await move(saw.id, BACK, SHELF, 2);
    await ok(staff, 'POST', `/api/inventory/${nails.id}/adjust`, { delta: 3, reason: 'restock', locationId: DOCK });
    const bay = await ok(manager, 'POST', '/api/locations', { site_id: WAREHOUSE_SITE_ID, name: 'Bay 9', code: 'B9' });

    const moved = `Moved 2 ${saw.name} from Back room to Shelf A, by Sol Staff`;
    const sawCreated = expect.stringContaining(`Created ${saw.name}`);
    const atBack = await logged(`locationId=${BACK}`);
    expect(atBack).toEqual(expect.arrayContaining([moved, sawCreated, expect.stringContaining('Back room')]));
    expect(atBack.some((d) => d.includes(nails.name))).toBe(false);
    const atShelf = await logged(`locationId=${SHELF}`);
    expect(atShelf).toContain(moved);
    expect(atShelf.some((d) => d.startsWith(`Created ${saw.name}`))).toBe(false);

    // A site: its own changes, its locations' and stock anywhere in it.
    const atWarehouse = await logged(`siteId=${WAREHOUSE_SITE_ID}`);
    expect(atWarehouse).toEqual(
      expect.arrayContaining([
        `+3 (restock) ${nails.name} at Dock, by Sol Staff`,
        expect.stringMatching(/^Created location Bay 9 \(B9\)/),
      ]),
    );
    expect(atWarehouse).not.toContain(moved);
    const atMain = await logged(`siteId=${MAIN_SITE_ID}`);
    expect(atMain).toEqual(expect.arrayContaining([moved, expect.stringContaining(`Created ${nails.name}`)]));
    expect(atMain.some((d) => d.includes('Bay 9') || d.includes('at Dock'))).toBe(false);
    // A site and one of its locations: the location; a location of another site: nothing.
    expect(await logged(`siteId=${MAIN_SITE_ID}&locationId=${SHELF}`)).toEqual(atShelf);
    expect(await logged(`siteId=${WAREHOUSE_SITE_ID}&locationId=${SHELF}`)).toEqual([]);
    expect(await logged(`locationId=${bay.id}`)).toEqual([expect.stringMatching(/^Created location Bay 9/)]);

    // The export takes the same filter.
    const csv = await send(manager, 'GET', `/api/activity.csv?locationId=${SHELF}`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(moved);
    expect(csv.body).not.toContain(nails.name);

    // Unknown places and ids that are none are refused, clearly.
    const unknown = '00000000-0000-4000-8000-00000000beef';
    expect(await send(manager, 'GET', `/api/activity?locationId=${unknown}`)).toMatchObject({
      status: 404,
      body: { error: 'Location not found' },
    });
    expect(await send(manager, 'GET', `/api/activity.csv?siteId=${unknown}`)).toMatchObject({
      status: 404,
      body: { error: 'Site not found' },
    });
    expect((await send(manager, 'GET', '/api/activity?siteId=shop-2')).status).toBe(400);
  });

  it('lists the items at a location or site as of a moment, with their units there then', async () => {
    const drill = await newItem('Drill', 5, MAIN);
    await move(drill.id, MAIN, BACK, 2);
    const gone = await newItem('Old vice', 1, BACK);
    await sleep(30);
    const then = new Date().toISOString();
    await sleep(30);
    await move(drill.id, BACK, SHELF, 2);
    await ok(staff, 'POST', `/api/inventory/${drill.id}/adjust`, { delta: -1, reason: 'sale', locationId: MAIN });
    const later = await newItem('Level', 2, BACK);
    expect((await send(manager, 'DELETE', `/api/inventory/${gone.id}`)).status).toBe(204);

    const ours = [drill.id, gone.id, later.id];
    const list = async (query: string) =>
      ((await ok(staff, 'GET', `/api/inventory?limit=500&${query}`)) as any[])
        .filter((i) => ours.includes(i.id))
        .map((i) => ({ name: i.name, quantity: i.quantity, here: i.quantityHere }));
    const asOf = `asOf=${encodeURIComponent(then)}`;

    expect(await list(`${asOf}&locationId=${BACK}`)).toEqual([
      { name: gone.name, quantity: 1, here: 1 },
      { name: drill.name, quantity: 5, here: 2 },
    ]);
    // Now: the drill's two went on to Shelf A, the vice is deleted, the level came later.
    expect(await list(`locationId=${BACK}`)).toEqual([
      { name: later.name, quantity: 2, here: 2 },
      { name: drill.name, quantity: 4, here: 0 },
    ]);
    expect(await list(`${asOf}&locationId=${SHELF}`)).toEqual([]);
    expect(await list(`${asOf}&siteId=${MAIN_SITE_ID}`)).toEqual([
      { name: gone.name, quantity: 1, here: 1 },
      { name: drill.name, quantity: 5, here: 5 },
    ]);
    expect(await list(`${asOf}&siteId=${WAREHOUSE_SITE_ID}`)).toEqual([]);
    // Pages follow the live list's cursor.
    const first = await send(staff, 'GET', `/api/inventory?limit=1&${asOf}&locationId=${BACK}`);
    expect(first.body.map((i: any) => i.id)).toEqual([gone.id]);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const next = await ok(staff, 'GET', `/api/inventory?limit=1&${asOf}&locationId=${BACK}&cursor=${cursor}`);
    expect(next[0]).toMatchObject({ id: drill.id, quantityHere: 2 });
  });

  it('reverts a move by moving it back, refused while the destination holds less than it got', async () => {
    const clamp = await newItem('Clamp', 6, MAIN);
    await move(clamp.id, MAIN, BACK, 4);
    await move(clamp.id, BACK, SHELF, 3);
    const entries = (await ok(manager, 'GET', `/api/activity?limit=50&locationId=${BACK}`)).entries as any[];
    const eventOf = (details: string) => entries.find((e) => e.details.startsWith(details))!.eventId as string;
    const first = eventOf(`Moved 4 ${clamp.name}`);
    const second = eventOf(`Moved 3 ${clamp.name}`);

    const refusal = `Cannot revert: ${clamp.name} has 1 at Back room now; moving 4 back needs 4 there`;
    expect((await ok(staff, 'GET', `/api/events/${first}/revert`)).blocked).toBe(refusal);
    expect(await send(staff, 'POST', `/api/events/${first}/revert`, {})).toMatchObject({
      status: 409,
      body: { error: refusal },
    });
    expect(await levels(clamp.id)).toEqual({ [MAIN]: 2, [BACK]: 1, [SHELF]: 3 });

    await ok(staff, 'POST', `/api/events/${second}/revert`, {});
    expect(await levels(clamp.id)).toEqual({ [MAIN]: 2, [BACK]: 4, [SHELF]: 0 });
    await ok(staff, 'POST', `/api/events/${first}/revert`, { reason: 'wrong shelf' });
    expect(await levels(clamp.id)).toEqual({ [MAIN]: 6, [BACK]: 0, [SHELF]: 0 });
    expect((await ok(staff, 'GET', `/api/inventory/${clamp.id}`)).quantity).toBe(6);
    // The revert is a move too: under both its ends in the log.
    expect(await logged(`locationId=${MAIN}`)).toContain(
      `Reverted move of 4 ${clamp.name} from Main location to Back room, by Sol Staff, why: wrong shelf`,
    );
  });

  it("answers a revert of a site's or location's change with a clear 422, nothing changed", async () => {
    const shelf = await ok(manager, 'POST', '/api/locations', { site_id: MAIN_SITE_ID, name: 'Shelf Z', code: 'SZ' });
    const entry = ((await ok(manager, 'GET', `/api/activity?locationId=${shelf.id}`)).entries as any[])[0];
    expect(entry).toMatchObject({ resourceType: 'location', resourceId: shelf.id });
    const refusal = {
      status: 422,
      body: { error: "Changes to sites and locations can't be reverted: change the place back on Sites and locations" },
    };
    expect(await send(manager, 'GET', `/api/events/${entry.eventId}/revert`)).toMatchObject(refusal);
    expect(await send(manager, 'POST', `/api/events/${entry.eventId}/revert`, {})).toMatchObject(refusal);
    expect((await ok(manager, 'GET', `/api/locations/${shelf.id}`)).archivedAt).toBeNull();
  });

  it('files entries written before migration 029 as the projection files them, and a replay agrees', async () => {
    const db = server.store.database.db;
    // The migration's backfill, run again over entries whose places are forgotten.
    const backfill = splitStatements(readFileSync('migrations/029_activity_places.sql', 'utf8')).find((s) =>
      s.startsWith('update activity_log'),
    )!;
    await sql`update activity_log set place_ids = '{}'`.execute(db);
    await sql.raw(backfill).execute(db);
    expect(await verifyProjections(server.store.store)).toEqual([]);
    const unfiled = await sql<{
      n: number;
    }>`select count(*)::int as n from activity_log a join events e on e.position = a.position
      where e.type = 'StockMoved' and cardinality(a.place_ids) <> 2`.execute(db);
    expect(unfiled.rows[0]!.n).toBe(0);
  });
});
