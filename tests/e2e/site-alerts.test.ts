// End to end in Chromium, in a store with a second site (Shop 2, its Chiller): what a manager
// notices of low stock per site. On the item page's Low Stock by Site card she gives Shop 2 a
// threshold of its own (2, below the item's 5); a sale at Shop 2 that would be low at the
// item's threshold raises nothing, the next one below Shop 2's own does: the Alerts screen
// shows it live, naming the site ("Low at Shop 2", 2 at the site, threshold 2), with a toast
// saying so, and Where is it on the row lists the item's locations; the dashboard counts it at
// Shop 2, and its chip opens Shop 2's wall display. The wall display of the whole store names
// the site on the alert; choosing Shop 2 in its header shows Shop 2's stock and its latest
// changes (a sale at the main store touches neither), and the choice is kept in the URL.
// Clearing Shop 2's own threshold brings back the item's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import type { Location, Site } from '../../shared/sites.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('low stock per site, on the item page, the Alerts screen and the wall display', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let clerk: TestAccount;
  let dairy: Category;
  let milk: Item;
  let shop: Site;
  let chiller: Location;
  let admin: OpenPage;
  let wall: OpenPage;

  /** A sale (or a restock, units > 0) by a clerk, at a location or the main store's default one. */
  const change = (delta: number, locationId?: string) =>
    server.api<Item>('POST', `/inventory/${milk.id}/adjust`, clerk.idToken, {
      delta,
      reason: delta < 0 ? 'sale' : 'restock',
      ...(locationId ? { locationId } : {}),
    });
  const shopRow = (page: Page) =>
    page
      .getByRole('region', { name: 'Low Stock by Site' })
      .getByTestId('site-threshold-row')
      .filter({ hasText: 'Shop 2' });
  const milkAlert = (page: Page) => page.getByTestId('alert-row').filter({ hasText: 'Milk' });
  const categoryUnits = (page: Page) =>
    page.getByTestId('display-category').filter({ hasText: 'Dairy' }).getByTestId('display-category-units');

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    clerk = await apiAccount(server, 'Sam Staff');
    shop = await server.api<Site>('POST', '/sites', manager.idToken, {
      name: 'Shop 2',
      code: 'S2',
      time_zone: 'Europe/Paris',
    });
    chiller = await server.api<Location>('POST', '/locations', manager.idToken, {
      site_id: shop.id,
      name: 'Chiller',
      code: 'CH',
    });
    dairy = await addCategory(server, manager.idToken, 'Dairy');
    milk = await addItem(server, manager.idToken, dairy, { name: 'Milk', quantity: 20, threshold: 5, price: 1.2 });
    await change(6, chiller.id);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("sets Shop 2's own threshold on the item page; a sale below it there is on Alerts, naming the site, live", async () => {
    admin = await openPage(browser, server);
    const page = admin.page;
    await signIn(page, manager.email!, manager.password!);
    await page.goto(`/inventory/${milk.id}`);
    const row = shopRow(page);
    await seeText(row.getByTestId('site-threshold-quantity'), /^6$/);
    expect((await row.getByTestId('site-threshold-threshold').textContent())!.replace(/\s+/g, ' ')).toBe("5 item's");
    await row.getByLabel('Threshold at Shop 2').fill('2');
    await row.getByRole('button', { name: 'Save' }).click();
    await seeText(row.getByTestId('site-threshold-threshold'), 'own');
    expect((await row.getByTestId('site-threshold-threshold').textContent())!.replace(/\s+/g, ' ')).toBe('2 own');

    // 3 left at Shop 2: low at the item's threshold, not at Shop 2's own. The card follows live.
    await change(-3, chiller.id);
    await seeText(row.getByTestId('site-threshold-quantity'), /^3$/);
    expect(await row.locator('.badge').textContent()).toBe('In stock');

    await page.goto('/alerts');
    await seeText(page, 'No Active Alerts');
    // 2 left: at Shop 2's own threshold. The alert comes in live and says where.
    await change(-1, chiller.id);
    await seeText(milkAlert(page).getByTestId('alert-site'), 'Low at Shop 2');
    expect(await milkAlert(page).getByTestId('alert-stock').textContent()).toBe('2');
    expect(await milkAlert(page).locator('dt').first().textContent()).toBe('Stock at Site');
    expect(await milkAlert(page).locator('dd').nth(1).textContent()).toBe('2');
    expect(await milkAlert(page).count()).toBe(1);
    await seeText(page, 'Low stock at Shop 2: Milk — 2 left, at or below the threshold of 2.');
    await page.getByLabel('Search alerts by item name, category or site').fill('shop 2');
    expect(await milkAlert(page).count()).toBe(1);
    await page.getByLabel('Search alerts by item name, category or site').fill('main store');
    await seeText(page, 'No alerts found');
    await page.getByLabel('Search alerts by item name, category or site').fill('');

    // Where is it, from the alert row: its locations by site.
    await milkAlert(page).getByRole('button', { name: 'Where is Milk' }).click();
    const where = page.getByTestId('where-is-it').filter({ hasText: 'Where is Milk' });
    await where.getByText('Chiller').waitFor();
    const text = (await where.textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('Main store20');
    expect(text).toContain('Shop 22');
    expect(text).toContain('ChillerCH2');
    expect(text).toContain('Total22');
    await page.keyboard.press('Escape');
    await where.waitFor({ state: 'hidden' });

    // The dashboard counts it at Shop 2, whose chip opens Shop 2's wall display.
    await page.goto('/dashboard');
    const chip = page.getByTestId('low-by-site').filter({ hasText: 'Shop 2' });
    await seeText(chip, '1');
    expect(await chip.getAttribute('aria-label')).toBe('Shop 2: 1 low. Open its wall display');
    expect(await page.getByTestId('low-by-site').filter({ hasText: 'Main store' }).getAttribute('aria-label')).toBe(
      'Main store: 0 low. Open its wall display',
    );
    await chip.click();
    await page.waitForURL(`**/display?siteId=${shop.id}`);
    await seeText(page.getByTestId('display-place-name'), 'Shop 2');
    expect(admin.errors).toEqual([]);
  }, 120_000);

  it('names the site on the wall display, and shows one site chosen there, kept in the URL', async () => {
    wall = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    const page = wall.page;
    await page.goto('/display');
    await page.waitForURL('**/login');
    await signIn(page, manager.email!, manager.password!, '**/display');
    // The whole store: 22 units of dairy, and the alert names its site.
    await seeText(categoryUnits(page), /^22 units$/);
    const alert = page.getByTestId('display-alert').filter({ hasText: 'Milk' });
    await seeText(alert, 'Shop 2 · Dairy');
    await seeText(alert, '2 left · alert at 2');
    expect(await page.getByTestId('display-place-name').count()).toBe(0);

    await page.getByTestId('display-place').selectOption({ label: 'Shop 2' });
    await page.waitForURL(`**/display?siteId=${shop.id}`);
    await seeText(page.getByTestId('display-place-name'), 'Shop 2');
    await seeText(categoryUnits(page), /^2 units$/);
    await seeText(alert, '2 left · alert at 2');

    // A sale at the main store, then one at Shop 2: the wall shows Shop 2's units only, live.
    await change(-4);
    await change(-1, chiller.id);
    await seeText(alert, '1 left · alert at 2');
    await seeText(categoryUnits(page), /^1 unit$/);
    expect(await page.getByTestId('display-alert-count').textContent()).toBe('1');
    // Its ticker is Shop 2's latest changes too.
    const ticker = (await page.getByTestId('display-ticker').textContent())!.replace(/\s+/g, ' ');
    expect(ticker).toContain('(sale) Milk at Chiller');
    expect(ticker).not.toContain('Main location');

    // The chosen place survives a reload: it is in the URL.
    await page.reload();
    await seeText(page.getByTestId('display-place-name'), 'Shop 2');
    await seeText(alert, '1 left · alert at 2');
    expect(await page.getByTestId('display-place').inputValue()).toBe(`site:${shop.id}`);

    // A location: Shop 2's Chiller.
    await page.getByTestId('display-place').selectOption({ label: 'Chiller' });
    await page.waitForURL(`**/display?locationId=${chiller.id}`);
    await seeText(page.getByTestId('display-place-name'), 'Shop 2 · Chiller');
    await seeText(categoryUnits(page), /^1 unit$/);

    // Restocked at Shop 2: it recovers there, live.
    await change(5, chiller.id);
    await seeText(page, 'All stocked up');
    await seeText(categoryUnits(page), /^6 units$/);
    expect(wall.errors).toEqual([]);
  }, 120_000);

  it("falls back to the item's threshold when Shop 2's own is cleared, on the page and the wall alike", async () => {
    const page = admin.page;
    await page.goto(`/inventory/${milk.id}`);
    const row = shopRow(page);
    await seeText(row.getByTestId('site-threshold-quantity'), /^6$/);
    await change(-2, chiller.id);
    await seeText(row.getByTestId('site-threshold-quantity'), /^4$/);
    expect(await row.locator('.badge').textContent()).toBe('In stock');
    await row.getByRole('button', { name: "Use item's" }).click();
    await seeText(row.getByTestId('site-threshold-threshold'), "item's");
    await seeText(row.locator('.badge'), 'Low stock');
    await seeText(wall.page.getByTestId('display-alert').filter({ hasText: 'Milk' }), '4 left · alert at 5');
    expect(admin.errors).toEqual([]);
  }, 90_000);
});
