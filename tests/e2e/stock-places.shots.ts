// Screenshots of stock at places (the Inventory page's site picker and its list at a site,
// the item page's Stock by location, the Move dialog with a refusal, "Where is it", and the
// scanner putting away at a shelf label), in the light and dark theme, at desktop and phone
// width, saved to test-results/screenshots for people to look at (`npm run screenshots`).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { MAIN_SITE_ID } from '../../shared/places.js';
import type { Location, Site } from '../../shared/sites.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, newAppContext, PHONE, screenshot, signInViaUi } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { typeLikeScanner } from '../helpers/hardware-scanner.js';

describe('screenshots of stock at places', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let lantern: Item;
  let shelf: Location;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Morgan Manager', 'manager');
    const api = <T>(method: string, path: string, body?: unknown) => server.api<T>(method, path, manager.idToken, body);
    const location = (site_id: string, name: string, code: string, parent_id: string | null = null, barcode?: string) =>
      api<Location>('POST', '/locations', { site_id, parent_id, name, code, barcode: barcode ?? null });
    const back = await location(MAIN_SITE_ID, 'Back room', 'BACK', null, 'LOC-BACK-1');
    shelf = await location(MAIN_SITE_ID, 'Shelf 2', 'S2', back.id);
    await location(MAIN_SITE_ID, 'Shop floor', 'FLOOR');
    const warehouse = await api<Site>('POST', '/sites', { name: 'North warehouse', code: 'NW', time_zone: 'UTC' });
    const bay = await location(warehouse.id, 'Bay 7', 'B7');
    const category = await api<Category>('POST', '/categories', { name: 'Camping' });
    const add = (name: string, sku: string, quantity: number, more: Record<string, unknown> = {}) =>
      api<Item>('POST', '/inventory', {
        name,
        sku,
        category_id: category.id,
        quantity,
        price: 12.5,
        threshold: 4,
        ...more,
      });
    lantern = await add('Storm Lantern', 'CMP-100', 12);
    await api('POST', `/inventory/${lantern.id}/adjust`, { delta: 6, reason: 'restock', locationId: shelf.id });
    await api('POST', `/inventory/${lantern.id}/adjust`, { delta: 20, reason: 'restock', locationId: bay.id });
    await add('Lamp Oil 1 L', 'CMP-101', 30, { location_id: back.id, barcode: '5901234123457' });
    await add('Tent Pegs (20 pack)', 'CMP-102', 3);
    await add('Camping Stove', 'CMP-103', 9, { location_id: bay.id });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [DESKTOP, PHONE]) {
      it(`stock at places in ${theme} at ${viewport.width}px`, async () => {
        const context = await newAppContext(browser, server, { theme, viewport });
        const page: Page = await context.newPage();
        await signInViaUi(page, manager.email!, manager.password!);

        await page.goto(`/inventory?siteId=${MAIN_SITE_ID}`);
        await page.getByTestId('placed-row').first().waitFor();
        await screenshot(page, 'places-site-picker');

        await page.getByRole('button', { name: 'Where is Storm Lantern' }).click();
        await page.getByTestId('where-is-it').getByText('Bay 7').waitFor();
        await screenshot(page, 'places-where-is-it');
        await page.keyboard.press('Escape');

        await page.goto(`/inventory/${lantern.id}`);
        await page.getByTestId('place-row').first().waitFor();
        await page.getByTestId('item-places').scrollIntoViewIfNeeded();
        await screenshot(page, 'places-item-page');

        await page.getByRole('button', { name: 'Move stock' }).click();
        const dialog = page.getByRole('dialog', { name: 'Move stock' });
        await dialog.getByLabel('To').selectOption({ label: 'Shop floor' });
        await dialog.getByLabel('Quantity').fill('50');
        await dialog.getByRole('button', { name: 'Move stock' }).click();
        await dialog.getByText(/Insufficient stock at/).waitFor();
        await screenshot(page, 'places-move-dialog');
        await dialog.getByRole('button', { name: 'Cancel' }).click();

        await page.goto(`/inventory?siteId=${MAIN_SITE_ID}`);
        await page.getByTestId('placed-row').first().waitFor();
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await typeLikeScanner(page, 'LOC-BACK-1');
        await page.getByRole('heading', { name: 'Put away at Back room' }).waitFor();
        await typeLikeScanner(page, '5901234123457');
        await page.getByRole('dialog').getByRole('heading', { name: 'Lamp Oil 1 L' }).waitFor();
        await page.getByTestId('scanner-quantity').filter({ hasText: /^30$/ }).waitFor();
        await screenshot(page, 'places-scanner-put-away');
        await context.close();
      }, 120_000);
    }
  }
});
