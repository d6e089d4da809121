// Screenshots of toasts in the light and dark theme at desktop and phone
// width, saved to test-results/screenshots: a category page after three stock saves and a
// low-stock alert (named Undos, under the header), and a stocktake count made offline (counts
// waiting on their rows, one toast for all of them).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import type { StocktakeSession } from '../../shared/stocktake.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn } from './shared-steps.js';

const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of toasts', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let dairy: Category;
  let items: Item[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Tia Toast', 'manager');
    dairy = await addCategory(server, manager.idToken, 'Dairy');
    items = [];
    for (const [name, quantity] of [
      ['Crème fraîche 1 kg', 10],
      ['Salted Butter 250 g', 8],
      ['Goat Cheese', 12],
      ['Whole Milk 1 l', 30],
    ] as const) {
      items.push(await addItem(server, manager.idToken, dairy, { name, quantity, threshold: 3, price: 4 }));
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Rests the pointer on the newest toast: toasts hold while pointed at, so the shot has them all. */
  const holdToasts = (page: Page) => page.locator('.toast .toast-message').last().hover();

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`category page and stocktake count with toasts, ${theme} ${device}`, async () => {
        const { page, context } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        await page.waitForLoadState('networkidle');

        await page.goto(`/inventory/category/${dairy.id}`);
        await page.locator('.live-live').waitFor({ timeout: 15_000 });
        await page.getByRole('button', { name: 'Decrease quantity of Crème fraîche 1 kg' }).click();
        await page.getByRole('button', { name: 'Increase quantity of Salted Butter 250 g' }).click();
        await page.getByRole('button', { name: 'Decrease quantity of Crème fraîche 1 kg' }).click();
        // Whole Milk runs low from elsewhere: the alert comes as a toast of its own kind.
        const milk = items.find((i) => i.name === 'Whole Milk 1 l')!;
        const now = await server.api<Item>('GET', `/inventory/${milk.id}`, manager.idToken);
        if (now.quantity !== 30) await adjust(server, manager.idToken, milk, 30 - now.quantity, 'restock');
        await adjust(server, manager.idToken, milk, -28, 'sale');
        await page.locator('.toast-action').nth(2).waitFor({ timeout: 15_000 });
        await page.locator('.toast[data-group="stock-alerts"]').waitFor({ timeout: 15_000 });
        await holdToasts(page);
        await screenshot(page, 'toasts-category');
        await page.mouse.move(0, viewport.height - 1);

        const session = await server.api<StocktakeSession>('POST', '/stocktakes', manager.idToken, {
          scope: 'category',
          categoryId: dairy.id,
          name: `Dairy ${theme} ${device}`,
        });
        await page.goto(`/stocktake/${session.id}`);
        await page.getByLabel('Count of Goat Cheese').waitFor({ timeout: 15_000 });
        await context.setOffline(true);
        for (const [name, counted] of [
          ['Crème fraîche 1 kg', 9],
          ['Salted Butter 250 g', 7],
          ['Goat Cheese', 12],
        ] as const) {
          const field = page.getByLabel(`Count of ${name}`);
          await field.fill(String(counted));
          await field.press('Enter');
          await page
            .getByTestId('count-row')
            .filter({ hasText: name })
            .getByText(`Waiting to send: ${counted}`)
            .waitFor({ timeout: 15_000 });
        }
        await page.locator('.toast').filter({ hasText: '3 counts waiting to send' }).waitFor({ timeout: 10_000 });
        await holdToasts(page);
        await screenshot(page, 'toasts-stocktake-offline');
        await context.setOffline(false);
        await context.close();
      });
    }
  }
});
