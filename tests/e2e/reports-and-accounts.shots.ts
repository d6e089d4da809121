// Screenshots of the report and account screens (dashboard, alerts, activity log, users,
// roles, settings, profile) in the light and dark theme, at desktop and phone width, and the
// wall display at 1920x1080, saved to test-results/screenshots (not committed) for people to
// look at. Each shot first checks the screen rendered its data.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, daysFromNow, openPage, signIn } from './shared-steps.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of the report and account screens', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Morgan Manager');
    const staff = await apiAccount(server, 'Sam Staff');
    await apiAccount(server, 'Riley Requester', 'manager');
    const token = manager.idToken;
    await server.api('PUT', '/settings', token, { storeName: 'Harbour Street Store', email: 'owner@harbour.test' });
    await server.api('POST', '/roles', token, {
      name: 'Shelf Viewer',
      description: 'Looks at stock and reports',
      permissions: ['inventory:view', 'reports:view'],
    });
    const categories: Record<string, Category> = {};
    for (const name of ['Electronics', 'Clothing', 'Food & Beverages', 'Home & Garden'])
      categories[name] = await addCategory(server, token, name);
    const items: Item[] = [];
    const add = async (
      category: string,
      name: string,
      quantity: number,
      threshold: number,
      price: number,
      expiry?: number,
    ) =>
      items.push(
        await addItem(server, token, categories[category]!, {
          name,
          quantity,
          threshold,
          price,
          ...(expiry ? { expiry_date: daysFromNow(expiry) } : {}),
        }),
      );
    await add('Electronics', 'Wireless Headphones', 42, 10, 129.99);
    await add('Electronics', 'USB-C Cable 2 m', 12, 8, 12.5);
    await add('Electronics', 'Bluetooth Speaker', 15, 10, 59);
    await add('Clothing', 'Cotton T-Shirt', 60, 10, 15);
    await add('Clothing', 'Rain Jacket', 9, 4, 89);
    await add('Food & Beverages', 'Cold Brew Coffee', 24, 5, 4.5, 6);
    await add('Food & Beverages', 'Organic Granola', 18, 6, 7.25, 19);
    await add('Food & Beverages', 'Sparkling Water', 40, 12, 1.2, 27);
    await add('Home & Garden', 'Ceramic Planter', 7, 3, 24);
    const sell = async (name: string, units: number, reason = 'sale') =>
      adjust(
        server,
        staff.idToken,
        items.find((i) => i.name === name)!,
        -units,
        reason,
      );
    await sell('Wireless Headphones', 6);
    await sell('Cold Brew Coffee', 21);
    await sell('USB-C Cable 2 m', 9);
    await sell('Cotton T-Shirt', 14);
    await sell('Sparkling Water', 11);
    await sell('Ceramic Planter', 7);
    await sell('Rain Jacket', 2, 'damage');
    await adjust(
      server,
      staff.idToken,
      items.find((i) => i.name === 'Ceramic Planter')!,
      12,
      'restock',
    );
    await sell('Ceramic Planter', 10);
    await sell('Bluetooth Speaker', 3);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/dashboard');
    await seeText(page, 'Top Selling Items');
    await seeText(page, 'sold');
    await screenshot(page, 'dashboard');

    await page.goto('/alerts');
    await page.getByTestId('alert-row').first().waitFor();
    await screenshot(page, 'alerts');
    await page.getByRole('button', { name: 'Alert Settings' }).click();
    await page.getByRole('switch', { name: 'Browser notifications' }).waitFor();
    await screenshot(page, 'alert-settings');
    await page.keyboard.press('Escape');

    await page.goto('/activity');
    await page.getByTestId('activity-row').first().waitFor();
    await screenshot(page, 'activity');

    await page.goto('/users');
    await page.getByTestId('pending-request').waitFor();
    await screenshot(page, 'users');
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog', { name: 'Add User' }).waitFor();
    await screenshot(page, 'add-user');
    await page.keyboard.press('Escape');

    await page.goto('/roles');
    await page.getByTestId('role-card').filter({ hasText: 'Shelf Viewer' }).waitFor();
    await screenshot(page, 'roles');
    await page.getByRole('button', { name: 'Add Role' }).click();
    await page.getByRole('dialog', { name: 'Add Role' }).waitFor();
    await screenshot(page, 'add-role');
    await page.keyboard.press('Escape');

    await page.goto('/settings');
    await page.getByLabel('Store Name').waitFor();
    await screenshot(page, 'settings');
    await page.getByRole('tab', { name: 'Permissions' }).click();
    await page.getByRole('table', { name: 'Permissions of each role' }).waitFor();
    await screenshot(page, 'settings-permissions');

    await page.goto('/profile');
    await page.getByTestId('profile-full-name').waitFor();
    await screenshot(page, 'profile');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots every screen in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }

  for (const theme of THEMES) {
    it(`shoots the wall display in ${theme} at 1920x1080`, async () => {
      const { context, page } = await openPage(browser, server, { theme, viewport: { width: 1920, height: 1080 } });
      await page.goto('/display');
      await page.waitForURL('**/login');
      await signIn(page, manager.email!, manager.password!, '**/display');
      await page.getByTestId('display-alert').first().waitFor();
      await page.waitForTimeout(500);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}display-${theme}-1920x1080.png` });
      await context.close();
    }, 90_000);
  }
});
