// End to end in Chromium: an address with an id that is not even well formed shows the
// same not-found screens as a missing one (Item Not Found, Category Not Found, the edit page
// going back to /inventory), never a load failure or the server's validation text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('not-found screens for malformed ids', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Nora Nowhere');
    const drinks = await addCategory(server, manager.idToken, 'Drinks');
    await addItem(server, manager.idToken, drinks, { name: 'Cold Brew', quantity: 20, threshold: 3, price: 3.5 });
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the not-found states for malformed ids: Item Not Found, Category Not Found, and the edit page back to /inventory', async () => {
    const page = admin.page;
    await page.goto('/inventory/abc');
    await page.getByRole('heading', { name: 'Item Not Found' }).waitFor({ timeout: 15_000 });
    await seeText(page, "The inventory item you're looking for doesn't exist or has been removed.");
    expect(await page.getByText('Failed to load inventory data').count()).toBe(0);
    expect(await page.getByText(/must match format/).count()).toBe(0);
    await screenshot(page, 'item-not-found-malformed-id');
    await page.getByRole('main').getByRole('link', { name: 'Back to Inventory' }).click();
    await page.waitForURL((url) => url.pathname === '/inventory');

    await page.goto('/inventory/category/foo');
    await page.getByRole('heading', { name: 'Category Not Found' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('Failed to load inventory data').count()).toBe(0);
    await screenshot(page, 'category-not-found-malformed-id');
    await page.getByRole('link', { name: 'Return to Inventory' }).click();
    await page.waitForURL((url) => url.pathname === '/inventory');

    await page.goto('/inventory/abc/edit');
    await page.waitForURL((url) => url.pathname === '/inventory', { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Inventory', exact: true }).waitFor();
  }, 60_000);
});
