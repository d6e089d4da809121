// End to end, as a store manager in headless Chromium against the real server and the
// auth emulator: first sign-up becomes manager, a category and an item through the
// wizard, +/- adjustments until the item runs low, the Low Stock Alert, live updates in a
// second browser context, an edit conflict from that context, delete with confirmation,
// the 404 page and the theme surviving a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import {
  newAppContext,
  newUiAccount,
  screenshot,
  seeText,
  signInViaUi,
  signUpViaUi,
  watchErrors,
} from '../helpers/e2e-app.js';
import { signIn } from '../helpers/emulator-accounts.js';
import type { Category } from '../../shared/inventory.js';

describe('manager inventory flow', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let contextA: BrowserContext;
  let contextB: BrowserContext;
  let a: Page;
  let b: Page;
  let errorsA: string[];
  const manager = newUiAccount('manager', 'Mia Manager');
  let itemUrl = '';
  let categoryUrl = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    contextA = await newAppContext(browser, server);
    contextB = await newAppContext(browser, server);
    a = await contextA.newPage();
    b = await contextB.newPage();
    errorsA = watchErrors(a);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs the first account up as the store manager', async () => {
    await signUpViaUi(a, manager, 'staff');
    await a.getByRole('button', { name: /Account menu/ }).click();
    expect(await a.locator('.user-menu-panel .badge').textContent()).toBe('Manager');
    await seeText(a.locator('.user-menu-panel'), manager.email);
    await a.keyboard.press('Escape');
    // Managers see Users and Roles in the dock.
    expect(await a.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Items',
      'Transfers',
      'Users',
      'Logs',
      'Alerts',
      'Count',
      'Roles',
      'Setup',
    ]);
  }, 60_000);

  it('adds a category and an item through the wizard', async () => {
    await a.goto('/inventory');
    await seeText(a, 'No items found');
    await seeText(a, 'Start by adding your first inventory item or category.');

    await a.getByRole('button', { name: 'Add Category' }).first().click();
    const categoryDialog = a.getByRole('dialog', { name: 'Add Category' });
    const addButton = categoryDialog.getByRole('button', { name: 'Add Category' });
    expect(await addButton.isDisabled()).toBe(true);
    await categoryDialog.getByLabel('Name', { exact: true }).fill('   ');
    expect(await addButton.isDisabled()).toBe(true);
    await categoryDialog.getByLabel('Name', { exact: true }).fill('Beverages');
    await categoryDialog.getByLabel(/Description/).fill('Drinks and coffee');
    await addButton.click();
    await categoryDialog.waitFor({ state: 'hidden' });

    await a.getByRole('button', { name: 'Add First Item' }).click();
    const wizard = a.getByRole('dialog', { name: 'Add Item' });
    await seeText(wizard, 'Step 1 of 3');
    await wizard.getByLabel('Name', { exact: true }).fill('Cold Brew');
    await wizard.getByLabel('SKU').fill('BEV-001');
    await wizard.getByLabel('Category').selectOption({ label: 'Beverages' });
    await wizard.getByRole('button', { name: 'Next' }).click();
    await seeText(wizard, 'Step 2 of 3');
    await wizard.getByLabel('Unit Price ($)').fill('4.50');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await seeText(wizard, 'Step 3 of 3');
    await wizard.getByRole('button', { name: 'Submit' }).click();
    await seeText(wizard, 'Please fill in all required fields');
    await wizard.getByLabel('Initial Quantity').fill('5');
    await wizard.getByLabel('Stock Threshold').fill('3');
    await wizard.getByRole('button', { name: 'Back' }).click();
    expect(await wizard.getByLabel('Unit Price ($)').inputValue()).toBe('4.50');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('button', { name: 'Submit' }).click();
    await wizard.waitFor({ state: 'hidden', timeout: 15_000 });

    const card = a.getByRole('link', { name: /Beverages/ });
    await seeText(card, '1 item');
    await card.click();
    await a.waitForURL('**/inventory/category/**');
    categoryUrl = new URL(a.url()).pathname;
    await seeText(a, '5 in stock');
  }, 60_000);

  it('adjusts stock with + and - until it runs low, and shows the Low Stock Alert', async () => {
    const increase = a.getByRole('button', { name: 'Increase quantity of Cold Brew' });
    const decrease = a.getByRole('button', { name: 'Decrease quantity of Cold Brew' });
    await increase.click();
    await seeText(a, '6 in stock');
    for (const expected of [5, 4, 3]) {
      await decrease.click();
      await seeText(a, `${expected} in stock`);
    }
    expect(await a.getByTestId('stock-badge').getAttribute('class')).toContain('badge-danger');
    await screenshot(a, 'category-low-stock');

    await a.getByRole('link', { name: 'View Details' }).click();
    await a.waitForURL(/\/inventory\/[^/]+$/);
    itemUrl = new URL(a.url()).pathname;
    await seeText(a, 'Low Stock Alert');
    await seeText(a, 'Critically low');
    expect(await a.getByTestId('current-stock').textContent()).toBe('3');
    await seeText(a, 'Stock −1 · Correction');
    await seeText(a, 'by Mia Manager');
  }, 60_000);

  it('shows a +1 from one browser context in another, live, without reload', async () => {
    await signInViaUi(b, manager.email, manager.password);
    await b.goto(categoryUrl);
    await seeText(b, '3 in stock');
    await a.goto(categoryUrl);
    await seeText(a, '3 in stock');
    // Let both feeds settle (the first connection refetches once).
    await a.waitForTimeout(500);

    // A mark on B's document: still there afterwards means B was not reloaded.
    await b.evaluate(() => Object.assign(window, { sameDocument: true }));
    const started = Date.now();
    await a.getByRole('button', { name: 'Increase quantity of Cold Brew' }).click();
    await b.getByText('4 in stock').waitFor({ timeout: 5_000 });
    expect(await b.evaluate(() => 'sameDocument' in window), 'the other context was reloaded').toBe(true);
    // How long it took is printed, not asserted: the speed target lives in `npm run bench
    // realtime` (commit-to-client latency), where a busy test machine cannot fail a run.
    // Seen here: the change arrives live in the other context, with no reload.
    console.info(`+1 reached the other context after ${Date.now() - started} ms`);
    // And back the other way.
    await b.getByRole('button', { name: 'Decrease quantity of Cold Brew' }).click();
    await a.getByText('3 in stock').waitFor({ timeout: 5_000 });
  }, 60_000);

  it('detects an edit conflict from the second context and lets the user reload or overwrite', async () => {
    const editUrl = `${itemUrl}/edit`;
    await a.goto(editUrl);
    await a.getByLabel('Name', { exact: true }).waitFor();
    await b.goto(editUrl);
    await b.getByLabel('Unit Price ($)').fill('5.25');
    await b.getByRole('button', { name: 'Save Changes' }).click();
    await b.waitForURL(`**${itemUrl}`);

    await a.getByLabel('Name', { exact: true }).fill('Cold Brew Coffee');
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(a, 'This item was changed by someone else');
    await seeText(a.locator('.conflict-list'), '$5.25');
    await screenshot(a, 'edit-conflict');

    // Reload takes their version.
    await a.getByRole('button', { name: 'Reload their version' }).click();
    expect(await a.getByLabel('Unit Price ($)').inputValue()).toBe('5.25');
    expect(await a.getByLabel('Name', { exact: true }).inputValue()).toBe('Cold Brew');

    // A second race, this time overwritten with mine.
    await a.getByLabel('Name', { exact: true }).fill('Cold Brew Coffee');
    await b.goto(editUrl);
    await b.getByLabel('Stock Threshold').fill('2');
    await b.getByRole('button', { name: 'Save Changes' }).click();
    await b.waitForURL(`**${itemUrl}`);
    await a.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(a, 'This item was changed by someone else');
    await a.getByRole('button', { name: 'Overwrite with my changes' }).click();
    await a.waitForURL(`**${itemUrl}`);
    await a.getByRole('heading', { name: 'Cold Brew Coffee' }).waitFor();
    // The other context's item page follows live.
    await b.getByRole('heading', { name: 'Cold Brew Coffee' }).waitFor({ timeout: 5_000 });
  }, 90_000);

  it('deletes an item after the confirmation', async () => {
    await a.goto(categoryUrl);
    await a.getByRole('button', { name: 'Delete Cold Brew Coffee' }).click();
    const confirm = a.getByRole('dialog', { name: 'Delete item' });
    await seeText(confirm, 'Are you sure you want to delete "Cold Brew Coffee"?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await seeText(a, 'This category is empty.');
    await a.goto(itemUrl);
    await seeText(a, 'Item Not Found');
    await seeText(a, "The inventory item you're looking for doesn't exist or has been removed.");
  }, 60_000);

  it('adds an item on the full-page form and lands on its page', async () => {
    await a.goto('/inventory/add');
    await a.getByRole('heading', { name: 'Add New Item' }).waitFor();
    await a.getByRole('button', { name: 'Add Item' }).click();
    // The message sits at the first empty required input, which takes focus.
    await seeText(a, 'Please fill in all required fields');
    expect(await a.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await a.getByLabel('Name', { exact: true }).fill('Green Tea');
    await a.getByLabel('SKU').fill('BEV-002');
    await a.getByLabel('Category').selectOption({ label: 'Beverages' });
    await a.getByLabel('Quantity').fill('20');
    await a.getByLabel('Stock Threshold').fill('5');
    await a.getByLabel('Unit Price ($)').fill('2.75');
    await a.getByLabel('Expiry Date').fill('2031-01-31');
    await a.getByRole('button', { name: 'Add Item' }).click();
    await a.getByRole('heading', { name: 'Green Tea' }).waitFor();
    expect(new URL(a.url()).pathname).toMatch(/^\/inventory\/[^/]+$/);
    await seeText(a, 'Jan 31, 2031');
    await seeText(a, '$55.00'); // total value: 20 x $2.75
  }, 60_000);

  it('pages a category 12 items at a time, sorts by name, price and stock, and searches', async () => {
    const token = (await signIn(manager.email, manager.password)).idToken;
    const category = await server.api<Category>('POST', '/categories', token, { name: 'Stationery' });
    for (let i = 1; i <= 13; i++) {
      await server.api('POST', '/inventory', token, {
        name: `Pen ${String(i).padStart(2, '0')}`,
        description: i === 7 ? 'Fountain pen, refillable' : 'Ballpoint',
        sku: `ST-${i}`,
        category_id: category.id,
        quantity: 100 - i,
        price: i,
        threshold: 5,
      });
    }
    await a.goto(`/inventory/category/${category.id}`);
    await seeText(a, '13 items');
    const names = () => a.locator('.item-card-name').allTextContents();
    expect(await names()).toHaveLength(12);
    expect((await names())[0]).toBe('Pen 01');
    await a.getByRole('button', { name: 'Page 2' }).click();
    await a.waitForFunction(() => document.querySelectorAll('.item-card-name').length === 1);
    expect(await names()).toEqual(['Pen 13']);
    expect(await a.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    await a.getByRole('button', { name: 'Sort by Price' }).click();
    await a.waitForFunction(() => document.querySelectorAll('.item-card-name').length === 12);
    expect((await names())[0]).toBe('Pen 01');
    await a.getByRole('button', { name: 'Sort by Price, ascending' }).click();
    await a.waitForFunction(() => document.querySelector('.item-card-name')?.textContent === 'Pen 13');
    await a.getByRole('button', { name: 'Sort by Stock' }).click();
    await a.waitForFunction(() => document.querySelector('.item-card-name')?.textContent === 'Pen 13');

    await a.getByRole('searchbox', { name: 'Search this category' }).fill('fountain');
    await a.waitForFunction(() => document.querySelectorAll('.item-card-name').length === 1);
    expect(await names()).toEqual(['Pen 07']);
    await a.getByRole('searchbox', { name: 'Search this category' }).fill('nothing like this');
    await seeText(a, 'No items match your search criteria.');
  }, 90_000);

  it('shows Page Not Found for an unknown route and Category Not Found for an unknown category', async () => {
    await a.goto('/no-such-page');
    await seeText(a, 'Page Not Found');
    await a.getByRole('link', { name: 'Back to Dashboard' }).waitFor();
    await a.goto('/inventory/category/00000000-0000-0000-0000-000000000000');
    await seeText(a, 'Category Not Found');
    await a.getByRole('link', { name: 'Return to Inventory' }).waitFor();
  }, 30_000);

  it('keeps the chosen theme across a reload', async () => {
    await a.goto('/inventory');
    const start = await a.evaluate(() => document.documentElement.className);
    const target = start.includes('dark') ? 'light' : 'dark';
    const other = target === 'dark' ? 'light' : 'dark';
    await a.getByRole('button', { name: `Switch to ${target} theme` }).click();
    // The root carries the class the click chose, and not the one it left.
    const classes = await a.evaluate(() => [...document.documentElement.classList]);
    expect(classes).toContain(target);
    expect(classes).not.toContain(other);
    expect(await a.evaluate(() => localStorage.getItem('theme'))).toBe(target);
    await a.reload();
    await a.getByRole('heading', { name: 'Inventory' }).waitFor();
    expect(await a.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(target === 'dark');
    expect(errorsA).toEqual([]);
  }, 30_000);
});
