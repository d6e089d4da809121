// End to end in Chromium: while a screen shows reads the service worker answered from its
// cache, the header's live indicator says 'Saved copy' (and why in its title), and it says
// 'Online' again once the server answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe("the header's saved copy indicator", BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let staffPage: OpenPage;
  let drinks: Category;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    const manager = await apiAccount(server, 'Sasha Saved');
    const staff = await apiAccount(server, 'Stu Staff');
    drinks = await addCategory(server, manager.idToken, 'Drinks');
    await addItem(server, manager.idToken, drinks, { name: 'Cold Brew', quantity: 20, threshold: 3, price: 3.5 });
    staffPage = await openPage(browser, server);
    await signIn(staffPage.page, staff.email!, staff.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

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
    await screenshot(page, 'header-saved-copy');
    // The server answers again: the screen's next read (every 5 s) brings the header back to Online.
    await page.unroute(marked);
    await expect.poll(() => indicator.getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
  }, 60_000);
});
