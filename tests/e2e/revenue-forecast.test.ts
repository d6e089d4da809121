// End to end in Chromium: the dashboard's Revenue Forecast card in a store whose first
// stock arrived today shows the revenue so far under its usual title, and instead of a
// forecast says that one needs 7 days of sales.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('revenue forecast of a new store', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Fern Forecast');
    const drinks = await addCategory(server, manager.idToken, 'Drinks');
    const coffee = await addItem(server, manager.idToken, drinks, {
      name: 'Cold Brew',
      quantity: 20,
      threshold: 3,
      price: 3.5,
    });
    // Two sales of $3.50 today, in a store whose first stock arrived today.
    await adjust(server, manager.idToken, coffee, -2, 'sale');
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps the Revenue Forecast title, with no forecast from a store a day old', async () => {
    const page = admin.page;
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Revenue Forecast' });
    await card.waitFor({ timeout: 15_000 });
    await seeText(card.getByTestId('revenue-value'), '$7.00');
    // A store one day old: too little to project a month from.
    await seeText(card.getByTestId('revenue-forecast'), 'No forecast yet');
    await seeText(card, "A forecast needs 7 days of sales; today is the store's first.");
    await screenshot(page, 'revenue-forecast-first-day');
  }, 60_000);
});
