// End to end in Chromium: the dashboard's figures come from the server and follow a staff
// member's adjustment made in another browser context, live (the time it took is printed); so does the wall
// display (/display) in a third, full screen, with its clock, store name, categories,
// ticker and connection state; a guest can open the display after signing in as a guest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, daysFromNow, openPage, signIn, timed, type OpenPage } from './shared-steps.js';

describe('dashboard and wall display, live', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let drinks: Category;
  let coldBrew: Item;
  let tea: Item;
  let staffPage: OpenPage;
  let dashboard: OpenPage;
  let display: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager');
    staff = await apiAccount(server, 'Stan Staff');
    drinks = await addCategory(server, manager.idToken, 'Drinks');
    coldBrew = await addItem(server, manager.idToken, drinks, {
      name: 'Cold Brew',
      quantity: 6,
      threshold: 5,
      price: 4.5,
    });
    tea = await addItem(server, manager.idToken, drinks, {
      name: 'Green Tea',
      quantity: 20,
      threshold: 3,
      price: 2,
      expiry_date: daysFromNow(10),
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the figures the server computed', async () => {
    dashboard = await openPage(browser, server);
    await signIn(dashboard.page, manager.email!, manager.password!);
    const stat = (id: string) => dashboard.page.getByTestId(`stat-${id}`);
    await seeText(stat('total-items'), '2');
    expect(await stat('categories').textContent()).toBe('1');
    // 6 x 4.50 + 20 x 2.00, whole dollars.
    expect(await stat('total-value').textContent()).toBe('$67');
    expect(await stat('low-stock').textContent()).toBe('0');
    await seeText(dashboard.page, 'Expires in 10 days');
    await seeText(
      dashboard.page,
      'Created Green Tea in Drinks: 20 in stock, price $2.00, threshold 3, by Mona Manager',
    );
    await seeText(dashboard.page, 'No sales in the last 30 days');
    expect(await dashboard.page.getByRole('img', { name: /Stock value over the last 30 days/ }).count()).toBe(1);
    expect(dashboard.errors).toEqual([]);
  }, 90_000);

  it('follows a staff adjustment in another context, and the wall display too, live', async () => {
    display = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    await display.page.goto('/display');
    await display.page.waitForURL('**/login');
    await signIn(display.page, manager.email!, manager.password!, '**/display');
    await seeText(display.page, 'All stocked up');
    expect(await display.page.getByTestId('display-alert-count').textContent()).toBe('0');

    staffPage = await openPage(browser, server);
    await signIn(staffPage.page, staff.email!, staff.password!);
    await staffPage.page.goto(`/inventory/category/${drinks.id}`);
    await seeText(staffPage.page, '6 in stock');
    // Let every feed settle (a fresh connection refetches once).
    await Promise.all([dashboard.page, display.page, staffPage.page].map((p) => p.waitForTimeout(800)));

    /** From the click on '-' until both other screens show Cold Brew as low. */
    const goLow = async () => {
      const lowOnDashboard = dashboard.page
        .getByTestId('stat-low-stock')
        .getByText('1', { exact: true })
        .waitFor({ timeout: 5_000 });
      const lowOnDisplay = display.page.getByTestId('display-alert').getByText('Cold Brew').waitFor({ timeout: 5_000 });
      const click = staffPage.page.getByRole('button', { name: 'Decrease quantity of Cold Brew' }).click();
      const [dashboardMs, displayMs] = await Promise.all([timed(lowOnDashboard), timed(lowOnDisplay), click]);
      return Math.max(dashboardMs, displayMs);
    };
    // How long it took is printed, not asserted: speed targets live in `npm run bench realtime`
    // (commit-to-client latency), where a busy test machine cannot fail a run. Seen here: the
    // change arrives live, on both screens, with no reload (each wait gives up after 5 s).
    console.info(`dashboard and wall display showed the adjustment after ${await goLow()} ms`);
    expect(await display.page.getByTestId('display-alert-count').textContent()).toBe('1');
    await seeText(display.page.getByTestId('display-alert'), '5 left · alert at 5');
    // Value follows too: 5 x 4.50 + 40.
    await seeText(dashboard.page.getByTestId('stat-total-value'), '$63');
  }, 90_000);

  it('turns sales into revenue and top sellers, live', async () => {
    await adjust(server, staff.idToken, tea, -3, 'sale');
    await adjust(server, staff.idToken, coldBrew, -1, 'sale');
    await seeText(dashboard.page.getByTestId('revenue-value'), '$10.50');
    const top = dashboard.page.getByRole('region', { name: 'Top Selling Items' });
    await seeText(top, '3 sold');
    expect(await top.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Green Tea'),
      expect.stringContaining('Cold Brew'),
    ]);
    await seeText(dashboard.page, 'No sales in the previous 30 days');
  }, 60_000);

  it('fills the wall display: store name, clock, stock by category, ticker, live connection', async () => {
    const page = display.page;
    expect(await page.getByTestId('display-store-name').textContent()).toBe('My Store');
    expect(await page.getByTestId('display-connection').textContent()).toBe('Live');
    expect(await page.getByTestId('display-category-units').textContent()).toBe('21 units');
    await seeText(page.getByTestId('display-ticker'), '-1 (sale) Cold Brew, by Stan Staff');
    const before = await page.locator('.display-time').textContent();
    await page.waitForTimeout(1100);
    expect(await page.locator('.display-time').textContent()).not.toBe(before);
    // No dock, no app header on the wall.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await server.api('PUT', '/settings', manager.idToken, { storeName: 'Corner Shop' });
    await seeText(page.getByTestId('display-store-name'), 'Corner Shop');
    // Out of stock goes first.
    await adjust(server, staff.idToken, tea, -17, 'sale');
    await page.getByTestId('display-alert').first().getByText('OUT OF STOCK').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('display-alert').first().textContent()).toContain('Green Tea');
    expect(display.errors).toEqual([]);
  }, 60_000);

  it('opens for a guest who signs in as a guest', async () => {
    await server.api('PUT', '/settings', manager.idToken, { allowGuests: true }); // off by default
    const guest = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    await guest.page.goto('/display');
    await guest.page.waitForURL('**/login');
    await guest.page.getByRole('button', { name: 'Continue as guest' }).click();
    await guest.page.waitForURL('**/display', { timeout: 30_000 });
    await seeText(guest.page.getByTestId('display-alert').first(), 'Green Tea');
    expect(await guest.page.getByTestId('display-store-name').textContent()).toBe('Corner Shop');
    await guest.context.close();
  }, 60_000);
});
