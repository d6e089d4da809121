// End to end in Chromium: category cards say 'N items' with the right plural, and managers
// also see the empty categories; a manager renames a category from its page (a name another
// category has is refused, with the reason under the input); an empty category is deleted
// from its card's menu after a confirmation, and a category that still holds items is only
// deleted once its items are moved to another. Staff get none of these buttons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

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

describe('renaming and deleting categories', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let admin: OpenPage;
  let staffPage: OpenPage;
  let drinks: Category;
  let snacks: Category;
  let seasonal: Category;
  let coffee: Item;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Cleo Categories');
    staff = await apiAccount(server, 'Stu Staff');
    drinks = await addCategory(server, manager.idToken, 'Drinks');
    snacks = await addCategory(server, manager.idToken, 'Snacks');
    seasonal = await addCategory(server, manager.idToken, 'Seasonal');
    coffee = await addItem(server, manager.idToken, drinks, {
      name: 'Cold Brew',
      quantity: 20,
      threshold: 3,
      price: 3.5,
    });
    await addItem(server, manager.idToken, snacks, { name: 'Pretzels', quantity: 12, threshold: 2, price: 2 });
    await addItem(server, manager.idToken, snacks, { name: 'Crackers', quantity: 8, threshold: 2, price: 2.25 });
    [admin, staffPage] = await Promise.all([openPage(browser, server), openPage(browser, server)]);
    await signIn(admin.page, manager.email!, manager.password!);
    await signIn(staffPage.page, staff.email!, staff.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("says 'N items' with the right plural on category cards", async () => {
    const page = admin.page;
    await page.goto('/inventory');
    expect(await cardText(page, 'Drinks')).toContain('1 item');
    expect(await cardText(page, 'Drinks')).not.toContain('1 items');
    expect(await cardText(page, 'Snacks')).toContain('2 items');
    // Managers also see the empty categories, apart from the grid (which leaves them out).
    const empty = page.getByRole('region', { name: 'Empty categories' });
    await seeText(empty, 'Seasonal');
    await seeText(empty, '0 items');
    // Staff, who cannot delete them, see only the grid, and no category menus.
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

    // A name another category has is refused: the reason in the dialog, and a toast.
    await dialog.getByLabel('Name', { exact: true }).fill('snacks');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Failed to update category');
    // The reason sits under the Name input it is about, where the user is looking.
    await seeText(dialog, 'Category already exists');
    expect(await dialog.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel('Name', { exact: true }).fill('Cold Drinks');
    await dialog.getByLabel(/Description/).fill('Chilled and ready');
    await screenshot(page, 'category-edit');
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

  it("deletes an empty category from its card's menu after a confirmation", async () => {
    const page = admin.page;
    await page.goto('/inventory');
    // A failed delete says so with a toast, and nothing is gone.
    await page.route('**/api/categories/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Refused for the test"}' })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Actions for Seasonal' }).click();
    await screenshot(page, 'category-menu');
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
    await seeText(
      dialog,
      '"Snacks" still has 2 items. Only an empty category can be deleted: move its items to another category first.',
    );
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    const move = dialog.getByRole('button', { name: 'Move 2 items and delete' });
    expect(await move.isDisabled()).toBe(true);
    await dialog.getByLabel('Move items to').selectOption({ label: 'Cold Drinks' });
    await screenshot(page, 'category-delete-not-empty');
    await move.click();
    await page.waitForURL((url) => url.pathname === '/inventory', { timeout: 20_000 });
    await toast(page, 'Moved 2 items to "Cold Drinks" and deleted "Snacks"');
    await seeText(categoryCard(page, 'Cold Drinks'), '3 items');
    await page.getByRole('link', { name: /^Snacks\b/ }).waitFor({ state: 'detached' });
  }, 60_000);
});
