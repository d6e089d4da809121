// Low stock per site over real HTTP on every backend. In a store of one site alerts read as
// they always did; once there are several, an item kept at more than one site (or with a
// threshold of its own at one) is low per site: the units there against its threshold there
// (its own, else the item's), the alert names the site and ends when stock comes back there,
// dismissals are per site. The wall display of a site or a location shows what is there;
// the dashboard counts alerts per site; the projections match a replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LowStockAlert } from '../../shared/alerts.js';
import type { DashboardSummary, DisplaySnapshot } from '../../shared/dashboard.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { ItemSiteThresholds } from '../../shared/site-low-stock.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { backends } from '../helpers/backends.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';

const [, BACK, , DOCK, BAY] = TEST_PLACES.map((p) => p.id) as [string, string, string, string, string];

describe.each(backends())('low stock per site on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let categoryId: string;
  let n = 0;

  const send = (account: TestAccount, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account.idToken, body });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const r = await send(account, method, path, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  const newItem = async (name: string, quantity: number, threshold: number, extra: Record<string, unknown> = {}) =>
    (
      await ok(manager, 'POST', '/api/inventory', {
        name,
        sku: `SA-${++n}-${backend.name}`,
        category_id: categoryId,
        quantity,
        price: 2,
        threshold,
        ...extra,
      })
    ).id as string;
  const adjust = (id: string, delta: number, locationId?: string, reason = delta > 0 ? 'restock' : 'sale') =>
    ok(staff, 'POST', `/api/inventory/${id}/adjust`, { delta, reason, ...(locationId ? { locationId } : {}) });
  const alertsOf = async (id: string, account = staff): Promise<LowStockAlert[]> =>
    ((await ok(account, 'GET', '/api/alerts')).alerts as LowStockAlert[]).filter((a) => a.itemId === id);
  const setThreshold = (id: string, siteId: string, threshold: number | null) =>
    ok(manager, 'PUT', `/api/inventory/${id}/site-thresholds/${siteId}`, { threshold }) as Promise<ItemSiteThresholds>;
  const display = (query = ''): Promise<DisplaySnapshot> => ok(staff, 'GET', `/api/dashboard/display${query}`);

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mara Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Dairy ${backend.name}` })).id;
  });
  afterAll(() => server?.close());

  it('in a store of one site, alerts read as they always did: no site named', async () => {
    const milk = await newItem('Milk', 2, 5);
    expect(await alertsOf(milk)).toEqual([
      expect.objectContaining({ name: 'Milk', quantity: 2, threshold: 5, siteId: null, siteName: null }),
    ]);
    const summary: DashboardSummary = await ok(staff, 'GET', '/api/dashboard');
    expect(summary.lowStockBySite).toBeNull();
    // Once there are several sites, the same alert names the one site the item is kept at.
    await seedPlaces(server.store.store);
    expect(await alertsOf(milk)).toEqual([expect.objectContaining({ siteId: null, siteName: 'Main store' })]);
  });

  it('an item kept at two sites is low per site, at the item threshold where the site has none', async () => {
    const cream = await newItem('Cream', 10, 3);
    expect(await alertsOf(cream)).toEqual([]);
    await adjust(cream, 2, DOCK);
    // 2 at Warehouse against the item's threshold of 3: low there, and the alert says where.
    expect(await alertsOf(cream)).toEqual([
      expect.objectContaining({
        siteId: WAREHOUSE_SITE_ID,
        siteName: 'Warehouse',
        quantity: 2,
        threshold: 3,
        dismissed: false,
      }),
    ]);
    // Stock back at the Warehouse (at another of its locations): the alert is resolved.
    await adjust(cream, 4, BAY);
    expect(await alertsOf(cream)).toEqual([]);
    // Sold down at the main store only: that site is low, the Warehouse is not.
    await adjust(cream, -8);
    expect(await alertsOf(cream)).toEqual([
      expect.objectContaining({ siteId: MAIN_SITE_ID, siteName: 'Main store', quantity: 2, threshold: 3 }),
    ]);
  });

  it('a threshold of its own at a site wins over the item threshold, and clearing it falls back', async () => {
    const butter = await newItem('Butter', 10, 3);
    await adjust(butter, 6, DOCK);
    expect(await alertsOf(butter)).toEqual([]);

    const set = await setThreshold(butter, WAREHOUSE_SITE_ID, 8);
    expect(set.watchedPerSite).toBe(true);
    expect(set.sites).toEqual([
      expect.objectContaining({ siteName: 'Main store', quantity: 10, ownThreshold: null, threshold: 3, low: false }),
      expect.objectContaining({ siteName: 'Warehouse', quantity: 6, ownThreshold: 8, threshold: 8, low: true }),
    ]);
    expect(await alertsOf(butter)).toEqual([
      expect.objectContaining({ siteId: WAREHOUSE_SITE_ID, siteName: 'Warehouse', quantity: 6, threshold: 8 }),
    ]);

    // Setting the same again changes nothing; clearing it uses the item's 3 again: not low.
    const version = (await ok(staff, 'GET', `/api/inventory/${butter}`)).version;
    await setThreshold(butter, WAREHOUSE_SITE_ID, 8);
    expect((await ok(staff, 'GET', `/api/inventory/${butter}`)).version).toBe(version);
    const cleared = await ok(manager, 'DELETE', `/api/inventory/${butter}/site-thresholds/${WAREHOUSE_SITE_ID}`);
    expect(cleared.sites[1]).toMatchObject({ ownThreshold: null, threshold: 3, low: false });
    expect(await alertsOf(butter)).toEqual([]);

    // The item's own threshold, raised, applies at every site without one of its own.
    await setThreshold(butter, MAIN_SITE_ID, 2);
    await ok(manager, 'PUT', `/api/inventory/${butter}`, { threshold: 7 });
    expect((await alertsOf(butter)).map((a) => [a.siteName, a.quantity, a.threshold])).toEqual([['Warehouse', 6, 7]]);
  });

  it('an item at one site with a threshold of its own there is alerted at that threshold', async () => {
    const yogurt = await newItem('Yogurt', 4, 1, { location_id: BACK });
    expect(await alertsOf(yogurt)).toEqual([]);
    await setThreshold(yogurt, MAIN_SITE_ID, 4);
    expect(await alertsOf(yogurt)).toEqual([
      expect.objectContaining({ siteId: MAIN_SITE_ID, siteName: 'Main store', quantity: 4, threshold: 4 }),
    ]);
    // Cleared: the item's own alert (at 1) takes over, and it is not low at 1.
    await setThreshold(yogurt, MAIN_SITE_ID, null);
    expect(await alertsOf(yogurt)).toEqual([]);
  });

  it('dismisses one site of an item only, until that site recovers', async () => {
    const cheese = await newItem('Cheese', 1, 3);
    await adjust(cheese, 1, DOCK);
    expect((await alertsOf(cheese)).map((a) => a.siteName).sort()).toEqual(['Main store', 'Warehouse']);
    const dismissed = await ok(staff, 'POST', `/api/alerts/${cheese}/dismiss`, { siteId: WAREHOUSE_SITE_ID });
    expect(dismissed).toMatchObject({ siteId: WAREHOUSE_SITE_ID, dismissed: true });
    const mine = await alertsOf(cheese);
    expect(mine.find((a) => a.siteId === WAREHOUSE_SITE_ID)!.dismissed).toBe(true);
    expect(mine.find((a) => a.siteId === MAIN_SITE_ID)!.dismissed).toBe(false);
    expect((await alertsOf(cheese, manager)).every((a) => !a.dismissed)).toBe(true);
    // Recovered at the Warehouse, then low again: alerted again, not dismissed.
    await adjust(cheese, 10, DOCK);
    await adjust(cheese, -10, DOCK);
    expect((await alertsOf(cheese)).find((a) => a.siteId === WAREHOUSE_SITE_ID)!.dismissed).toBe(false);
  });

  it('refuses bad thresholds, unknown items and sites, and staff, changing nothing', async () => {
    const whey = await newItem('Whey', 5, 1);
    const path = `/api/inventory/${whey}/site-thresholds/${WAREHOUSE_SITE_ID}`;
    expect((await send(manager, 'PUT', path, { threshold: -1 })).status).toBe(400);
    expect((await send(manager, 'PUT', path, { threshold: 2.5 })).status).toBe(400);
    expect((await send(manager, 'PUT', path, { threshold: 2, extra: 1 })).status).toBe(400);
    expect((await send(manager, 'PUT', path, {})).status).toBe(400);
    const refused = await send(staff, 'PUT', path, { threshold: 2 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('Warehouse');
    const unknownSite = await send(
      manager,
      'PUT',
      `/api/inventory/${whey}/site-thresholds/00000000-0000-4000-8000-0000000000ff`,
      {
        threshold: 2,
      },
    );
    expect(unknownSite).toMatchObject({ status: 404, body: { error: 'Site not found' } });
    const unknownItem = await send(
      manager,
      'PUT',
      `/api/inventory/00000000-0000-4000-8000-0000000000ff/site-thresholds/${WAREHOUSE_SITE_ID}`,
      { threshold: 2 },
    );
    expect(unknownItem).toMatchObject({ status: 404, body: { error: 'Item not found' } });
    const read: ItemSiteThresholds = await ok(staff, 'GET', `/api/inventory/${whey}/site-thresholds`);
    expect(read.sites.every((s) => s.ownThreshold === null)).toBe(true);
    expect(read.watchedPerSite).toBe(false);
  });

  it('shows a site or a location on the wall display with the quantities there', async () => {
    const kefir = await newItem('Kefir', 9, 4);
    await adjust(kefir, 3, DOCK);
    await adjust(kefir, 2, BAY);
    // Warehouse: 5 of kefir, against 4, is not low; Dock alone holds 3.
    const site = await display(`?siteId=${WAREHOUSE_SITE_ID}`);
    expect(site.place).toMatchObject({ kind: 'site', name: 'Warehouse' });
    const dairy = site.categories.find((c) => c.categoryId === categoryId)!;
    const atWarehouse = await ok(staff, 'GET', `/api/inventory?siteId=${WAREHOUSE_SITE_ID}&limit=500`);
    const units = (atWarehouse as Array<{ categoryId: string; quantityHere: number }>)
      .filter((i) => i.categoryId === categoryId)
      .reduce((sum, i) => sum + i.quantityHere, 0);
    expect(dairy.units).toBe(units);
    expect(site.alerts.some((a) => a.itemId === kefir)).toBe(false);

    await adjust(kefir, -2, DOCK);
    const lowThere = await display(`?siteId=${WAREHOUSE_SITE_ID}`);
    expect(lowThere.alerts.find((a) => a.itemId === kefir)).toMatchObject({ quantity: 3, threshold: 4 });
    expect(lowThere.alerts.every((a) => a.siteName == null)).toBe(true);
    // The Dock location: kefir there is 1 (of the Warehouse's 3).
    const dock = await display(`?locationId=${DOCK}`);
    expect(dock.place).toMatchObject({ kind: 'location', name: 'Dock', siteName: 'Warehouse' });
    expect(dock.alerts.find((a) => a.itemId === kefir)).toMatchObject({ quantity: 1, threshold: 4 });
    // Its ticker: the latest changes at the Dock only, the sale first.
    expect(dock.recentActivity[0]).toMatchObject({ resourceName: 'Kefir' });
    expect(dock.recentActivity[0]!.details).toContain('-2 (sale) Kefir at Dock');
    expect(dock.recentActivity.filter((e) => !e.details.includes('Dock'))).toEqual([]);
    expect(lowThere.recentActivity.filter((e) => !/Dock|Bay 7|Warehouse/.test(e.details))).toEqual([]);
    // The main store shows none of it: kefir is not low there, and its ticker is the main store's.
    const main = await display(`?siteId=${MAIN_SITE_ID}`);
    expect(main.alerts.some((a) => a.itemId === kefir)).toBe(false);
    expect(main.recentActivity.length).toBeGreaterThan(0);
    expect(main.recentActivity.filter((e) => /Dock|Bay 7/.test(e.details))).toEqual([]);
    // The whole store names the site of each alert.
    const store = await display();
    expect(store.place ?? null).toBeNull();
    expect(store.alerts.find((a) => a.itemId === kefir)).toMatchObject({ siteName: 'Warehouse', quantity: 3 });

    expect(
      (await send(staff, 'GET', `/api/dashboard/display?locationId=${MAIN_LOCATION_ID}&siteId=${MAIN_SITE_ID}`)).status,
    ).toBe(400);
    expect(
      (await send(staff, 'GET', '/api/dashboard/display?siteId=00000000-0000-4000-8000-0000000000ff')).status,
    ).toBe(404);
  });

  it('counts open alerts per site on the dashboard', async () => {
    const summary: DashboardSummary = await ok(staff, 'GET', '/api/dashboard');
    const alerts: LowStockAlert[] = (await ok(staff, 'GET', '/api/alerts')).alerts;
    expect(summary.lowStockBySite).toEqual([
      expect.objectContaining({
        siteName: 'Main store',
        count: alerts.filter((a) => a.siteName === 'Main store').length,
      }),
      expect.objectContaining({
        siteName: 'Warehouse',
        count: alerts.filter((a) => a.siteName === 'Warehouse').length,
      }),
    ]);
    expect(summary.lowStockBySite!.find((s) => s.siteName === 'Warehouse')!.count).toBeGreaterThan(0);
  });

  it('matches a replay of the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
