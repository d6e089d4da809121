// End to end in Chromium: the Alerts screen lists low items live, searches by name or
// category, and a dismissal persists across a reload, is the user's own, and ends when the
// item recovers and runs low again; the empty state; Alert Settings saves the user's
// choices; a pushed alert raises a browser notification (the Notification API is recorded
// by a stand-in, since headless Chromium shows none) and an in-app toast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn, type OpenPage } from './shared-steps.js';

/** Replaces the Notification API with a recorder that says permission was granted. */
function recordNotifications(): void {
  const shown: { title: string; body: string }[] = [];
  (window as unknown as { __notifications: typeof shown }).__notifications = shown;
  class RecordedNotification {
    static permission = 'granted';
    static requestPermission = async () => 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body?: string } = {}) {
      shown.push({ title, body: options.body ?? '' });
    }
    close() {}
  }
  Object.defineProperty(window, 'Notification', { value: RecordedNotification, configurable: true, writable: true });
}

const activeRows = (page: Page) => page.getByRole('region', { name: 'Active alerts' }).getByTestId('alert-row');

describe('alerts', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let pantry: Category;
  let dairy: Category;
  let rice: Item;
  let salt: Item;
  let staffPage: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Ada Admin');
    staff = await apiAccount(server, 'Sol Staff');
    pantry = await addCategory(server, manager.idToken, 'Pantry');
    dairy = await addCategory(server, manager.idToken, 'Dairy');
    rice = await addItem(server, manager.idToken, pantry, {
      name: 'Basmati Rice',
      quantity: 2,
      threshold: 4,
      price: 3,
    });
    await addItem(server, manager.idToken, dairy, { name: 'Oat Milk', quantity: 0, threshold: 2, price: 2.5 });
    salt = await addItem(server, manager.idToken, pantry, { name: 'Sea Salt', quantity: 30, threshold: 5, price: 1 });
    staffPage = await openPage(browser, server);
    await staffPage.context.addInitScript(recordNotifications);
    await signIn(staffPage.page, staff.email!, staff.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists low items with current stock and threshold, and searches by name or category', async () => {
    const page = staffPage.page;
    await page.goto('/alerts');
    await seeText(page, 'Oat Milk');
    expect(await activeRows(page).count()).toBe(2);
    const milkRow = activeRows(page).filter({ hasText: 'Oat Milk' });
    expect(await milkRow.getByTestId('alert-stock').textContent()).toBe('0');
    await seeText(milkRow, 'Out of stock');
    expect(await activeRows(page).filter({ hasText: 'Basmati Rice' }).getByTestId('alert-stock').textContent()).toBe(
      '2',
    );

    const search = page.getByLabel('Search alerts by item name or category');
    await search.fill('dairy');
    expect(await activeRows(page).allTextContents()).toEqual([expect.stringContaining('Oat Milk')]);
    await search.fill('basmati');
    expect(await activeRows(page).allTextContents()).toEqual([expect.stringContaining('Basmati Rice')]);
    await search.fill('chocolate');
    await seeText(page, 'No alerts match your search.');
    await search.fill('');
    expect(await activeRows(page).count()).toBe(2);
  }, 60_000);

  it('shows a new alert and stock changes live', async () => {
    const page = staffPage.page;
    await adjust(server, manager.idToken, salt, -26);
    await seeText(activeRows(page).filter({ hasText: 'Sea Salt' }), 'Low stock');
    await adjust(server, manager.idToken, salt, -1);
    await activeRows(page)
      .filter({ hasText: 'Sea Salt' })
      .getByTestId('alert-stock')
      .getByText('3', { exact: true })
      .waitFor({ timeout: 5_000 });
  }, 60_000);

  it('keeps a dismissal across a reload, for this user only, until the item recovers and runs low again', async () => {
    const page = staffPage.page;
    await page.getByRole('button', { name: 'Dismiss alert for Basmati Rice' }).click();
    await page.getByRole('button', { name: 'Dismissed (1)' }).waitFor();
    expect(await activeRows(page).filter({ hasText: 'Basmati Rice' }).count()).toBe(0);

    await page.reload();
    await page.getByRole('button', { name: 'Dismissed (1)' }).waitFor({ timeout: 15_000 });
    expect(await activeRows(page).filter({ hasText: 'Basmati Rice' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Dismissed (1)' }).click();
    await page.getByRole('button', { name: 'Restore alert for Basmati Rice' }).waitFor();

    // The manager's own list still shows it.
    const other = await openPage(browser, server);
    await signIn(other.page, manager.email!, manager.password!);
    await other.page.goto('/alerts');
    await activeRows(other.page).filter({ hasText: 'Basmati Rice' }).waitFor();
    await other.context.close();

    // Recovers, then runs low again: a new alert, not dismissed.
    await adjust(server, manager.idToken, rice, 10, 'restock');
    await page.getByRole('button', { name: /Dismissed/ }).waitFor({ state: 'detached', timeout: 5_000 });
    await adjust(server, manager.idToken, rice, -10, 'sale');
    await activeRows(page).filter({ hasText: 'Basmati Rice' }).waitFor({ timeout: 5_000 });
    await page.reload();
    await activeRows(page).filter({ hasText: 'Basmati Rice' }).waitFor({ timeout: 15_000 });
  }, 90_000);

  it('saves Alert Settings, and a pushed alert raises a browser notification and a toast', async () => {
    const page = staffPage.page;
    await page.getByRole('button', { name: 'Alert Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alert Settings' });
    const browserSwitch = dialog.getByRole('switch', { name: 'Browser notifications' });
    await browserSwitch.waitFor();
    expect(await browserSwitch.isChecked()).toBe(false);
    await browserSwitch.check();
    expect(await dialog.getByRole('switch', { name: 'Pop-up in the app' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await seeText(page, 'Alert settings saved');

    await page.reload();
    await page.getByRole('button', { name: 'Alert Settings' }).click();
    expect(
      await page
        .getByRole('dialog', { name: 'Alert Settings' })
        .getByRole('switch', { name: 'Browser notifications' })
        .isChecked(),
    ).toBe(true);
    await page.getByRole('dialog', { name: 'Alert Settings' }).getByRole('button', { name: 'Cancel' }).click();

    // Another screen: the notifier works app-wide.
    await page.goto('/dashboard');
    await page.waitForTimeout(800);
    const cheese = await addItem(server, manager.idToken, dairy, {
      name: 'Goat Cheese',
      quantity: 9,
      threshold: 3,
      price: 6,
    });
    await adjust(server, manager.idToken, cheese, -7, 'sale');
    await page.waitForFunction(
      () => (window as unknown as { __notifications: { title: string }[] }).__notifications.length > 0,
      null,
      { timeout: 5_000 },
    );
    const shown = await page.evaluate(
      () => (window as unknown as { __notifications: { title: string; body: string }[] }).__notifications,
    );
    expect(shown).toEqual([{ title: 'Low stock: Goat Cheese', body: '2 left, at or below the threshold of 3.' }]);
    await seeText(page, 'Low stock: Goat Cheese — 2 left, at or below the threshold of 3.');
  }, 90_000);

  it('says so when nothing is low: No Active Alerts', async () => {
    const page = staffPage.page;
    await page.goto('/alerts');
    await activeRows(page).first().waitFor();
    const low = (await server.api<Item[]>('GET', '/inventory/low-stock', manager.idToken)) as Item[];
    for (const item of low) await adjust(server, manager.idToken, item, item.threshold + 5 - item.quantity, 'restock');
    await seeText(page, 'No Active Alerts', 5_000);
    await seeText(page, 'All inventory items are above their threshold levels.');
    expect(staffPage.errors).toEqual([]);
  }, 60_000);
});
