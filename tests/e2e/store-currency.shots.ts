// Screenshots of a store that prices in euros written for France: the
// Settings screen with its currency and number format, the Inventory and category pages,
// the dashboard, the labels, the activity log and an item's history (price changes in euros), in the light and dark theme at desktop and phone width,
// and the wall display at 1920x1080, saved to test-results/screenshots as currency-*.png.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn } from './shared-steps.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of a store in euros', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let bakery: Category;
  let celebrationCake: Item;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Camille Manager', 'manager');
    const token = manager.idToken;
    await server.api('PUT', '/settings', token, { storeName: 'Boulangerie du Port', currency: 'EUR', locale: 'fr-FR' });
    bakery = await addCategory(server, token, 'Bakery');
    const pantry = await addCategory(server, token, 'Pantry');
    const items: Item[] = [];
    items.push(
      await addItem(server, token, bakery, { name: 'Sourdough Loaf', quantity: 24, threshold: 6, price: 4.8 }),
    );
    items.push(
      await addItem(server, token, bakery, { name: 'Butter Croissant', quantity: 60, threshold: 20, price: 1.35 }),
    );
    items.push(
      await addItem(server, token, bakery, { name: 'Celebration Cake', quantity: 3, threshold: 2, price: 1249.5 }),
    );
    items.push(
      await addItem(server, token, pantry, { name: 'Olive Oil 1 l', quantity: 18, threshold: 5, price: 12.5 }),
    );
    await server.api('PUT', `/inventory/${items[0]!.id}`, token, { barcode: '4006381333931' });
    for (const [item, units] of [
      [items[0]!, 9],
      [items[1]!, 35],
      [items[3]!, 4],
    ] as const)
      await adjust(server, token, item, -units, 'sale');
    await server.api('PUT', `/inventory/${items[2]!.id}`, token, { price: 1299, threshold: 1 });
    celebrationCake = items[2]!;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/settings');
    await page.getByLabel('Currency').waitFor();
    await seeText(page, 'Prices read');
    await screenshot(page, 'currency-settings');

    await page.goto('/inventory');
    await page.getByText('Bakery').first().waitFor();
    await screenshot(page, 'currency-inventory');

    await page.goto(`/inventory/category/${bakery.id}`);
    await seeText(page, '4,80');
    await screenshot(page, 'currency-category');

    await page.goto('/dashboard');
    await seeText(page, 'Top Selling Items');
    await seeText(page, 'sold');
    await screenshot(page, 'currency-dashboard');

    await page.goto('/activity');
    await seeText(page, 'Price 1\u202f249,50\u00a0€ → 1\u202f299,00\u00a0€');
    await screenshot(page, 'currency-activity');

    await page.goto(`/inventory/${celebrationCake.id}`);
    await seeText(page, '1\u202f299,00\u00a0€');
    await page.getByRole('heading', { name: 'History' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'currency-item-history');

    await page.goto(`/inventory/labels?category=${bakery.id}`);
    await page.getByRole('region', { name: 'Preview' }).locator('img').first().waitFor();
    await screenshot(page, 'currency-labels');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots settings, inventory, dashboard, activity, item history and labels in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }

  it('shoots the wall display at 1920x1080', async () => {
    const { context, page } = await openPage(browser, server, {
      theme: 'dark',
      viewport: { width: 1920, height: 1080 },
    });
    await page.goto('/display');
    await page.waitForURL('**/login');
    await signIn(page, manager.email!, manager.password!, '**/display');
    await page.getByTestId('display-category').first().waitFor();
    await page.waitForTimeout(500);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}currency-display-dark-1920x1080.png` });
    await context.close();
  }, 90_000);
});
