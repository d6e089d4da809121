// End to end in Chromium, in a store with a second site (Shop 2): the wall display set to
// Shop 2 with its place picker shows that site's units by category and follows a sale there
// live until the item is low at Shop 2 (while the main store, which holds more of it, stays
// as it was); the Alerts screen names the site ("Milk is low at Shop 2: 3 left, threshold
// 5"); the item page's Low Stock by Site card sets a threshold of the item's own at a site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import type { Location, Site } from '../../shared/sites.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('low stock per site and the wall display of a site', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let dairy: Category;
  let milk: Item;
  let shop: Site;
  let shelf: Location;
  let display: OpenPage;
  let admin: OpenPage;

  const sell = (units: number, locationId?: string) =>
    server.api<Item>('POST', `/inventory/${milk.id}/adjust`, manager.idToken, {
      delta: -units,
      reason: 'sale',
      ...(locationId ? { locationId } : {}),
    });

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager');
    shop = await server.api<Site>('POST', '/sites', manager.idToken, {
      name: 'Shop 2',
      code: 'S2',
      time_zone: 'Europe/Paris',
    });
    shelf = await server.api<Location>('POST', '/locations', manager.idToken, {
      site_id: shop.id,
      name: 'Chiller',
      code: 'CH',
    });
    dairy = await addCategory(server, manager.idToken, 'Dairy');
    milk = await addItem(server, manager.idToken, dairy, { name: 'Milk', quantity: 20, threshold: 5, price: 1.2 });
    await server.api('POST', `/inventory/${milk.id}/adjust`, manager.idToken, {
      delta: 6,
      reason: 'restock',
      locationId: shelf.id,
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows one site's stock on the wall display, chosen there, and follows it live", async () => {
    display = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    await display.page.goto('/display');
    await display.page.waitForURL('**/login');
    await signIn(display.page, manager.email!, manager.password!, '**/display');
    const page = display.page;
    // The whole store: 26 units of dairy.
    await seeText(page.getByTestId('display-category-units'), '26 units');
    await page.getByTestId('display-place').selectOption({ label: 'Shop 2' });
    await page.waitForURL(`**/display?siteId=${shop.id}`);
    expect(await page.getByTestId('display-place-name').textContent()).toBe('Shop 2');
    await seeText(page.getByTestId('display-category-units'), '6 units');
    await seeText(page, 'All stocked up');
    // Let the feed settle (a fresh connection refetches once).
    await page.waitForTimeout(800);

    // Sold at Shop 2: the wall shows Shop 2's units, then Milk low there, with no reload.
    await sell(1, shelf.id);
    await seeText(page.getByTestId('display-category-units'), '5 units');
    await page.getByTestId('display-alert').getByText('Milk').waitFor({ timeout: 10_000 });
    await seeText(page.getByTestId('display-alert'), '5 left · alert at 5');
    await sell(2, shelf.id);
    await seeText(page.getByTestId('display-alert'), '3 left · alert at 5');
    // A sale at the main store changes nothing on this wall.
    await sell(4);
    await page.waitForTimeout(1_000);
    expect(await page.getByTestId('display-category-units').textContent()).toBe('3 units');
    expect(await page.getByTestId('display-alert-count').textContent()).toBe('1');
    expect(display.errors).toEqual([]);

    // The chosen place survives a reload: it is in the URL.
    await page.reload();
    await seeText(page.getByTestId('display-place-name'), 'Shop 2');
    await seeText(page.getByTestId('display-alert'), '3 left · alert at 5');
  }, 120_000);

  it('names the site on the Alerts screen and sets a threshold per site on the item page', async () => {
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
    const page = admin.page;
    await page.goto('/alerts');
    const row = page.getByTestId('alert-row').filter({ hasText: 'Milk' });
    await seeText(row.getByTestId('alert-site'), 'Milk is low at Shop 2: 3 left, threshold 5');
    expect(await row.count()).toBe(1);

    await page.goto(`/inventory/${milk.id}`);
    const card = page.getByRole('region', { name: 'Low Stock by Site' });
    const shopRow = card.getByTestId('site-threshold-row').filter({ hasText: 'Shop 2' });
    await seeText(shopRow.getByTestId('site-threshold-quantity'), '3');
    await shopRow.getByLabel('Threshold at Shop 2').fill('2');
    await shopRow.getByRole('button', { name: 'Save' }).click();
    await seeText(shopRow, '2 own');
    expect(await shopRow.locator('.badge').textContent()).toBe('In stock');
    // 3 at Shop 2 is above its own 2: the alert is gone, live on the display too.
    await seeText(display.page, 'All stocked up');
    expect(admin.errors).toEqual([]);
  }, 90_000);
});
