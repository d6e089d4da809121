// End to end in Chromium: both ways to add an item (the wizard from the Inventory page and
// the full page at /inventory/add) start the Stock Threshold at the store's Default
// Low-Stock Threshold, and a price with more than two decimals is refused with a message
// that says so, not with the generic number message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('the add item forms', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Ada Adder');
    const drinks = await addCategory(server, manager.idToken, 'Cold Drinks');
    await addItem(server, manager.idToken, drinks, { name: 'Cold Brew', quantity: 20, threshold: 3, price: 3.5 });
    await server.api('PUT', '/settings', manager.idToken, { lowStockThreshold: 7 });
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts both add forms at the store default threshold of 7', async () => {
    const page = admin.page;
    await page.goto('/inventory');
    const add = page.getByRole('button', { name: 'Add Item', exact: true });
    await page.getByTestId('category-card').first().waitFor();
    await add.click();
    const wizard = page.getByRole('dialog', { name: 'Add Item' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Next' }).click();
    await seeText(wizard, 'Step 3 of 3');
    expect(await wizard.getByLabel('Stock Threshold').inputValue()).toBe('7');
    expect(await wizard.getByLabel('Initial Quantity').inputValue()).toBe('');
    await screenshot(page, 'add-item-wizard-threshold');
    await wizard.getByRole('button', { name: 'Close' }).click();

    await page.goto('/inventory/add');
    await page.getByLabel('Stock Threshold').waitFor();
    expect(await page.getByLabel('Stock Threshold').inputValue()).toBe('7');
  }, 60_000);

  it("refuses a price with more than two decimals with 'Price can have at most 2 decimals'", async () => {
    const page = admin.page;
    await page.goto('/inventory/add');
    await page.getByLabel('Name', { exact: true }).fill('Sparkling Water');
    await page.getByLabel('SKU').fill('SW-1');
    await page.getByLabel('Category').selectOption({ label: 'Cold Drinks' });
    await page.getByLabel('Quantity').fill('10');
    await page.getByLabel('Unit Price ($)').fill('1.999');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await seeText(page, 'Price can have at most 2 decimals');
    expect(await page.getByText('Price must be a number of 0 or more').count()).toBe(0);
    await screenshot(page, 'add-item-price-decimals');
    await page.getByLabel('Unit Price ($)').fill('1.99');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await page.waitForURL(/\/inventory\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await seeText(page, '$1.99');
  }, 60_000);
});
