// End to end in Chromium, the gaps issue 11 found against the spec: not-found screens for
// any bad id; managers renaming and deleting categories (and told what to do with one that
// still holds items); add forms starting at the store's Default Low-Stock Threshold; the
// Permissions tab for managers only; Appearance showing Light in a fresh browser; a custom
// role's own name in the user menu; 'N items' plurals; the Revenue Forecast card; prices
// with more than two decimals refused with a message that says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn, type OpenPage } from './part2-support.js';

/** The text of the category card that links to the named category. */
const categoryCard = (page: Page, name: string) =>
  page.getByTestId('category-card').filter({ has: page.getByRole('link', { name: new RegExp(`^${name}\\b`) }) });

async function cardText(page: Page, name: string): Promise<string> {
  const card = categoryCard(page, name);
  await card.waitFor();
  return (await card.textContent()) ?? '';
}

async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.toast').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
}

describe('spec gaps (issue 11)', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let auditor: TestAccount;
  let admin: OpenPage;
  let staffPage: OpenPage;
  let drinks: Category;
  let snacks: Category;
  let seasonal: Category;
  let coffee: Item;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Greta Gaps');
    staff = await apiAccount(server, 'Stu Staff');
    auditor = await apiAccount(server, 'Ada Auditor');
    const role = await server.api<{ id: string }>('POST', '/roles', manager.idToken, {
      name: 'Stock Auditor',
      description: 'Counts stock and reads reports',
      permissions: ['inventory:view', 'reports:view'],
    });
    await server.api('PUT', `/users/${auditor.uid}/role`, manager.idToken, { role: role.id });

    drinks = await addCategory(server, manager.idToken, 'Drinks');
    snacks = await addCategory(server, manager.idToken, 'Snacks');
    seasonal = await addCategory(server, manager.idToken, 'Seasonal');
    coffee = await addItem(server, manager.idToken, drinks, { name: 'Cold Brew', quantity: 20, threshold: 3, price: 3.5 });
    await addItem(server, manager.idToken, snacks, { name: 'Pretzels', quantity: 12, threshold: 2, price: 2 });
    await addItem(server, manager.idToken, snacks, { name: 'Crackers', quantity: 8, threshold: 2, price: 2.25 });
    // Two sales of $3.50 today, in a store whose first stock arrived today.
    await adjust(server, manager.idToken, coffee, -2, 'sale');
    await server.api('PUT', '/settings', manager.idToken, { lowStockThreshold: 7 });

    // Nothing stored in either browser: no theme, nothing else.
    [admin, staffPage] = await Promise.all([openPage(browser, server), openPage(browser, server)]);
    await signIn(admin.page, manager.email!, manager.password!);
    await signIn(staffPage.page, staff.email!, staff.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows a fresh browser's Appearance tab set to Light", async () => {
    const page = staffPage.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByRole('radio', { name: /Light/ }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(await page.getByRole('radio', { name: /Light/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /System/ }).isChecked()).toBe(false);
    await screenshot(page, 'spec-gaps-appearance-fresh');
    // Choosing System is remembered as such, and is not the same as no choice.
    await page.getByRole('radio', { name: /System/ }).check();
    await page.reload();
    await page.getByRole('tab', { name: 'Appearance' }).click();
    expect(await page.getByRole('radio', { name: /System/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /Light/ }).check();
  }, 60_000);

  it('gives staff no Permissions tab, and managers the note above the permission matrix', async () => {
    await staffPage.page.goto('/settings');
    await staffPage.page.getByRole('tab', { name: 'General' }).waitFor();
    expect(await staffPage.page.getByRole('tab').allTextContents()).toEqual(['General', 'Notifications', 'Appearance']);

    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const panel = page.getByRole('tabpanel');
    await seeText(panel, 'These settings can only be modified by store managers.');
    await panel.getByRole('table', { name: 'Permissions of each role' }).waitFor();
    expect(await panel.getByRole('columnheader').allTextContents()).toContain('Stock Auditor');
    await screenshot(page, 'spec-gaps-permissions-manager');
  }, 60_000);

  it('shows the not-found states for malformed ids: Item Not Found, Category Not Found, and the edit page back to /inventory', async () => {
    const page = admin.page;
    await page.goto('/inventory/abc');
    await page.getByRole('heading', { name: 'Item Not Found' }).waitFor({ timeout: 15_000 });
    await seeText(page, "The inventory item you're looking for doesn't exist or has been removed.");
    expect(await page.getByText('Failed to load inventory data').count()).toBe(0);
    expect(await page.getByText(/must match format/).count()).toBe(0);
    await screenshot(page, 'spec-gaps-item-not-found');
    await page.getByRole('main').getByRole('link', { name: 'Back to Inventory' }).click();
    await page.waitForURL((url) => url.pathname === '/inventory');

    await page.goto('/inventory/category/foo');
    await page.getByRole('heading', { name: 'Category Not Found' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('Failed to load inventory data').count()).toBe(0);
    await screenshot(page, 'spec-gaps-category-not-found');
    await page.getByRole('link', { name: 'Return to Inventory' }).click();
    await page.waitForURL((url) => url.pathname === '/inventory');

    await page.goto('/inventory/abc/edit');
    await page.waitForURL((url) => url.pathname === '/inventory', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Inventory', exact: true }).waitFor();
  }, 60_000);

  it("says 'N items' with the right plural on category cards", async () => {
    const page = admin.page;
    await page.goto('/inventory');
    expect(await cardText(page, 'Drinks')).toContain('1 item');
    expect(await cardText(page, 'Drinks')).not.toContain('1 items');
    expect(await cardText(page, 'Snacks')).toContain('2 items');
    // Managers also see the empty categories (the spec's grid leaves them out).
    const empty = page.getByRole('region', { name: 'Empty categories' });
    await seeText(empty, 'Seasonal');
    await seeText(empty, '0 items');
    // Staff see only the spec's grid, and no category menus.
    await staffPage.page.goto('/inventory');
    await staffPage.page.getByTestId('category-card').first().waitFor();
    expect(await staffPage.page.getByTestId('category-card').count()).toBe(2);
    expect(await staffPage.page.getByRole('button', { name: /^Actions for/ }).count()).toBe(0);
  }, 60_000);

  it('lets a manager rename a category from its page, with the toast on a refused name', async () => {
    const page = admin.page;
    await page.goto(`/inventory/category/${drinks.id}`);
    await page.getByRole('heading', { name: 'Drinks' }).waitFor();
    await page.getByRole('button', { name: 'Edit category' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Category' });
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Drinks');

    // A name another category has is refused: the reason in the dialog, the spec's toast.
    await dialog.getByLabel('Name', { exact: true }).fill('snacks');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Failed to update category');
    // The reason sits under the Name input it is about (issue 31, item 8).
    await seeText(dialog, 'Category already exists');
    expect(await dialog.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Name', { exact: true }).fill('Cold Drinks');
    await dialog.getByLabel(/Description/).fill('Chilled and ready');
    await screenshot(page, 'spec-gaps-edit-category');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await toast(page, 'Category "Cold Drinks" updated');
    await page.getByRole('heading', { name: 'Cold Drinks' }).waitFor();
    await seeText(page, 'Chilled and ready');
    // Its items follow the new name.
    await page.goto(`/inventory/${coffee.id}`);
    await seeText(page.getByRole('main'), 'Cold Drinks');
    // Staff get neither button on the category page.
    await staffPage.page.goto(`/inventory/category/${drinks.id}`);
    await staffPage.page.getByRole('heading', { name: 'Cold Drinks' }).waitFor();
    expect(await staffPage.page.getByRole('button', { name: /category$/ }).count()).toBe(0);
  }, 60_000);

  it("deletes an empty category from its card's menu after the spec's confirmation", async () => {
    const page = admin.page;
    await page.goto('/inventory');
    // A failed delete says so with the spec's toast, and nothing is gone.
    await page.route('**/api/categories/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Refused for the test"}' }) : route.fallback(),
    );
    await page.getByRole('button', { name: 'Actions for Seasonal' }).click();
    await screenshot(page, 'spec-gaps-category-menu');
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Category' });
    await seeText(dialog, 'Are you sure you want to delete "Seasonal"?');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, 'Failed to delete category');
    await seeText(dialog, 'Failed to delete category: Refused for the test');
    await page.unroute('**/api/categories/*');

    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await toast(page, 'Category "Seasonal" deleted');
    await page.getByRole('region', { name: 'Empty categories' }).waitFor({ state: 'detached' });
    await page.goto(`/inventory/category/${seasonal.id}`);
    await page.getByRole('heading', { name: 'Category Not Found' }).waitFor();
  }, 60_000);

  it('tells a manager a category with items cannot go yet, and moves its items to another before deleting it', async () => {
    const page = admin.page;
    await page.goto(`/inventory/category/${snacks.id}`);
    await page.getByRole('heading', { name: 'Snacks' }).waitFor();
    await page.getByRole('button', { name: 'Delete category' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Category' });
    await seeText(dialog, '"Snacks" still has 2 items. Only an empty category can be deleted: move its items to another category first.');
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    const move = dialog.getByRole('button', { name: 'Move 2 items and delete' });
    expect(await move.isDisabled()).toBe(true);
    await dialog.getByLabel('Move items to').selectOption({ label: 'Cold Drinks' });
    await screenshot(page, 'spec-gaps-delete-category-not-empty');
    await move.click();
    await page.waitForURL((url) => url.pathname === '/inventory', { timeout: 20_000 });
    await toast(page, 'Moved 2 items to "Cold Drinks" and deleted "Snacks"');
    await seeText(categoryCard(page, 'Cold Drinks'), '3 items');
    await page.getByRole('link', { name: /^Snacks\b/ }).waitFor({ state: 'detached' });
  }, 60_000);

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
    await screenshot(page, 'spec-gaps-wizard-threshold');
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
    await screenshot(page, 'spec-gaps-price-decimals');
    await page.getByLabel('Unit Price ($)').fill('1.99');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await page.waitForURL(/\/inventory\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await seeText(page, '$1.99');
  }, 60_000);

  it('keeps the Revenue Forecast title, with no forecast from a store a day old', async () => {
    const page = admin.page;
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Revenue Forecast' });
    await card.waitFor({ timeout: 15_000 });
    await seeText(card.getByTestId('revenue-value'), '$7.00');
    // A store one day old: too little to project a month from (issue 31, item 10).
    await seeText(card.getByTestId('revenue-forecast'), 'No forecast yet');
    await seeText(card, "A forecast needs 7 days of sales; today is the store's first.");
    await screenshot(page, 'spec-gaps-revenue-forecast');
  }, 60_000);

  it("shows a custom role's own name in the user menu", async () => {
    const auditorPage = await openPage(browser, server);
    await signIn(auditorPage.page, auditor.email!, auditor.password!);
    await auditorPage.page.getByRole('button', { name: /Account menu/ }).click();
    const badge = auditorPage.page.locator('.user-menu-panel .badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('Stock Auditor');
    await screenshot(auditorPage.page, 'spec-gaps-user-menu-custom-role');
    await auditorPage.context.close();
  }, 60_000);

  it("says 'Saved copy' in the header while a screen shows the service worker's saved copy, and 'Online' once the server answers", async () => {
    const page = staffPage.page;
    const indicator = page.locator('.live-indicator');
    await page.goto(`/inventory/category/${drinks.id}`);
    await seeText(page, 'Cold Brew');
    await expect.poll(() => indicator.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Live updates: Online');
    // Every read comes back as the service worker marks a copy from its cache (the header
    // follows the latest answer: a fresh one from any screen part clears it).
    const marked = '**/api/**';
    await page.route(marked, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'x-stockroom-saved-copy': '1' } });
    });
    await page.reload();
    await seeText(page, 'Cold Brew');
    await expect.poll(() => indicator.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Live updates: Saved copy');
    expect(await indicator.getAttribute('title')).toContain('shows a copy saved on this device');
    await screenshot(page, 'spec-gaps-saved-copy');
    // The server answers again: the screen's next read (every 5 s) brings the header back to Online.
    await page.unroute(marked);
    await expect.poll(() => indicator.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
  }, 60_000);
});
