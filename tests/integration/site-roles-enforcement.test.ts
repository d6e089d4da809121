// Roles per site on every route that names a place, through the API on both backends with
// real emulator accounts: transfers (drafted and shipped at the source, received at the
// destination, read by either end, unknown to others), stocktakes, site thresholds, imports,
// sites and locations, the dashboard's store totals, the activity log's CSV, a webhook that
// never sends beyond its maker's sites and an API token's live feed. Each refusal is a 4xx
// that says where, and changes nothing. Someone who works at every site keeps working as
// before, an old-style adjustment without a location included.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { backends } from '../helpers/backends.js';
import { connectFeed, type FeedClient } from '../helpers/feed-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';
import { cast, eventCount, newMember, type SignedIn } from './accounts-fixtures.js';

const [, BACK, , DOCK, BAY] = TEST_PLACES.map((p) => p.id) as [string, string, string, string, string];
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const FAST_WEBHOOKS = { WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_MS: '1000', WEBHOOK_POLL_MS: '200' };

describe.each(backends())('roles per site on every route on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  /** Staff at every site (as every account was before roles per site). */
  let staff: SignedIn;
  /** Staff at the Warehouse only. */
  let whStaff: SignedIn;
  /** Staff at Main store only. */
  let mainStaff: SignedIn;
  /** Store Manager at the Warehouse only. */
  let whManager: SignedIn;
  let categoryId: string;
  let shopId: string;
  let suffix: string;

  const send = (who: SignedIn | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: typeof who === 'string' ? who : who.idToken, body });
  const ok = async (who: SignedIn | string, method: string, path: string, body?: unknown) => {
    const r = await send(who, method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  const refused = async (status: number, error: string | RegExp, answer: Promise<{ status: number; body: any }>) => {
    const r = await answer;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    if (typeof error === 'string') expect(r.body.error).toBe(error);
    else expect(r.body.error).toMatch(error);
  };
  const levels = async (itemId: string) =>
    Object.fromEntries(
      (
        await sql<{ location_id: string; quantity: number }>`select location_id::text, quantity from stock_levels
          where item_id = ${itemId}::uuid and quantity <> 0`.execute(server.store.database.db)
      ).rows.map((r) => [r.location_id, Number(r.quantity)]),
    );
  /** A new item with these units at these locations (a manager, who works everywhere, puts them there). */
  const newItem = async (name: string, at: Record<string, number>) => {
    const item = await ok(manager, 'POST', '/api/inventory', {
      name,
      sku: `${name.toUpperCase().replace(/\W+/g, '-')}-${suffix}`,
      category_id: categoryId,
      quantity: 0,
      price: 2,
      threshold: 1,
    });
    for (const [locationId, delta] of Object.entries(at))
      await ok(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta, reason: 'restock', locationId });
    return item.id as string;
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { env: FAST_WEBHOOKS });
    suffix = `${backend.name}-${Date.now()}`;
    await seedPlaces(server.store.store);
    ({ manager, staff } = await cast(server));
    whStaff = await newMember(server, { name: 'Walt Warehouse' });
    mainStaff = await newMember(server, { name: 'Mae Main' });
    whManager = await newMember(server, { name: 'Wendy Warehouse' });
    await ok(manager, 'PUT', `/api/users/${whManager.uid}/role`, { role: 'manager' });
    const sites = (uid: string, siteRoles: unknown) =>
      ok(manager, 'PUT', `/api/users/${uid}/site-roles`, { siteRoles });
    await sites(whStaff.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'staff' }]);
    await sites(mainStaff.uid, [{ siteId: MAIN_SITE_ID, role: 'staff' }]);
    await sites(whManager.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'manager' }]);
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Parts ${backend.name}` })).id;
    // A third site nobody above but the manager works at.
    shopId = (await ok(manager, 'POST', '/api/sites', { name: 'Shop 2', code: 'SHOP2', time_zone: 'UTC' })).id;
    await ok(manager, 'POST', '/api/locations', { site_id: shopId, name: 'Till', code: 'TILL' });
  });
  afterAll(() => server?.close());

  it('keeps an old-style adjustment without a location working for staff at every site', async () => {
    const bolt = await newItem('Bolt', { [MAIN_LOCATION_ID]: 5 });
    const adjusted = await ok(staff, 'POST', `/api/inventory/${bolt}/adjust`, { delta: -2, reason: 'sale' });
    expect(adjusted.quantity).toBe(3);
    expect(await levels(bolt)).toEqual({ [MAIN_LOCATION_ID]: 3 });
  });

  it('drafts and ships a transfer at its source, receives it at its destination, and refuses the other end', async () => {
    const crate = await newItem('Crate', { [DOCK]: 10 });
    const events = await eventCount(server);
    // Mae works at Main store only: she may not draft from the Warehouse.
    await refused(
      403,
      "You don't have permission to update stock levels at Warehouse",
      send(mainStaff, 'POST', '/api/transfers', {
        fromSiteId: WAREHOUSE_SITE_ID,
        toSiteId: MAIN_SITE_ID,
        lines: [{ itemId: crate, fromLocationId: DOCK, quantity: 4 }],
      }),
    );
    expect(await eventCount(server)).toBe(events);
    // Walt works at the Warehouse: he sends to Main store, which he may not see.
    const draft = await ok(whStaff, 'POST', '/api/transfers', {
      fromSiteId: WAREHOUSE_SITE_ID,
      toSiteId: MAIN_SITE_ID,
      lines: [{ itemId: crate, fromLocationId: DOCK, quantity: 4 }],
    });
    // Both ends read it.
    expect((await ok(mainStaff, 'GET', `/api/transfers/${draft.id}`)).status).toBe('draft');
    expect((await ok(mainStaff, 'GET', '/api/transfers')).map((t: any) => t.id)).toContain(draft.id);
    // Shipping is done at the source.
    const before = await eventCount(server);
    await refused(
      403,
      "You don't have permission to update stock levels at Warehouse",
      send(mainStaff, 'POST', `/api/transfers/${draft.id}/ship`),
    );
    await refused(
      403,
      "You don't have permission to update stock levels at Warehouse",
      send(mainStaff, 'POST', `/api/transfers/${draft.id}/cancel`),
    );
    expect(await eventCount(server)).toBe(before);
    expect((await ok(whStaff, 'POST', `/api/transfers/${draft.id}/ship`)).status).toBe('shipped');
    expect(await levels(crate)).toEqual({ [DOCK]: 6 });
    // Receiving is done at the destination.
    const shipped = await eventCount(server);
    await refused(
      403,
      "You don't have permission to update stock levels at Main store",
      send(whStaff, 'POST', `/api/transfers/${draft.id}/receive`, {
        toLocationId: BACK,
        lines: [{ itemId: crate, quantity: 3 }],
      }),
    );
    expect(await eventCount(server)).toBe(shipped);
    expect(await levels(crate)).toEqual({ [DOCK]: 6 });
    const received = await ok(mainStaff, 'POST', `/api/transfers/${draft.id}/receive`, {
      toLocationId: BACK,
      lines: [{ itemId: crate, quantity: 3 }],
    });
    expect(received.status).toBe('partly-received');
    expect(await levels(crate)).toEqual({ [DOCK]: 6, [BACK]: 3 });
    // What never arrives is written off at either end.
    const closed = await ok(whStaff, 'POST', `/api/transfers/${draft.id}/write-off`, {
      reason: 'Fell off the van',
      lines: [{ itemId: crate }],
    });
    expect(closed.inTransit).toBe(0);
  });

  it('keeps a transfer between two sites someone may not see unknown to them', async () => {
    const crate = await newItem('Lamp', { [MAIN_LOCATION_ID]: 4 });
    const draft = await ok(manager, 'POST', '/api/transfers', {
      fromSiteId: MAIN_SITE_ID,
      toSiteId: shopId,
      lines: [{ itemId: crate, fromLocationId: MAIN_LOCATION_ID, quantity: 1 }],
    });
    await refused(404, 'Transfer not found', send(whStaff, 'GET', `/api/transfers/${draft.id}`));
    await refused(404, 'Transfer not found', send(whStaff, 'POST', `/api/transfers/${draft.id}/ship`));
    expect((await ok(whStaff, 'GET', '/api/transfers')).map((t: any) => t.id)).not.toContain(draft.id);
    expect((await ok(mainStaff, 'GET', `/api/transfers/${draft.id}`)).id).toBe(draft.id);
  });

  it('counts only at their sites: starting, reading, listing and counting another site refused', async () => {
    const nut = await newItem('Nut', { [MAIN_LOCATION_ID]: 2, [DOCK]: 3 });
    const events = await eventCount(server);
    await refused(
      403,
      "You don't have permission to run stocktakes at Main store",
      send(whManager, 'POST', '/api/stocktakes', { scope: 'items', itemIds: [nut], siteId: MAIN_SITE_ID }),
    );
    expect(await eventCount(server)).toBe(events);
    const atMain = await ok(manager, 'POST', '/api/stocktakes', {
      scope: 'items',
      itemIds: [nut],
      siteId: MAIN_SITE_ID,
    });
    const atWarehouse = await ok(whManager, 'POST', '/api/stocktakes', {
      scope: 'items',
      itemIds: [nut],
      siteId: WAREHOUSE_SITE_ID,
    });
    const listed = (await ok(whStaff, 'GET', '/api/stocktakes')).stocktakes.map((s: any) => s.id);
    expect(listed).toContain(atWarehouse.id);
    expect(listed).not.toContain(atMain.id);
    await refused(
      403,
      "You don't have permission to view stocktakes at Main store",
      send(whStaff, 'GET', `/api/stocktakes/${atMain.id}`),
    );
    const before = await eventCount(server);
    await refused(
      403,
      "You don't have permission to update stock levels at Main store",
      send(whStaff, 'POST', `/api/stocktakes/${atMain.id}/counts`, {
        itemId: nut,
        counted: 1,
        countedAt: new Date().toISOString(),
      }),
    );
    expect(await eventCount(server)).toBe(before);
    const counted = await send(whStaff, 'POST', `/api/stocktakes/${atWarehouse.id}/counts`, {
      itemId: nut,
      counted: 3,
      countedAt: new Date().toISOString(),
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(201);
    // Staff run no counts: no expected quantities for them; the Warehouse's manager sees them there.
    expect((await ok(whStaff, 'GET', `/api/stocktakes/${atWarehouse.id}`)).showsVariance).toBe(false);
    expect((await ok(whManager, 'GET', `/api/stocktakes/${atWarehouse.id}`)).showsVariance).toBe(true);
  });

  it("sets a site's threshold only where they manage inventory", async () => {
    const washer = await newItem('Washer', { [DOCK]: 4 });
    await refused(
      404,
      'Site not found',
      send(whManager, 'PUT', `/api/inventory/${washer}/site-thresholds/${MAIN_SITE_ID}`, { threshold: 2 }),
    );
    await refused(
      403,
      "You don't have permission to manage inventory at Warehouse",
      send(whStaff, 'PUT', `/api/inventory/${washer}/site-thresholds/${WAREHOUSE_SITE_ID}`, { threshold: 2 }),
    );
    const set = await ok(whManager, 'PUT', `/api/inventory/${washer}/site-thresholds/${WAREHOUSE_SITE_ID}`, {
      threshold: 2,
    });
    expect(set.sites.map((s: any) => s.siteId)).toEqual([WAREHOUSE_SITE_ID]);
  });

  it('imports rows at their sites only; a row naming no place goes to their site, never sets a total', async () => {
    const existing = await newItem('Spring', { [MAIN_LOCATION_ID]: 5 });
    const sku = (name: string) => `${name.toUpperCase()}-${suffix}`;
    const parts = `Parts ${backend.name}`;
    const body = {
      fileName: 'parts.csv',
      columns: ['name', 'sku', 'category', 'site', 'quantity', 'price'],
      rows: [
        { row: 2, cells: ['Gear', sku('gear'), parts, 'MAIN', '4', '1'] },
        { row: 3, cells: ['Cog', sku('cog'), parts, 'WH', '6', '1'] },
        { row: 4, cells: ['Pin', sku('pin'), parts, '', '2', '1'] },
        { row: 5, cells: ['Spring', sku('spring'), parts, '', '9', '2'] },
      ],
    };
    const dry = await ok(whManager, 'POST', '/api/inventory/import/dry-run', body);
    expect(dry.problems).toEqual([
      { row: 2, column: 'site', message: "You don't have permission to change stock at Main store" },
      {
        row: 5,
        column: 'quantity',
        message: 'Your role holds at some sites only: fill in the Site or Location column to count the stock there',
      },
    ]);
    const committed = await ok(whManager, 'POST', '/api/inventory/import/commit', { ...body, importId: randomUUID() });
    expect(committed.results.map((r: any) => r.outcome)).toEqual(['rejected', 'created', 'created', 'rejected']);
    const byName = new Map(
      (
        await sql<{ id: string; name: string }>`select id::text, name from items
          where sku like ${`%-${suffix}`}`.execute(server.store.database.db)
      ).rows.map((i) => [i.name, i.id]),
    );
    expect(byName.has('Gear')).toBe(false);
    expect(await levels(byName.get('Cog') as string)).toEqual({ [DOCK]: 6 });
    // No place: at their site's default location (the Warehouse's Dock), not at Main store.
    expect(await levels(byName.get('Pin') as string)).toEqual({ [DOCK]: 2 });
    expect(await levels(existing)).toEqual({ [MAIN_LOCATION_ID]: 5 });
    // Someone at every site still sets an item's total with a row that names no place.
    const all = await ok(manager, 'POST', '/api/inventory/import/dry-run', body);
    expect(all.problems).toEqual([]);
  });

  it('shows them only their sites and locations, and lets them change places only where they manage settings', async () => {
    expect((await ok(whStaff, 'GET', '/api/sites')).map((s: any) => s.name)).toEqual(['Warehouse']);
    // Every site's name, for where a transfer may go.
    expect((await ok(whStaff, 'GET', '/api/sites?scope=all')).map((s: any) => s.name).sort()).toEqual([
      'Main store',
      'Shop 2',
      'Warehouse',
    ]);
    const locations = (await ok(whStaff, 'GET', '/api/locations')).map((l: any) => l.siteId);
    expect(new Set(locations)).toEqual(new Set([WAREHOUSE_SITE_ID]));
    const seeMain = "You don't have permission to view inventory at Main store";
    await refused(403, seeMain, send(whStaff, 'GET', `/api/locations?siteId=${MAIN_SITE_ID}`));
    await refused(403, seeMain, send(whStaff, 'GET', `/api/locations/${MAIN_LOCATION_ID}`));
    await refused(403, seeMain, send(whStaff, 'GET', `/api/sites/${MAIN_SITE_ID}`));
    await refused(403, seeMain, send(whStaff, 'GET', `/api/locations/by-code?siteId=${MAIN_SITE_ID}&code=BACK-ROOM`));
    expect((await ok(whStaff, 'GET', `/api/locations/by-code?siteId=${WAREHOUSE_SITE_ID}&code=DOCK`)).id).toBe(DOCK);

    const events = await eventCount(server);
    const manageMain = "You don't have permission to manage settings at Main store";
    await refused(403, manageMain, send(whManager, 'PATCH', `/api/sites/${MAIN_SITE_ID}`, { name: 'Mine now' }));
    await refused(403, manageMain, send(whManager, 'POST', `/api/locations/${BACK}/archive`));
    await refused(
      403,
      manageMain,
      send(whManager, 'POST', '/api/locations', { site_id: MAIN_SITE_ID, name: 'Shelf Z', code: 'SZ' }),
    );
    await refused(
      403,
      "You can't add a site: your role holds at some sites only",
      send(whManager, 'POST', '/api/sites', { name: 'Shop 3', code: 'SHOP3', time_zone: 'UTC' }),
    );
    expect(await eventCount(server)).toBe(events);
    // At their own site they do.
    const shelf = await ok(whManager, 'POST', '/api/locations', {
      site_id: WAREHOUSE_SITE_ID,
      name: 'Mezzanine',
      code: 'MEZ',
    });
    expect(shelf.siteId).toBe(WAREHOUSE_SITE_ID);
    expect((await ok(manager, 'GET', '/api/sites')).length).toBe(3);
  });

  it('deletes an item only when it is kept at no site beyond theirs', async () => {
    const both = await newItem('Clamp', { [MAIN_LOCATION_ID]: 1, [DOCK]: 1 });
    // Made at Main store with none there, then kept at the Warehouse only.
    const theirs = await newItem('Strap', { [BAY]: 2 });
    await refused(
      403,
      "You don't have permission to delete records at Main store",
      send(whManager, 'DELETE', `/api/inventory/${both}`),
    );
    expect((await send(manager, 'GET', `/api/inventory/${both}`)).status).toBe(200);
    expect((await send(whManager, 'DELETE', `/api/inventory/${theirs}`)).status).toBe(204);
  });

  it("refuses them the store's totals: the dashboard and the low-stock list", async () => {
    await refused(403, /^The dashboard's figures are the whole store's/, send(whStaff, 'GET', '/api/dashboard'));
    await refused(
      403,
      /^The low-stock list is by the store's totals/,
      send(whStaff, 'GET', '/api/inventory/low-stock'),
    );
    expect((await send(staff, 'GET', '/api/dashboard')).status).toBe(200);
  });

  it("exports only their sites' activity, and refuses a filter by another site", async () => {
    await newItem('Rivet', { [MAIN_LOCATION_ID]: 3, [BAY]: 2 });
    const csv = String(await ok(whStaff, 'GET', '/api/activity.csv'));
    expect(csv).toMatch(/Bay 7/);
    expect(csv).not.toMatch(/Main location/);
    await refused(
      403,
      "You don't have permission to view reports at Main store",
      send(whStaff, 'GET', `/api/activity?siteId=${MAIN_SITE_ID}`),
    );
  });

  it('never sends a webhook event of a site its maker may not see, whatever its own filter', async () => {
    let receiver: Receiver | undefined;
    try {
      receiver = await startReceiver();
      const bracket = await newItem('Bracket', { [MAIN_LOCATION_ID]: 3, [DOCK]: 3 });
      const created = await ok(whManager, 'POST', '/api/webhooks', {
        url: receiver.url,
        eventTypes: ['stock.adjusted'],
        siteIds: [WAREHOUSE_SITE_ID],
      });
      const id = created.endpoint?.id ?? created.id;
      // A manager at every site widens its filter to every site: its maker still sees the Warehouse only.
      await ok(manager, 'PATCH', `/api/webhooks/${id}`, { siteIds: [] });
      // Now beyond the Warehouse's manager: not theirs to read or change any more.
      await refused(
        403,
        'This endpoint sends events of sites you may not see',
        send(whManager, 'GET', `/api/webhooks/${id}`),
      );
      expect((await ok(whManager, 'GET', '/api/webhooks')).endpoints.map((e: any) => e.id)).not.toContain(id);
      const note = `maker ${Date.now()}`;
      await ok(manager, 'POST', `/api/inventory/${bracket}/adjust`, {
        delta: -1,
        reason: 'sale',
        note,
        locationId: MAIN_LOCATION_ID,
      });
      await ok(manager, 'POST', `/api/inventory/${bracket}/adjust`, {
        delta: -1,
        reason: 'sale',
        note: `${note} last`,
        locationId: DOCK,
      });
      await receiver.waitFor((r) =>
        r.received.some((x) => (x.payload.data.event.data as { note?: string }).note === `${note} last`),
      );
      const ours = receiver.received.filter((x) =>
        String((x.payload.data.event.data as { note?: string }).note).startsWith(note),
      );
      expect(ours.map((x) => (x.payload.data.event.data as { locationId: string }).locationId)).toEqual([DOCK]);
    } finally {
      await receiver?.close();
    }
  });

  it("keeps an API token's live feed within its owner's sites", async () => {
    const created = await ok(whManager, 'POST', '/api/tokens', {
      name: 'Dock screen',
      permissions: ['inventory:view'],
      expiresAt: inAWeek(),
    });
    let feed: FeedClient | undefined;
    try {
      feed = await connectFeed(server.url, { token: created.token });
      await feed.waitFor((m) => m.some((x) => x.type === 'hello'));
      const washer = await newItem('Hinge', {});
      const note = `token ${Date.now()}`;
      await ok(manager, 'POST', `/api/inventory/${washer}/adjust`, {
        delta: 2,
        reason: 'restock',
        note,
        locationId: MAIN_LOCATION_ID,
      });
      await ok(manager, 'POST', `/api/inventory/${washer}/adjust`, {
        delta: 5,
        reason: 'restock',
        note: `${note} last`,
        locationId: DOCK,
      });
      const mine = (e: { type: string; data: unknown }) =>
        e.type === 'StockAdjusted' && String((e.data as { note?: string }).note).startsWith(note);
      const [seen] = await feed.waitForMatching(mine, 1);
      expect((seen!.event.data as { locationId: string }).locationId).toBe(DOCK);
      // In order: nothing of Main store before it.
      expect(feed.events().filter((m) => mine(m.event))).toHaveLength(1);
    } finally {
      await feed?.close();
    }
  });
});
