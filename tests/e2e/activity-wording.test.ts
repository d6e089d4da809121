// End to end in Chromium: a sale made in the Adjust stock dialog by one
// person reads "-5 (sale) Crème fraîche 1 kg, by Sam Seller, note: table 4" on the wall
// display and in the activity log another person has open, live, the delta set apart; a
// sale sent through the API reads the same way, on the dashboard too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('what a sale says on screen', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let cream: Item;
  let log: OpenPage;
  let wall: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    staff = await apiAccount(server, 'Sam Seller');
    const dairy = await addCategory(server, manager.idToken, 'Dairy');
    cream = await addItem(server, manager.idToken, dairy, {
      name: 'Crème fraîche 1 kg',
      quantity: 20,
      threshold: 2,
      price: 4.5,
    });

    log = await openPage(browser, server);
    await signIn(log.page, manager.email!, manager.password!);
    await log.page.goto('/activity');
    await log.page.getByTestId('activity-row').first().waitFor();
    wall = await openPage(browser, server, { viewport: { width: 1920, height: 1080 } });
    await wall.page.goto('/display');
    await wall.page.waitForURL('**/login');
    await signIn(wall.page, manager.email!, manager.password!, '**/display');
    await wall.page.getByTestId('display-ticker').waitFor();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a sale made in the Adjust stock dialog on the wall and in the open log', async () => {
    const { page, context } = await openPage(browser, server);
    await signIn(page, staff.email!, staff.password!);
    await page.goto(`/inventory/${cream.id}`);
    await page.getByRole('button', { name: 'Adjust stock' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').selectOption('sale');
    await dialog.getByLabel('Quantity').fill('5');
    await dialog.getByLabel('Note').fill('table 4');
    await dialog.getByRole('button', { name: 'Save adjustment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();

    const sentence = '-5 (sale) Crème fraîche 1 kg, by Sam Seller, note: table 4';
    await seeText(wall.page.getByTestId('display-ticker'), sentence);
    const row = log.page.getByTestId('activity-row').first();
    await seeText(row, sentence);
    expect(await row.locator('.activity-details-text').textContent()).toBe(sentence);
    // The numbers and names stand out: the delta as a fall, the item, who, the note.
    expect(await row.locator('.sentence-delta-down').textContent()).toBe('-5');
    expect(await row.locator('.sentence-subject').textContent()).toBe('Crème fraîche 1 kg');
    expect(await row.locator('.sentence-note').textContent()).toBe('table 4');
    expect(await row.locator('td').nth(1).textContent()).toBe('Sam Seller');
  }, 90_000);

  it('shows a sale sent through the API the same way, on the dashboard too', async () => {
    await server.api('POST', `/inventory/${cream.id}/adjust`, staff.idToken, {
      delta: -2,
      reason: 'sale',
      note: 'walk-in',
    });
    const sentence = '-2 (sale) Crème fraîche 1 kg, by Sam Seller, note: walk-in';
    await seeText(wall.page.getByTestId('display-ticker'), sentence);
    await seeText(log.page.getByTestId('activity-row').first(), sentence);
    await log.page.goto('/dashboard');
    await seeText(log.page.getByRole('region', { name: 'Recent Activity' }), sentence);
    expect([...log.errors, ...wall.errors]).toEqual([]);
  }, 90_000);
});
