// End to end in Chromium: a manager chooses euros written for France in
// Settings; the Inventory screens, the dashboard, the wall display and printed labels then
// show euro amounts (12,50 €), a staff member's open category page too, live, without a
// reload; and a returning user's first screen starts in euros.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

/** What Intl writes between a French amount and its € sign, and between its thousands. */
const NBSP = '\u00a0';
const NNBSP = '\u202f';
const euros = (text: string) => text.replace(/ /g, NBSP);

describe('store currency', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let drinks: Category;
  let coldBrew: Item;
  let managerPage: OpenPage;
  let staffPage: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    staff = await apiAccount(server, 'Stan Staff');
    drinks = await addCategory(server, manager.idToken, 'Drinks');
    coldBrew = await addItem(server, manager.idToken, drinks, {
      name: 'Cold Brew',
      quantity: 6,
      threshold: 5,
      price: 4.5,
    });
    await addItem(server, manager.idToken, drinks, {
      name: 'Sparkling Water',
      quantity: 1000,
      threshold: 3,
      price: 1.25,
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts in dollars: a store that never chose keeps what it showed', async () => {
    staffPage = await openPage(browser, server);
    await signIn(staffPage.page, staff.email!, staff.password!);
    await staffPage.page.goto(`/inventory/category/${drinks.id}`);
    await seeText(staffPage.page, '$4.50');
    await seeText(staffPage.page, '$1.25');
  }, 90_000);

  it('a manager chooses EUR written for fr-FR in Settings, with a sample price that reads as it will', async () => {
    managerPage = await openPage(browser, server);
    const { page } = managerPage;
    await signIn(page, manager.email!, manager.password!);
    await page.goto('/settings');
    await expect.poll(() => page.getByTestId('money-sample').textContent(), { timeout: 15_000 }).toBe('$1,234.50');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Number Format').selectOption('fr-FR');
    expect(await page.getByTestId('money-sample').textContent()).toBe(`1${NNBSP}234,50${NBSP}€`);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(page, 'Settings saved');
    expect(await server.api('GET', '/settings', manager.idToken)).toMatchObject({ currency: 'EUR', locale: 'fr-FR' });
  }, 90_000);

  it("shows euros on the staff member's open category page at once, live", async () => {
    await seeText(staffPage.page, euros('4,50 €'));
    await seeText(staffPage.page, euros('1,25 €'));
    expect(await staffPage.page.getByText('$4.50').count()).toBe(0);
  }, 60_000);

  it('shows euros on the item page, the search results and the add form', async () => {
    const { page } = managerPage;
    await page.goto(`/inventory/${coldBrew.id}`);
    const details = page.getByRole('main');
    await seeText(details, euros('4,50 €'));
    // Total value: 6 x 4.50.
    await seeText(details, euros('27,00 €'));
    await page.goto('/inventory');
    await page.getByRole('searchbox', { name: 'Search items' }).fill('cold brew');
    await seeText(page.locator('.search-price'), euros('4,50 €'));
    await page.goto(`/inventory/add?category=${drinks.id}`);
    await page.getByLabel('Unit Price (€)').first().waitFor();
  }, 60_000);

  it('shows euros on the dashboard and the wall display, as the server says', async () => {
    const { page } = managerPage;
    await page.goto('/dashboard');
    // 6 x 4.50 + 1000 x 1.25 = 1,277: whole euros.
    await expect
      .poll(() => page.getByTestId('stat-total-value').textContent(), { timeout: 15_000 })
      .toBe(`1${NNBSP}277${NBSP}€`);
    expect(await page.getByTestId('revenue-value').textContent()).toBe(euros('0,00 €'));

    const display = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    await display.page.goto('/display');
    await display.page.waitForURL('**/login');
    await signIn(display.page, manager.email!, manager.password!, '**/display');
    const category = display.page.getByTestId('display-category').filter({ hasText: 'Drinks' });
    await seeText(category, `2 items · 1${NNBSP}277${NBSP}€`);
    expect([...managerPage.errors, ...staffPage.errors, ...display.errors]).toEqual([]);
    await display.context.close();
  }, 90_000);

  it('prints euro prices on labels', async () => {
    const { page } = managerPage;
    await page.goto(`/inventory/labels?category=${drinks.id}`);
    const preview = page.getByRole('region', { name: 'Preview' });
    await seeText(preview.locator('.label-price'), euros('4,50 €'));
    await seeText(preview.locator('.label-price'), euros('1,25 €'));
  }, 60_000);

  it("opens a returning user's first screen in euros, before any read of the settings", async () => {
    // A new tab of the same browser: the remembered format, while GET /api/settings is held back.
    const page = await staffPage.context.newPage();
    await page.route('**/api/settings', () => undefined);
    await page.goto(`/inventory/category/${drinks.id}`);
    await seeText(page, euros('4,50 €'));
    await page.close();
  }, 60_000);
});
