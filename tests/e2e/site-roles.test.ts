// Roles per site end to end in Chromium against the real server: a manager gives a staff
// member one site on the Users page's Sites dialog; a manager who works at one site only is
// refused (in the dialog) when acting on someone who works everywhere. The staff member
// signs in, lands on their site's items (no dashboard of the store's totals), sees only its
// stock and places, is refused at the other site (API 403 with a clear message), and their
// screen's live feed never gets the other site's events: another user's adjustment there
// changes nothing on it (no WebSocket frame carries it), while one at their site arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { Location, Site } from '../../shared/sites.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { navLabels, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('roles per site', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let walt: TestAccount;
  let wendy: TestAccount;
  let warehouse: Site;
  let dock: Location;
  let hose: Item;
  let rake: Item;
  let admin: OpenPage;

  const api = <T = any>(method: string, path: string, body?: unknown) =>
    server.api<T>(method, path, manager.idToken, body);
  /** The answer to a call as someone else, refusals included. */
  const callAs = async (who: TestAccount, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${who.idToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    walt = await apiAccount(server, 'Walt Warehouse');
    await apiAccount(server, 'Sam Everywhere');
    wendy = await apiAccount(server, 'Wendy Lead');
    await api('PUT', `/users/${wendy.uid}/role`, { role: 'manager' });
    warehouse = await api<Site>('POST', '/sites', { name: 'Harbour warehouse', code: 'WH', time_zone: 'UTC' });
    dock = await api<Location>('POST', '/locations', { site_id: warehouse.id, name: 'Dock', code: 'DOCK' });
    await api('PUT', `/users/${wendy.uid}/site-roles`, { siteRoles: [{ siteId: warehouse.id, role: 'manager' }] });
    const garden = await api<Category>('POST', '/categories', { name: 'Garden' });
    const item = (name: string, sku: string, quantity: number, locationId: string) =>
      api<Item>('POST', '/inventory', {
        name,
        sku,
        category_id: garden.id,
        quantity,
        price: 9,
        threshold: 1,
        location_id: locationId,
      });
    hose = await item('Garden hose', 'GH-1', 10, MAIN_LOCATION_ID);
    await api('POST', `/inventory/${hose.id}/adjust`, { delta: 4, reason: 'restock', locationId: dock.id });
    rake = await item('Rake', 'RK-1', 5, MAIN_LOCATION_ID);
    await item('Spade', 'SP-1', 3, dock.id);
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('gives a staff member one site from the Users page', async () => {
    const page = admin.page;
    await page.goto('/users');
    const card = page.getByTestId('user-card').filter({ hasText: 'Walt Warehouse' });
    await card.getByTestId('user-sites').filter({ hasText: 'All sites' }).waitFor();
    await card.getByRole('button', { name: 'Sites for Walt Warehouse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sites for Walt Warehouse' });
    await dialog.getByLabel('Chosen sites').check();
    // Nothing chosen yet: they would see no stock anywhere, and the dialog says so.
    await seeText(dialog, 'Walt Warehouse will see no stock at any site.');
    await dialog.getByLabel(/Harbour warehouse/).selectOption({ label: 'Staff Member' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByTestId('user-sites').filter({ hasText: 'Harbour warehouse (Staff Member)' }).waitFor();
    const users = await api<Array<{ id: string; siteRoles: unknown }>>('GET', '/users');
    expect(users.find((u) => u.id === walt.uid)!.siteRoles).toEqual([{ siteId: warehouse.id, role: 'staff' }]);
    expect(admin.errors).toEqual([]);
  });

  it("shows the server's refusal in the dialog to a manager of one site acting on someone who works everywhere", async () => {
    const { page, context, errors } = await openPage(browser, server);
    try {
      await signIn(page, wendy.email!, wendy.password!, '**/inventory**');
      await page.goto('/users');
      await page.getByRole('button', { name: 'Sites for Sam Everywhere' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sites for Sam Everywhere' });
      await dialog.getByLabel('Chosen sites').check();
      await dialog.getByLabel(/Harbour warehouse/).selectOption({ label: 'Staff Member' });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await seeText(
        dialog,
        "You can't change the sites of someone with permissions you don't have yourself: they work at every site and you don't",
      );
      // Nothing changed: the dialog stays open, the card still says every site.
      await page.keyboard.press('Escape');
      await page
        .getByTestId('user-card')
        .filter({ hasText: 'Sam Everywhere' })
        .getByTestId('user-sites')
        .filter({ hasText: 'All sites' })
        .waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  describe('a staff member of the warehouse', () => {
    let staff: OpenPage;
    let page: Page;
    /** Every text frame the page's WebSocket received. */
    const frames: string[] = [];

    beforeAll(async () => {
      staff = await openPage(browser, server);
      page = staff.page;
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => frames.push(String(payload))));
      // Their start is their site's items: the dashboard is the whole store's figures.
      await signIn(page, walt.email!, walt.password!, '**/inventory**');
    });

    it("sees only their site's stock and places", async () => {
      expect(await navLabels(page)).not.toContain('Dashboard');
      const rows = page.getByTestId('placed-row');
      // The one site they may see is chosen for them; Main store is not offered.
      await rows.filter({ hasText: 'Garden hose' }).getByTestId('quantity-here').filter({ hasText: /^4$/ }).waitFor();
      const siteOptions = await page.getByLabel('Site', { exact: true }).locator('option').allTextContents();
      expect(siteOptions).toEqual(['All sites', 'Harbour warehouse']);
      expect(await rows.filter({ hasText: 'Spade' }).getByTestId('quantity-here').textContent()).toBe('3');
      // The hose's total is the warehouse's: Main store's 10 are none of theirs.
      expect(await rows.filter({ hasText: 'Garden hose' }).getByTestId('quantity-total').textContent()).toBe(
        '4 in all',
      );
      // The rake is kept at Main store only: not on their list.
      expect(await rows.filter({ hasText: 'Rake' }).count()).toBe(0);

      // The item page lists the warehouse's locations only.
      await page.goto(`/inventory/${hose.id}`);
      const places = page.getByTestId('item-places').getByTestId('place-row');
      await places.first().waitFor();
      expect(await places.allTextContents()).toEqual([expect.stringContaining('Dock')]);
      expect(staff.errors).toEqual([]);
    });

    it('is refused at the other site with a clear message, and nothing changes', async () => {
      const adjust = await callAs(walt, 'POST', `/inventory/${rake.id}/adjust`, {
        delta: -1,
        reason: 'sale',
        locationId: MAIN_LOCATION_ID,
      });
      expect(adjust).toEqual({
        status: 403,
        body: { error: "You don't have permission to update stock levels at Main store" },
      });
      const places = await callAs(walt, 'GET', `/locations?siteId=${MAIN_SITE_ID}`);
      expect(places).toEqual({
        status: 403,
        body: { error: "You don't have permission to view inventory at Main store" },
      });
      const main = await callAs(walt, 'GET', `/inventory?locationId=${MAIN_LOCATION_ID}`);
      expect(main).toEqual({
        status: 403,
        body: { error: "You don't have permission to view inventory at Main store" },
      });
      expect((await api<Item>('GET', `/inventory/${rake.id}`)).quantity).toBe(5);
    });

    it("never gets the other site's events on their screen, and gets their own site's live", async () => {
      await page.goto('/inventory');
      const row = page.getByTestId('placed-row').filter({ hasText: 'Garden hose' });
      await row.getByTestId('quantity-here').filter({ hasText: /^4$/ }).waitFor();
      const mainNote = `sold at the front ${Date.now()}`;
      const dockNote = `restocked at the dock ${Date.now()}`;
      // Another user sells at Main store, then restocks at the dock.
      await api('POST', `/inventory/${hose.id}/adjust`, {
        delta: -3,
        reason: 'sale',
        note: mainNote,
        locationId: MAIN_LOCATION_ID,
      });
      await api('POST', `/inventory/${hose.id}/adjust`, {
        delta: 2,
        reason: 'restock',
        note: dockNote,
        locationId: dock.id,
      });
      // The dock's change arrives live; the feed is in order, so Main store's came before it if at all.
      await row.getByTestId('quantity-here').filter({ hasText: /^6$/ }).waitFor({ timeout: 15_000 });
      expect(await row.getByTestId('quantity-total').textContent()).toBe('6 in all');
      expect(frames.some((f) => f.includes(dockNote))).toBe(true);
      expect(frames.some((f) => f.includes(mainNote))).toBe(false);
      // The store's total moved to 13; their screen never showed it.
      expect((await api<Item>('GET', `/inventory/${hose.id}`)).quantity).toBe(13);
      expect(staff.errors).toEqual([]);
    });
  });
});
