// Stock per location through the API: every unit is at a location and an item's quantity is
// its total. Adjustments name a location or go to the default location of the caller's site,
// moves take stock from one location of a site to another, and what would leave a location
// below 0, name an unknown or archived location, or cross sites is refused with nothing
// changed. "Where is it" and the list filtered by site or location show the levels; counts,
// reverts and deletes keep them right, and the projections match a replay of the log.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { rebuildProjections, verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';

const [MAIN, BACK, SHELF, DOCK] = TEST_PLACES.map((p) => p.id) as [string, string, string, string];

describe.each(backends())('stock per location on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
  let categoryId: string;
  let n = 0;

  const send = (account: TestAccount, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account.idToken, body });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const r = await send(account, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newItem = (quantity: number, extra: Record<string, unknown> = {}) =>
    ok(manager, 'POST', '/api/inventory', {
      name: `Lamp ${++n}`,
      sku: `LAMP-${n}-${backend.name}`,
      category_id: categoryId,
      quantity,
      price: 12,
      threshold: 1,
      ...extra,
    });
  /** The item's units by location id, as "where is it" answers, with its total. */
  const whereIs = async (id: string) => {
    const body = await ok(staff, 'GET', `/api/inventory/${id}/locations`);
    return {
      total: body.total as number,
      levels: Object.fromEntries(
        (body.locations as Array<{ locationId: string; quantity: number }>).map((l) => [l.locationId, l.quantity]),
      ),
      body,
    };
  };
  const eventCount = async (id: string) =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from events where stream_id = ${`item-${id}`}`.execute(
          server.store.database.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedPlaces(server.store.store);
    manager = await accountWithRole(server, 'manager', 'Lina Manager');
    staff = await accountWithRole(server, 'staff', 'Sami Staff');
    guest = await accountWithRole(server, 'guest', 'Gus Guest');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Lights ${backend.name}` })).id;
  });
  afterAll(() => server.close());

  it('puts stock at the default location of the site when none is named, and says where it is', async () => {
    const item = await newItem(7);
    await ok(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -2, reason: 'sale' });
    const where = await whereIs(item.id);
    expect(where.total).toBe(5);
    expect(where.levels).toEqual({ [MAIN_LOCATION_ID]: 5 });
    expect(where.body).toMatchObject({
      itemId: item.id,
      inTransit: 0,
      locations: [
        {
          siteId: MAIN_SITE_ID,
          siteName: 'Main store',
          locationId: MAIN_LOCATION_ID,
          locationName: 'Main location',
          locationCode: 'MAIN',
          quantity: 5,
        },
      ],
    });
    // Guests may look too; an unknown item is 404.
    expect((await send(guest, 'GET', `/api/inventory/${item.id}/locations`)).status).toBe(200);
    expect(await send(staff, 'GET', '/api/inventory/00000000-0000-4000-8000-00000000dead/locations')).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
  });

  it('adjusts at a named location and refuses to take more than is there, with nothing changed', async () => {
    const item = await newItem(10, { location_id: BACK });
    expect((await whereIs(item.id)).levels).toEqual({ [BACK]: 10 });
    await ok(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 4, reason: 'restock', locationId: SHELF });
    const before = await eventCount(item.id);

    const refused = await send(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
      delta: -5,
      reason: 'sale',
      locationId: SHELF,
    });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock at Shelf A: 4 there', quantity: 14, available: 4, locationId: SHELF },
    });
    // Old-style: the total would stay above 0, but the default location has none of it.
    expect(await send(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -1, reason: 'sale' })).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock at Main location: 0 there', quantity: 14 },
    });
    expect(await eventCount(item.id)).toBe(before);
    const where = await whereIs(item.id);
    expect(where).toMatchObject({ total: 14, levels: { [BACK]: 10, [SHELF]: 4 } });
    expect((await ok(staff, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(14);
  });

  it('refuses unknown and archived locations with nothing changed', async () => {
    const item = await newItem(3);
    const before = await eventCount(item.id);
    const unknown = '00000000-0000-4000-8000-00000000beef';
    expect(
      await send(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
        delta: 1,
        reason: 'restock',
        locationId: unknown,
      }),
    ).toMatchObject({ status: 422, body: { error: 'Location not found', field: 'locationId' } });
    expect(
      await send(manager, 'POST', '/api/inventory', {
        name: 'Nowhere lamp',
        sku: `NOWHERE-${backend.name}`,
        category_id: categoryId,
        quantity: 1,
        price: 1,
        threshold: 0,
        location_id: unknown,
      }),
    ).toMatchObject({ status: 422, body: { error: 'Location not found', field: 'location_id' } });

    const db = server.store.database.db;
    await sql`update locations set archived_at = now() where id = ${SHELF}`.execute(db);
    try {
      expect(
        await send(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
          delta: 1,
          reason: 'restock',
          locationId: SHELF,
        }),
      ).toMatchObject({ status: 409, body: { error: 'Shelf A is archived: restore it to keep stock there' } });
      expect(
        await send(staff, 'POST', '/api/moves', {
          itemId: item.id,
          fromLocationId: MAIN,
          toLocationId: SHELF,
          quantity: 1,
        }),
      ).toMatchObject({ status: 409, body: { error: 'Shelf A is archived: restore it to keep stock there' } });
    } finally {
      await sql`update locations set archived_at = null where id = ${SHELF}`.execute(db);
    }
    expect(await eventCount(item.id)).toBe(before);
    expect((await whereIs(item.id)).levels).toEqual({ [MAIN]: 3 });
  });

  it('moves stock within a site at once, and refuses what a move cannot do', async () => {
    const item = await newItem(8);
    const moved = await ok(staff, 'POST', '/api/moves', {
      itemId: item.id,
      fromLocationId: MAIN,
      toLocationId: BACK,
      quantity: 3,
      note: 'for the window',
    });
    expect(moved).toMatchObject({ id: item.id, quantity: 8, version: item.version + 1 });
    expect((await whereIs(item.id)).levels).toEqual({ [MAIN]: 5, [BACK]: 3 });
    const before = await eventCount(item.id);

    const move = (body: Record<string, unknown>, account = staff) =>
      send(account, 'POST', '/api/moves', { itemId: item.id, fromLocationId: MAIN, toLocationId: BACK, ...body });
    expect(await move({ fromLocationId: BACK, toLocationId: MAIN, quantity: 4 })).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock at Back room: 3 there', available: 3 },
    });
    expect(await move({ toLocationId: MAIN, quantity: 1 })).toMatchObject({
      status: 400,
      body: { error: 'A move needs two different locations' },
    });
    expect(await move({ toLocationId: DOCK, quantity: 1 })).toMatchObject({
      status: 422,
      body: { error: 'A move stays within a site; use a transfer between sites' },
    });
    expect(await move({ toLocationId: '00000000-0000-4000-8000-00000000beef', quantity: 1 })).toMatchObject({
      status: 422,
      body: { error: 'Location not found', field: 'toLocationId' },
    });
    expect((await move({ quantity: 0 })).status).toBe(400);
    expect((await move({ quantity: -2 })).status).toBe(400);
    expect((await move({ quantity: 1 }, guest)).status).toBe(403);
    expect(
      await send(staff, 'POST', '/api/moves', {
        itemId: '00000000-0000-4000-8000-00000000dead',
        fromLocationId: MAIN,
        toLocationId: BACK,
        quantity: 1,
      }),
    ).toMatchObject({ status: 404, body: { error: 'Item not found' } });
    expect(await eventCount(item.id)).toBe(before);
    expect((await whereIs(item.id)).levels).toEqual({ [MAIN]: 5, [BACK]: 3 });

    // The history and the activity log say where it went.
    const history = await ok(staff, 'GET', `/api/inventory/${item.id}/history`);
    expect(history.at(-1)).toMatchObject({
      type: 'StockMoved',
      note: 'for the window',
      moved: { quantity: 3, from: { id: MAIN, name: 'Main location' }, to: { id: BACK, name: 'Back room' } },
    });
    const log = await ok(manager, 'GET', '/api/activity?limit=20');
    const entry = log.entries.find((e: any) => e.details.startsWith('Moved 3'));
    expect(entry.details).toBe(
      `Moved 3 ${item.name} from Main location to Back room, by Sami Staff, note: for the window`,
    );
  });

  it('counts an edited quantity at the default location, and refuses a count the others make impossible', async () => {
    const item = await newItem(6, { location_id: BACK });
    await ok(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 2, reason: 'restock' });
    // 6 at Back room, 2 at Main: counting 7 in all takes 1 from Main.
    await ok(manager, 'PUT', `/api/inventory/${item.id}`, { quantity: 7 });
    expect(await whereIs(item.id)).toMatchObject({ total: 7, levels: { [BACK]: 6, [MAIN]: 1 } });
    expect(await send(manager, 'PUT', `/api/inventory/${item.id}`, { quantity: 2 })).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock at Main location: 1 there' },
    });
    expect(await whereIs(item.id)).toMatchObject({ total: 7, levels: { [BACK]: 6, [MAIN]: 1 } });
  });

  it('reverts an adjustment at its location and a move by moving back; a deleted item comes back where it was', async () => {
    const item = await newItem(5);
    const adjusted = await ok(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
      delta: 4,
      reason: 'restock',
      locationId: SHELF,
    });
    await ok(staff, 'POST', '/api/moves', { itemId: item.id, fromLocationId: MAIN, toLocationId: BACK, quantity: 2 });
    expect((await whereIs(item.id)).levels).toEqual({ [MAIN]: 3, [SHELF]: 4, [BACK]: 2 });

    const change = async (version: number) =>
      (await ok(staff, 'GET', `/api/history/change-at?streamId=item-${item.id}&version=${version}`)).eventId;
    const moveEvent = await change(adjusted.version + 1);
    await ok(staff, 'POST', `/api/events/${moveEvent}/revert`, {});
    expect((await whereIs(item.id)).levels).toEqual({ [MAIN]: 5, [SHELF]: 4, [BACK]: 0 });
    await ok(staff, 'POST', `/api/events/${await change(adjusted.version)}/revert`, {});
    expect(await whereIs(item.id)).toMatchObject({ total: 5, levels: { [MAIN]: 5, [SHELF]: 0, [BACK]: 0 } });

    // Delete and restore: its rows go, then come back at the same places.
    await ok(staff, 'POST', '/api/moves', { itemId: item.id, fromLocationId: MAIN, toLocationId: SHELF, quantity: 2 });
    const current = await ok(staff, 'GET', `/api/inventory/${item.id}`);
    expect((await send(manager, 'DELETE', `/api/inventory/${item.id}`)).status).toBe(204);
    const rows = await sql`select * from stock_levels where item_id = ${item.id}`.execute(server.store.database.db);
    expect(rows.rows).toEqual([]);
    await ok(manager, 'POST', `/api/events/${await change(current.version + 1)}/revert`, {});
    expect(await whereIs(item.id)).toMatchObject({ total: 5, levels: { [MAIN]: 3, [SHELF]: 2, [BACK]: 0 } });
  });

  it('lists the items at a site or location with their units there; quantity stays the total', async () => {
    const here = await newItem(4, { location_id: DOCK });
    await ok(staff, 'POST', `/api/inventory/${here.id}/adjust`, { delta: 3, reason: 'restock' });
    const elsewhere = await newItem(2);
    const list = async (query: string) =>
      ((await ok(staff, 'GET', `/api/inventory?limit=500&${query}`)) as any[]).filter((i) =>
        [here.id, elsewhere.id].includes(i.id),
      );
    expect(await list(`locationId=${DOCK}`)).toEqual([
      expect.objectContaining({ id: here.id, quantity: 7, quantityHere: 4 }),
    ]);
    expect(await list(`siteId=${WAREHOUSE_SITE_ID}`)).toEqual([
      expect.objectContaining({ id: here.id, quantity: 7, quantityHere: 4 }),
    ]);
    expect(await list(`siteId=${MAIN_SITE_ID}`)).toEqual([
      expect.objectContaining({ id: elsewhere.id, quantity: 2, quantityHere: 2 }),
      expect.objectContaining({ id: here.id, quantity: 7, quantityHere: 3 }),
    ]);
    // Unfiltered, no item says quantityHere.
    expect((await list('')).every((i) => i.quantityHere === undefined)).toBe(true);
    // A location emptied by a move still lists the item, at 0.
    await ok(staff, 'POST', '/api/moves', {
      itemId: here.id,
      fromLocationId: DOCK,
      toLocationId: TEST_PLACES[4]!.id,
      quantity: 4,
    });
    expect(await list(`locationId=${DOCK}`)).toEqual([expect.objectContaining({ id: here.id, quantityHere: 0 })]);
    // With asOf too, as they were placed then: tests/integration/places-history.test.ts.
  });

  it('lists a location with the locations inside it, and says where each location is by its path', async () => {
    // Back room › Shelf 2 › Bin 14 (codes unique per backend run: the store is shared by the file).
    const shelf = await ok(manager, 'POST', '/api/locations', {
      site_id: MAIN_SITE_ID,
      parent_id: BACK,
      name: 'Shelf 2',
      code: `S2-${backend.name}`,
    });
    const bin = await ok(manager, 'POST', '/api/locations', {
      site_id: MAIN_SITE_ID,
      parent_id: shelf.id,
      name: 'Bin 14',
      code: `B14-${backend.name}`,
    });
    const spread = await newItem(3, { location_id: BACK });
    await ok(staff, 'POST', `/api/inventory/${spread.id}/adjust`, {
      delta: 4,
      reason: 'restock',
      locationId: shelf.id,
    });
    await ok(staff, 'POST', `/api/inventory/${spread.id}/adjust`, { delta: 5, reason: 'restock', locationId: bin.id });
    const binned = await newItem(2, { location_id: bin.id });
    const outside = await newItem(6, { location_id: SHELF });
    const ours = [spread.id, binned.id, outside.id];
    const list = async (query: string) =>
      ((await ok(staff, 'GET', `/api/inventory?limit=500&${query}`)) as any[])
        .filter((i) => ours.includes(i.id))
        .map((i) => ({ id: i.id, here: i.quantityHere, total: i.quantity }));

    // Newest first, each with its units at the location and everywhere inside it.
    expect(await list(`locationId=${BACK}`)).toEqual([
      { id: binned.id, here: 2, total: 2 },
      { id: spread.id, here: 12, total: 12 },
    ]);
    expect(await list(`locationId=${shelf.id}`)).toEqual([
      { id: binned.id, here: 2, total: 2 },
      { id: spread.id, here: 9, total: 12 },
    ]);
    expect(await list(`locationId=${bin.id}`)).toEqual([
      { id: binned.id, here: 2, total: 2 },
      { id: spread.id, here: 5, total: 12 },
    ]);
    expect(await list(`siteId=${MAIN_SITE_ID}&locationId=${shelf.id}`)).toEqual(await list(`locationId=${shelf.id}`));
    // Page by page, an item's units in several locations inside are summed once, on one page.
    const paged: Array<{ id: string; here: number }> = [];
    let path: string | null = `/api/inventory?limit=1&locationId=${shelf.id}`;
    while (path) {
      const page = await send(staff, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(1);
      paged.push(...page.body.map((i: any) => ({ id: i.id, here: i.quantityHere })));
      const next = page.headers.get('x-next-cursor');
      path = next ? `/api/inventory?limit=1&locationId=${shelf.id}&cursor=${next}` : null;
    }
    expect(paged.filter((i) => ours.includes(i.id))).toEqual([
      { id: binned.id, here: 2 },
      { id: spread.id, here: 9 },
    ]);
    // As of now, the same.
    const asOf = `asOf=${encodeURIComponent(new Date().toISOString())}`;
    expect(await list(`${asOf}&locationId=${BACK}`)).toEqual(await list(`locationId=${BACK}`));
    // Exported filtered by the shelf: a row per item and location, the bin's too.
    const exported = String((await send(staff, 'GET', `/api/inventory/export.csv?locationId=${shelf.id}`)).body)
      .trim()
      .split(/\r?\n/)
      .filter((line) => line.includes(`"${spread.sku}"`) || line.includes(`"${binned.sku}"`))
      .map((line) => line.split(',').slice(4, 7).join(','))
      .sort();
    expect(exported).toEqual([
      `"MAIN","B14-${backend.name}",2`,
      `"MAIN","B14-${backend.name}",5`,
      `"MAIN","S2-${backend.name}",4`,
    ]);

    // "Where is it": each location by its path from the site's top level, a shelf before its bins.
    const where = await whereIs(spread.id);
    expect(
      (where.body.locations as any[]).map((l) => ({
        name: l.locationName,
        path: l.locationPath,
        quantity: l.quantity,
      })),
    ).toEqual([
      { name: 'Back room', path: ['Back room'], quantity: 3 },
      { name: 'Shelf 2', path: ['Back room', 'Shelf 2'], quantity: 4 },
      { name: 'Bin 14', path: ['Back room', 'Shelf 2', 'Bin 14'], quantity: 5 },
    ]);

    // Bin 14 taken out of the shelf: the shelf's list no longer counts it, and its path says so.
    await ok(manager, 'POST', `/api/locations/${bin.id}/move`, { parent_id: null });
    expect(await list(`locationId=${shelf.id}`)).toEqual([{ id: spread.id, here: 4, total: 12 }]);
    expect(await list(`locationId=${BACK}`)).toEqual([{ id: spread.id, here: 7, total: 12 }]);
    expect(
      ((await whereIs(binned.id)).body.locations as any[]).map((l) => ({ path: l.locationPath, quantity: l.quantity })),
    ).toEqual([{ path: ['Bin 14'], quantity: 2 }]);
  });

  it('leaves every projection as a replay of the log makes it, each total the sum of its levels', async () => {
    const db = server.store.database.db;
    expect(await verifyProjections(server.store.store)).toEqual([]);
    const unbalanced = await sql`select i.id from items i left join stock_levels s on s.item_id = i.id
      group by i.id having i.quantity <> coalesce(sum(s.quantity), 0)`.execute(db);
    expect(unbalanced.rows).toEqual([]);
    // A level that is not what the log says is found, and a rebuild puts it right.
    const levels = async () =>
      (await sql`select item_id, location_id, site_id, quantity from stock_levels order by 1, 2`.execute(db)).rows;
    const right = await levels();
    await sql`update stock_levels set quantity = quantity + 1 where location_id = ${BACK}`.execute(db);
    expect((await verifyProjections(server.store.store)).map((d) => d.table)).toEqual(['stock_levels']);
    await rebuildProjections(server.store.store);
    expect(await levels()).toEqual(right);
  });
});
