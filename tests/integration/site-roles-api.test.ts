// Roles per site through the API: a staff member of the Warehouse is refused at Main store
// (adjust, move, a list or "where is it" of Main), sees only the Warehouse's stock, and old
// style adjustments without a location land at the Warehouse for them and at Main store for
// those who work everywhere. Managers give sites on the Users page's route, never beyond what
// they hold themselves; a change holds on the very next request; an API token of someone
// limited to a site never reaches another. The live feed, the item CSV export, the activity
// log and a webhook's site filter leave out the other site's events. Both backends, real
// emulator accounts, a real WebSocket client and a real webhook receiver.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { connectFeed, type FeedClient } from '../helpers/feed-client.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';
import { cast, eventCount, newMember, type SignedIn } from './accounts-fixtures.js';

const [, BACK, , DOCK, BAY] = TEST_PLACES.map((p) => p.id) as [string, string, string, string, string];
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
/** Webhook deliveries without waiting (as the webhook tests run them). */
const FAST_WEBHOOKS = { WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_MS: '1000', WEBHOOK_POLL_MS: '200' };

describe.each(backends())('roles per site on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  /** A Store Manager whose role holds at the Warehouse only. */
  let whManager: SignedIn;
  let categoryId: string;
  /** At Main (10) and at the Warehouse's Dock (5). */
  let both: string;
  /** At Main only (7). */
  let mainOnly: string;

  const send = (who: SignedIn | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: typeof who === 'string' ? who : who.idToken, body });
  const ok = async (who: SignedIn | string, method: string, path: string, body?: unknown) => {
    const r = await send(who, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const setSites = (by: SignedIn, uid: string, siteRoles: unknown) =>
    send(by, 'PUT', `/api/users/${uid}/site-roles`, { siteRoles });
  const levels = async (itemId: string) =>
    Object.fromEntries(
      (
        await sql<{ location_id: string; quantity: number }>`select location_id::text, quantity from stock_levels
          where item_id = ${itemId}::uuid`.execute(server.store.database.db)
      ).rows.map((r) => [r.location_id, Number(r.quantity)]),
    );

  beforeAll(async () => {
    server = await startTestServer(backend, { env: FAST_WEBHOOKS });
    await seedPlaces(server.store.store);
    ({ manager, staff } = await cast(server));
    whManager = await newMember(server, { name: 'Wanda Warehouse' });
    expect((await send(manager, 'PUT', `/api/users/${whManager.uid}/role`, { role: 'manager' })).status).toBe(200);
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Tools ${backend.name}` })).id;
    const item = (name: string, quantity: number) =>
      ok(manager, 'POST', '/api/inventory', {
        name,
        sku: `${name.toUpperCase()}-${backend.name}`,
        category_id: categoryId,
        quantity,
        price: 3,
        threshold: 1,
      });
    both = (await item('Hammer', 10)).id;
    mainOnly = (await item('Saw', 7)).id;
    await ok(manager, 'POST', `/api/inventory/${both}/adjust`, { delta: 5, reason: 'restock', locationId: DOCK });
  });
  afterAll(() => server?.close());

  it('gives a staff member the Warehouse only, and the user shape says so', async () => {
    const before = await ok(manager, 'GET', '/api/users');
    expect(before.find((u: any) => u.id === staff.uid).siteRoles).toBeNull();
    const answer = await setSites(manager, staff.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'staff' }]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.siteRoles).toEqual([{ siteId: WAREHOUSE_SITE_ID, role: 'staff' }]);
    const listed = await ok(manager, 'GET', '/api/users');
    expect(listed.find((u: any) => u.id === staff.uid).siteRoles).toEqual([
      { siteId: WAREHOUSE_SITE_ID, role: 'staff' },
    ]);
    // A manager's role at the Warehouse only: Store Manager there, nothing at Main store.
    expect((await setSites(manager, whManager.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'manager' }])).status).toBe(200);
  });

  it('refuses the Warehouse staff member at Main store: adjust, move, list, where-is-it; nothing changes', async () => {
    const events = await eventCount(server);
    const adjust = await send(staff, 'POST', `/api/inventory/${both}/adjust`, {
      delta: -1,
      reason: 'sale',
      locationId: MAIN_LOCATION_ID,
    });
    expect(adjust.status).toBe(403);
    expect(adjust.body.error).toBe("You don't have permission to update stock levels at Main store");
    const move = await send(staff, 'POST', '/api/moves', {
      itemId: both,
      fromLocationId: MAIN_LOCATION_ID,
      toLocationId: BACK,
      quantity: 1,
    });
    expect(move.status).toBe(403);
    expect(move.body.error).toBe("You don't have permission to update stock levels at Main store");
    const list = await send(staff, 'GET', `/api/inventory?siteId=${MAIN_SITE_ID}`);
    expect(list.status).toBe(403);
    expect(list.body.error).toBe("You don't have permission to view inventory at Main store");
    expect((await send(staff, 'GET', `/api/inventory?locationId=${MAIN_LOCATION_ID}`)).status).toBe(403);
    expect(await eventCount(server)).toBe(events);
    expect(await levels(both)).toEqual({ [MAIN_LOCATION_ID]: 10, [DOCK]: 5 });
  });

  it('lets them work at the Warehouse, and shows them its stock only', async () => {
    const moved = await ok(staff, 'POST', '/api/moves', {
      itemId: both,
      fromLocationId: DOCK,
      toLocationId: BAY,
      quantity: 2,
    });
    // The item's quantity, as they see it, is the Warehouse's: 5, not the store's 15.
    expect(moved.quantity).toBe(5);
    // An old-style adjustment (no location) goes to their site's default location, the Dock.
    const adjusted = await ok(staff, 'POST', `/api/inventory/${both}/adjust`, { delta: -1, reason: 'sale' });
    expect(adjusted.quantity).toBe(4);
    expect(await levels(both)).toEqual({ [MAIN_LOCATION_ID]: 10, [DOCK]: 2, [BAY]: 2 });

    const where = await ok(staff, 'GET', `/api/inventory/${both}/locations`);
    expect(where.total).toBe(4);
    expect(where.locations.map((l: any) => l.locationName).sort()).toEqual(['Bay 7', 'Dock']);
    const page = await ok(staff, 'GET', '/api/inventory?limit=50');
    const byId = new Map(page.map((i: any) => [i.id, i.quantity]));
    expect(byId.get(both)).toBe(4);
    // Saw was only ever at Main store: not on their list (and 0 for them when asked for).
    expect(byId.has(mainOnly)).toBe(false);
    expect((await ok(staff, 'GET', `/api/inventory/${mainOnly}`)).quantity).toBe(0);
    const atWarehouse = await ok(staff, 'GET', `/api/inventory?siteId=${WAREHOUSE_SITE_ID}`);
    expect(atWarehouse.map((i: any) => i.id)).toEqual([both]);
    // Those who work everywhere still see the store's totals and every location.
    expect((await ok(manager, 'GET', `/api/inventory/${both}`)).quantity).toBe(14);
    expect((await ok(manager, 'GET', `/api/inventory/${both}/locations`)).locations).toHaveLength(3);
  });

  it('keeps an old-style adjustment without a location working for someone at every site', async () => {
    const adjusted = await ok(manager, 'POST', `/api/inventory/${mainOnly}/adjust`, { delta: -2, reason: 'sale' });
    expect(adjusted.quantity).toBe(5);
    expect(await levels(mainOnly)).toEqual({ [MAIN_LOCATION_ID]: 5 });
  });

  it('holds a change of sites on the very next request (cached principals see their stamp move)', async () => {
    await ok(staff, 'POST', `/api/inventory/${both}/adjust`, { delta: 1, reason: 'restock', locationId: DOCK });
    expect((await setSites(manager, staff.uid, [{ siteId: MAIN_SITE_ID, role: 'staff' }])).status).toBe(200);
    const refused = await send(staff, 'POST', `/api/inventory/${both}/adjust`, {
      delta: 1,
      reason: 'restock',
      locationId: DOCK,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("You don't have permission to update stock levels at Warehouse");
    expect((await ok(staff, 'GET', `/api/inventory/${both}`)).quantity).toBe(10);
    // Back to the Warehouse for the tests after this one.
    expect((await setSites(manager, staff.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'staff' }])).status).toBe(200);
  });

  it('never lets anyone give beyond what they hold, site by site', async () => {
    const member = await newMember(server, { name: 'Nia New' });
    const events = await eventCount(server);
    // Staff manage no users at all.
    expect((await setSites(staff, whManager.uid, null)).status).toBe(403);
    // A manager of the Warehouse only: not every site, not Main store, not someone who works everywhere.
    const everywhere = await setSites(whManager, member.uid, null);
    expect(everywhere.status).toBe(403);
    expect(everywhere.body.error).toMatch(/work at every site and you don't/);
    const other = await setSites(whManager, staff.uid, [{ siteId: MAIN_SITE_ID, role: 'staff' }]);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/at Main store/);
    const created = await send(whManager, 'POST', '/api/users', {
      name: 'Otto Other',
      email: `otto-${Date.now()}@stockroom.test`,
      password: 'secret123',
      role: 'staff',
    });
    expect(created.status).toBe(403);
    // A role at a site stays within the person's own role; an unknown site is no site.
    const beyond = await setSites(manager, staff.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'manager' }]);
    expect(beyond.status).toBe(422);
    expect(beyond.body.error).toMatch(/can't give .* more than their own role/);
    const unknown = await setSites(manager, staff.uid, [
      { siteId: '00000000-0000-4000-8000-0000000000ff', role: 'staff' },
    ]);
    expect(unknown.status).toBe(422);
    expect(await eventCount(server)).toBe(events);
    // Within the Warehouse, its manager does give: they manage the staff member there.
    expect((await setSites(whManager, staff.uid, [{ siteId: WAREHOUSE_SITE_ID, role: 'staff' }])).status).toBe(200);
  });

  it("keeps an API token within its owner's sites", async () => {
    const created = await send(whManager, 'POST', '/api/tokens', {
      name: 'Dock scanner',
      permissions: ['inventory:view', 'stock:update'],
      expiresAt: inAWeek(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token: string = created.body.token;
    const refused = await send(token, 'POST', `/api/inventory/${mainOnly}/adjust`, {
      delta: 1,
      reason: 'restock',
      locationId: MAIN_LOCATION_ID,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("You don't have permission to update stock levels at Main store");
    expect((await send(token, 'GET', `/api/inventory?siteId=${MAIN_SITE_ID}`)).status).toBe(403);
    const done = await ok(token, 'POST', `/api/inventory/${both}/adjust`, {
      delta: 1,
      reason: 'restock',
      locationId: DOCK,
    });
    expect(done.quantity).toBe(6);
  });

  it("keeps the other site's events off the feed of someone limited to one, and shows their site's units", async () => {
    const feeds: FeedClient[] = [];
    try {
      const staffFeed = await connectFeed(server.url, { token: staff.idToken });
      const managerFeed = await connectFeed(server.url, { token: manager.idToken });
      feeds.push(staffFeed, managerFeed);
      for (const feed of feeds) await feed.waitFor((m) => m.some((x) => x.type === 'hello'));
      const note = `feed ${Date.now()}`;
      await ok(manager, 'POST', `/api/inventory/${both}/adjust`, {
        delta: -1,
        reason: 'sale',
        note,
        locationId: MAIN_LOCATION_ID,
      });
      await ok(manager, 'POST', `/api/inventory/${both}/adjust`, {
        delta: 2,
        reason: 'restock',
        note,
        locationId: DOCK,
      });
      const mine = (e: { type: string; data: unknown }) =>
        e.type === 'StockAdjusted' && (e.data as { note?: string }).note === note;
      const managerSaw = await managerFeed.waitForMatching(mine, 2);
      expect(managerSaw.map((m) => (m.event.data as { quantity: number }).quantity)).toEqual([15, 17]);
      const [atDock] = await staffFeed.waitForMatching(mine, 1);
      // The Dock's adjustment, with the Warehouse's units (2 + 2 + 1 + 1 + 2 = 8), not the store's 15.
      expect((atDock!.event.data as { locationId: string }).locationId).toBe(DOCK);
      expect((atDock!.event.data as { quantity: number }).quantity).toBe(8);
      // The feed is in order: nothing of Main store came before or after it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(staffFeed.events().filter((m) => mine(m.event))).toHaveLength(1);
      expect(
        staffFeed.events().some((m) => (m.event.data as { locationId?: string }).locationId === MAIN_LOCATION_ID),
      ).toBe(false);
    } finally {
      for (const feed of feeds) await feed.close();
    }
  });

  it('exports and logs only their site for someone limited to one', async () => {
    const csv = await send(staff, 'GET', '/api/inventory/export.csv');
    expect(csv.status).toBe(200);
    const lines = String(csv.body).trim().split(/\r?\n/);
    // Hammer's quantity there is the Warehouse's 8; Saw, only ever at Main store, is not there.
    expect(lines.find((l) => l.startsWith('"Hammer",'))?.split(',')[4]).toBe('8');
    expect(lines.some((l) => l.startsWith('"Saw",'))).toBe(false);
    const everything = String((await send(manager, 'GET', '/api/inventory/export.csv')).body);
    expect(everything).toMatch(/^"Saw",/m);
    expect(everything).toMatch(/^"Hammer",(?:[^,]*,){3}17,/m);

    const theirs = (await ok(staff, 'GET', '/api/activity?limit=200')).entries as Array<{ details: string }>;
    const all = (await ok(manager, 'GET', '/api/activity?limit=200')).entries as Array<{ details: string }>;
    expect(all.some((e) => /Main location/.test(e.details))).toBe(true);
    expect(theirs.some((e) => /Dock/.test(e.details))).toBe(true);
    expect(theirs.some((e) => /Main location/.test(e.details))).toBe(false);
    const history = (await ok(staff, 'GET', `/api/inventory/${both}/history`)) as Array<{
      location?: { name: string };
    }>;
    expect(history.some((h) => h.location?.name === 'Dock')).toBe(true);
    expect(history.some((h) => h.location?.name === 'Main location')).toBe(false);
  });

  it("delivers to a webhook with a site filter only that site's events", async () => {
    let receiver: Receiver | undefined;
    try {
      receiver = await startReceiver();
      const refused = await send(whManager, 'POST', '/api/webhooks', {
        url: receiver.url,
        eventTypes: ['stock.adjusted'],
      });
      expect(refused.status).toBe(403);
      const created = await send(manager, 'POST', '/api/webhooks', {
        url: receiver.url,
        eventTypes: ['stock.adjusted'],
        siteIds: [WAREHOUSE_SITE_ID],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.endpoint?.siteIds ?? created.body.siteIds).toEqual([WAREHOUSE_SITE_ID]);
      const note = `hook ${Date.now()}`;
      await ok(manager, 'POST', `/api/inventory/${both}/adjust`, {
        delta: 1,
        reason: 'restock',
        note,
        locationId: MAIN_LOCATION_ID,
      });
      await ok(manager, 'POST', `/api/inventory/${both}/adjust`, {
        delta: 1,
        reason: 'restock',
        note,
        locationId: BAY,
      });
      await ok(manager, 'POST', `/api/inventory/${both}/adjust`, {
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
      expect(ours.map((x) => (x.payload.data.event.data as { locationId: string }).locationId)).toEqual([BAY, DOCK]);
    } finally {
      await receiver?.close();
    }
  });

  it('rebuilds the site roles from the log', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
