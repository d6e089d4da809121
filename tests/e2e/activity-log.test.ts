// End to end in Chromium: the Activity Log over more entries than one page: newest first,
// more pages on scroll, server-side search, the action filter and Reset, sorting by
// Timestamp, User and Action (aria-sort follows), new entries arriving live on top,
// 'No activity logs found', Export CSV downloading what the filters select, and the site and
// location filter (a move under its ends; no Revert on a location's own change).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn, type OpenPage } from './shared-steps.js';

const rows = (page: Page) => page.getByTestId('activity-row');
const cell = (page: Page, row: number, column: number) => rows(page).nth(row).locator('td').nth(column);
/** The Details column's text, without the Revert button beside it. */
const details = (page: Page, row: number) => rows(page).nth(row).locator('.activity-details-text');

describe('activity log', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let widget: Item;
  let gadget: Item;
  let open: OpenPage;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Lena Ledger');
    staff = await apiAccount(server, 'Abe Adjuster');
    const tools = await addCategory(server, manager.idToken, 'Tools');
    widget = await addItem(server, manager.idToken, tools, { name: 'Widget', quantity: 500, threshold: 5, price: 1 });
    gadget = await addItem(server, manager.idToken, tools, { name: 'Gadget', quantity: 10, threshold: 1, price: 2 });
    // 120 updates by staff: more than two pages of 50.
    for (let i = 0; i < 120; i++) await adjust(server, staff.idToken, widget, -1, 'sale');
    await server.api('DELETE', `/inventory/${gadget.id}`, manager.idToken);
    open = await openPage(browser, server);
    page = open.page;
    await signIn(page, manager.email!, manager.password!);
    await page.goto('/activity');
    await rows(page).first().waitFor();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts newest first and loads more pages as the end comes into view', async () => {
    expect(await rows(page).count()).toBe(50);
    expect(await details(page, 0).textContent()).toBe(`Deleted Gadget (SKU ${gadget.sku}), by Lena Ledger`);
    expect(await page.getByRole('columnheader', { name: 'Timestamp' }).getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length >= 100, null, {
      timeout: 10_000,
    });
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    // 1 category + 2 items + 120 updates + 1 delete.
    await seeText(page, '124 entries · that is everything');
    expect(await details(page, 123).textContent()).toBe('Created category Tools, by Lena Ledger');
  }, 60_000);

  it('searches on the server, filters by action and resets', async () => {
    await page.getByLabel('Search activity').fill('gadget');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 2, null, {
      timeout: 10_000,
    });
    expect(await rows(page).locator('.activity-details-text').allTextContents()).toEqual([
      `Deleted Gadget (SKU ${gadget.sku}), by Lena Ledger`,
      'Created Gadget in Tools: 10 in stock, price $2.00, threshold 1, by Lena Ledger',
    ]);

    await page.getByLabel('Filter by action').selectOption({ label: 'Created' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 1, null, {
      timeout: 10_000,
    });
    expect(await cell(page, 0, 2).textContent()).toBe('Created');

    await page.getByLabel('Search activity').fill('zzz-nothing');
    await seeText(page, 'No activity logs found');

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 50, null, {
      timeout: 10_000,
    });
    expect(await page.getByLabel('Search activity').inputValue()).toBe('');
    expect(await page.getByLabel('Filter by action').inputValue()).toBe('all');
    expect(await page.getByLabel('Filter by action').locator('option').allTextContents()).toEqual([
      'All Activities',
      'Created',
      'Updated',
      'Deleted',
    ]);
  }, 60_000);

  it('sorts by User and Action, toggling the order on a second click', async () => {
    const userHeader = page.getByRole('columnheader', { name: 'User' });
    await userHeader.getByRole('button').click();
    await page.waitForFunction(
      () => document.querySelector('th[aria-sort="ascending"]')?.textContent?.includes('User'),
      null,
      { timeout: 10_000 },
    );
    await seeText(cell(page, 0, 1), 'Abe Adjuster');
    await userHeader.getByRole('button').click();
    await page.waitForFunction(
      () => document.querySelector('th[aria-sort="descending"]')?.textContent?.includes('User'),
      null,
      { timeout: 10_000 },
    );
    await seeText(cell(page, 0, 1), 'Lena Ledger');
    expect(await page.getByRole('columnheader', { name: 'Timestamp' }).getAttribute('aria-sort')).toBe('none');

    await page.getByRole('columnheader', { name: 'Action' }).getByRole('button').click();
    await page.waitForFunction(
      () => document.querySelector('th[aria-sort="ascending"]')?.textContent?.includes('Action'),
      null,
      { timeout: 10_000 },
    );
    await seeText(cell(page, 0, 2), 'Created');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForFunction(
      () => document.querySelector('th[aria-sort="descending"]')?.textContent?.includes('Timestamp'),
      null,
      { timeout: 10_000 },
    );
  }, 60_000);

  it('puts new entries on top as they happen', async () => {
    await page.waitForTimeout(500);
    await server.api('PUT', `/inventory/${widget.id}`, manager.idToken, { name: 'Widget Pro' });
    await cell(page, 0, 3)
      .getByText('Edited Widget Pro: Name Widget → Widget Pro, by Lena Ledger')
      .waitFor({ timeout: 5_000 });
    expect(await cell(page, 0, 1).textContent()).toBe('Lena Ledger');
    expect(await rows(page).count()).toBe(51);
  }, 60_000);

  it('exports the filtered log as CSV', async () => {
    await page.getByLabel('Filter by action').selectOption({ label: 'Deleted' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 1, null, {
      timeout: 10_000,
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^activity-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('timestamp,userName,userId,action,resourceType,resourceId,resourceName,details,id');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"Deleted Gadget (SKU ${gadget.sku}), by Lena Ledger"`);
    await seeText(page, 'Activity log exported');
    expect(open.errors).toEqual([]);
  }, 60_000);

  it('filters by site and location: a move is under its ends, and a location change has no Revert', async () => {
    const back = await server.api('POST', '/locations', manager.idToken, {
      site_id: MAIN_SITE_ID,
      name: 'Back room',
      code: 'BR',
    });
    await server.api('POST', '/moves', staff.idToken, {
      itemId: widget.id,
      fromLocationId: MAIN_LOCATION_ID,
      toLocationId: back.id,
      quantity: 5,
    });
    // The selects list the places there are when the page opens.
    await page.goto('/activity');
    await rows(page).first().waitFor();
    await page.getByLabel('Filter by site').selectOption({ label: 'Main store' });
    await page.getByLabel('Filter by location').selectOption({ label: 'Back room · BR' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 2, null, {
      timeout: 10_000,
    });
    expect(await details(page, 0).textContent()).toBe(
      'Moved 5 Widget Pro from Main location to Back room, by Abe Adjuster',
    );
    expect(await details(page, 1).textContent()).toMatch(/^Created location Back room \(BR\)/);
    expect(
      await rows(page)
        .nth(0)
        .getByRole('button', { name: /^Revert/ })
        .count(),
    ).toBe(1);
    expect(
      await rows(page)
        .nth(1)
        .getByRole('button', { name: /^Revert/ })
        .count(),
    ).toBe(0);
    await screenshot(page, 'activity-place-filter');
    // The other end has the move too, and the sales made there before, not the location's creation.
    await page.getByLabel('Filter by location').selectOption({ label: 'Main location · MAIN' });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="activity-row"]').length === 50, null, {
      timeout: 10_000,
    });
    expect(await details(page, 0).textContent()).toBe(
      'Moved 5 Widget Pro from Main location to Back room, by Abe Adjuster',
    );
    expect(await details(page, 1).textContent()).toMatch(/^-1 \(sale\) Widget at Main location, by Abe Adjuster/);
    expect(open.errors).toEqual([]);
  }, 60_000);
});
