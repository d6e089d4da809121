// The stocktake review in Chromium: "Start a count" asks what to count and
// starts nothing until the manager chooses (two categories here, then the low-stock items);
// the manager's session page has the review above the count rows, sorted by size of
// variance and re-sortable by value; staff still see their count rows first; keeping a staff
// member's count ("Keep 6") leaves the count theirs on the session page, in the item's
// history and in the activity log, with the approval the manager's. Screenshots of the start
// dialog and the session page in both themes at desktop and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import type { StocktakeSession, StocktakeSummary } from '../../shared/stocktake.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

describe('stocktake review, start dialog and who counted', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let pantry: Category;
  let freezer: Category;
  const items: Record<string, Item> = {};
  let boss: OpenPage;
  let clerk: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mia Manager', 'manager');
    staff = await apiAccount(server, 'Sam Staff');
    pantry = await addCategory(server, manager.idToken, 'Pantry');
    freezer = await addCategory(server, manager.idToken, 'Freezer');
    // Not part of the count the manager chooses.
    const bar = await addCategory(server, manager.idToken, 'Bar');
    items.Tonic = await addItem(server, manager.idToken, bar, { name: 'Tonic', quantity: 30, threshold: 5, price: 1 });
    const stock: [string, Category, number, number, number][] = [
      // name, category, quantity, price, threshold
      ['Flour', pantry, 20, 2, 2],
      ['Sugar', pantry, 10, 30, 2],
      ['Rice', pantry, 5, 1, 1],
      ['Oil', pantry, 7, 10, 1],
      ['Salt', pantry, 12, 4, 1],
      ['Beans', pantry, 4, 3, 1],
      ['Ice', freezer, 3, 5, 5], // low on stock
      ['Peas', freezer, 8, 2, 1],
    ];
    for (const [name, category, quantity, price, threshold] of stock) {
      items[name] = await addItem(server, manager.idToken, category, { name, quantity, price, threshold });
    }
    [boss, clerk] = await Promise.all([openPage(browser, server), openPage(browser, server, { viewport: PHONE })]);
    await Promise.all([
      signIn(boss.page, manager.email!, manager.password!),
      signIn(clerk.page, staff.email!, staff.password!),
    ]);
    await Promise.all(
      [boss.page, clerk.page].map(async (page) => {
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        await page.waitForLoadState('networkidle');
      }),
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const sessions = async () =>
    (await server.api<{ stocktakes: StocktakeSummary[] }>('GET', '/stocktakes', manager.idToken)).stocktakes;

  /** The page in light and dark, at desktop and phone width, saved as <name>-<theme>-<device>.png in test-results/screenshots. */
  const shootAll = async (page: Page, name: string) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await screenshot(page, name);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(DESKTOP);
  };

  /** The review's rows, top to bottom, by item name. */
  const reviewOrder = (page: Page) =>
    page
      .getByTestId('variance-row')
      .locator('th')
      .evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent ?? ''));

  it('asks what to count before anything starts, then starts on the chosen categories', async () => {
    const { page } = boss;
    const before = (await sessions()).length;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Count' }).click();
    await page.getByRole('button', { name: 'Start a count' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a count' });
    await dialog.waitFor();
    // Nothing is chosen for the manager, and nothing can start yet.
    const choices = dialog.getByRole('radio');
    expect(await choices.count()).toBe(4);
    for (const choice of await choices.all()) expect(await choice.isChecked()).toBe(false);
    const startButton = dialog.getByRole('button', { name: /^Start count/ });
    expect(await startButton.isDisabled()).toBe(true);
    await shootAll(page, 'stocktake-start-dialog');
    // Closing it starts nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await sessions()).length).toBe(before);
    expect(page.url()).toMatch(/\/stocktake$/);

    // Two categories: the button says how many items go on the list.
    await page.getByRole('button', { name: 'Start a count' }).click();
    await dialog.getByRole('radio', { name: /Categories/ }).check();
    expect(await startButton.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: /Pantry/ }).check();
    await dialog.getByRole('checkbox', { name: /Freezer/ }).check();
    await dialog.getByRole('button', { name: 'Start count of 8 items' }).waitFor();
    await shootAll(page, 'stocktake-start-categories');
    expect((await sessions()).length).toBe(before);
    await dialog.getByRole('button', { name: 'Start count of 8 items' }).click();
    await page.waitForURL('**/stocktake/*');
    const id = page.url().split('/').at(-1)!;
    const session = await server.api<StocktakeSession>('GET', `/stocktakes/${id}`, manager.idToken);
    expect(session).toMatchObject({ scope: 'categories', name: 'Count: Freezer, Pantry at Main store', toCount: 8 });
    expect(session.lines.map((l) => l.name).sort()).toEqual([
      'Beans',
      'Flour',
      'Ice',
      'Oil',
      'Peas',
      'Rice',
      'Salt',
      'Sugar',
    ]);
    await seeText(page, '0 of 8 counted');

    // The low-stock items are a choice too: Ice alone is at or below its threshold.
    await page.goto('/stocktake');
    await page.getByRole('button', { name: 'Start a count' }).click();
    await dialog.getByRole('radio', { name: /Low-stock items/ }).check();
    await dialog.getByRole('button', { name: 'Start count of 1 item' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/stocktake/') && !url.pathname.endsWith(id));
    await page.getByTestId('count-row').filter({ hasText: 'Ice' }).waitFor();
    expect(await page.getByTestId('count-row').count()).toBe(1);
    await page.goto(`/stocktake/${id}`);
    await seeText(page, '0 of 8 counted');
    expect(boss.errors).toEqual([]);
  });

  it("shows the manager the review first, sorted by size of variance, and keeps a staff member's count theirs", async () => {
    const { page } = boss;
    const id = page.url().split('/').at(-1)!;
    const count = (who: TestAccount, name: string, counted: number) =>
      server.api('POST', `/stocktakes/${id}/counts`, who.idToken, {
        itemId: items[name]!.id,
        counted,
        countedAt: new Date().toISOString(),
      });
    // Sam counts everything but the Beans; the manager counts the Peas too, and differently.
    for (const [name, counted] of [
      ['Flour', 14],
      ['Sugar', 9],
      ['Rice', 8],
      ['Oil', 7],
      ['Salt', 10],
      ['Ice', 3],
      ['Peas', 6],
    ] as const) {
      await count(staff, name, counted);
    }
    await count(manager, 'Peas', 8);
    await seeText(page, '7 of 8 counted', 15_000);
    const conflict = page.getByTestId('conflict').filter({ hasText: 'Peas' });
    await conflict.waitFor({ timeout: 15_000 });

    // The review sits above the count rows, near the top of the page.
    const review = page.locator('section.stocktake-variance');
    const top = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!.y;
    await page.getByTestId('variance-row').first().waitFor();
    expect(await top(review)).toBeLessThan(await top(page.getByTestId('count-row').first()));
    expect(await top(review)).toBeLessThan(DESKTOP.height);
    expect(await review.getByRole('heading').textContent()).toBe('Review');

    // Largest difference first (−6, +3, −2, −1, then the two counted right in the session's order).
    await expect
      .poll(() => reviewOrder(page), { timeout: 15_000 })
      .toEqual(['Flour', 'Rice', 'Salt', 'Sugar', 'Ice', 'Oil']);
    expect(await page.getByRole('columnheader', { name: /Difference/ }).getAttribute('aria-sort')).toBe('descending');
    // By value: Sugar's −1 costs $30, more than Flour's −6 at $2.
    await review.getByRole('button', { name: /^Value/ }).click();
    await expect
      .poll(() => reviewOrder(page), { timeout: 15_000 })
      .toEqual(['Sugar', 'Flour', 'Salt', 'Rice', 'Ice', 'Oil']);
    expect(await page.getByRole('columnheader', { name: /Value/ }).getAttribute('aria-sort')).toBe('descending');
    await review.getByRole('button', { name: /^Value/ }).click();
    await expect
      .poll(() => reviewOrder(page), { timeout: 15_000 })
      .toEqual(['Ice', 'Oil', 'Rice', 'Salt', 'Flour', 'Sugar']);
    await review.getByRole('button', { name: /^Difference/ }).click();
    await expect
      .poll(() => reviewOrder(page), { timeout: 15_000 })
      .toEqual(['Flour', 'Rice', 'Salt', 'Sugar', 'Ice', 'Oil']);
    await shootAll(page, 'stocktake-review');

    // Staff count blind and keep their count rows first.
    await clerk.page.goto(`/stocktake/${id}`);
    await seeText(clerk.page, '7 of 8 counted', 15_000);
    await clerk.page.getByTestId('count-row').first().waitFor();
    expect(await clerk.page.getByRole('region', { name: 'Review' }).count()).toBe(0);
    expect(await clerk.page.getByTestId('variance-row').count()).toBe(0);
    await shootAll(clerk.page, 'stocktake-staff-session');

    // The manager keeps Sam's 6 Peas (their own count said 8).
    await conflict.getByRole('button', { name: 'Keep 6' }).click();
    const peasReview = page.getByTestId('variance-row').filter({ hasText: 'Peas' });
    await peasReview.waitFor({ timeout: 15_000 });
    expect(await peasReview.getByTestId('variance-who').textContent()).toBe(
      'counted by Sam Staff · approved by Mia Manager',
    );
    // The count row names the counter of the kept count, not whoever counted last.
    const peasRow = page.getByTestId('count-row').filter({ hasText: 'Peas' });
    await expect
      .poll(() => peasRow.getByTestId('counted-value').textContent(), { timeout: 15_000 })
      .toBe('6 · Sam Staff');
    await expect
      .poll(
        () =>
          clerk.page.getByTestId('count-row').filter({ hasText: 'Peas' }).getByTestId('counted-value').textContent(),
        { timeout: 15_000 },
      )
      .toBe('6 · Sam Staff');

    // The item's history: the count is Sam's, posting it the manager's.
    await page.goto(`/inventory/${items.Peas!.id}`);
    const posted = page.locator('.history-entry').filter({ hasText: 'Stock count' });
    await posted.waitFor({ timeout: 15_000 });
    expect(await posted.locator('.history-actor').textContent()).toBe('counted by Sam Staff · approved by Mia Manager');
    await shootAll(page, 'stocktake-item-history');

    // The activity log: Sam's count, and the manager's approval naming whose count it kept.
    await page.goto('/activity');
    await page.getByLabel('Search activity').fill('Peas');
    const rows = page.getByTestId('activity-row');
    const approval = rows.filter({
      hasText:
        /Approved stocktake Count: Freezer, Pantry at Main store: Peas [-+±]\d+, counted by Sam Staff, by Mia Manager/,
    });
    await approval.waitFor({ timeout: 15_000 });
    expect(await approval.locator('td[data-label="User"]').textContent()).toBe('Mia Manager');
    const counts = rows.filter({ hasText: /Counted Peas: 6 \(/ });
    expect(await counts.locator('td[data-label="User"]').allTextContents()).toEqual(['Sam Staff']);
    expect([...boss.errors, ...clerk.errors]).toEqual([]);
  });
});
