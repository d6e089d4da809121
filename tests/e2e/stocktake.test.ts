// Stocktake in Chromium: a manager starts a count of a category; a manager and a
// staff member count it at once in two browser contexts, the staff phone offline (its counts
// wait in the outbox), the manager with a hardware scanner; a sale made after the shelf was
// counted reaches the server before the offline counts; back online the counts merge on both
// screens, an item counted twice with different numbers is flagged and the manager keeps one,
// approves, and the stock is what was counted minus what was sold since. An auditor counts
// one location (the back room): its approval leaves the item's other location as it was.
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { StocktakeSession } from '../../shared/stocktake.js';
import { BROWSER_TESTS, fakeCameraArgs, launchBrowser } from '../helpers/browser.js';
import { apiAccount, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { typeLikeScanner } from '../helpers/hardware-scanner.js';
import { writeFakeCameraVideo } from '../helpers/fake-camera-video.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

const WHITE_EAN = '5901234123457';

describe('stocktake', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let cellar: Category;
  let red: Item;
  let white: Item;
  let rose: Item;
  let tonic: Item;
  let boss: OpenPage;
  let clerk: OpenPage;

  beforeAll(async () => {
    // The camera films White Wine's barcode (a fake camera playing a generated video).
    const video = await writeFakeCameraVideo({ kind: 'ean13', text: WHITE_EAN });
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser(fakeCameraArgs(video))]);
    // The first account is the store's manager.
    manager = await apiAccount(server, 'Mia Manager', 'manager');
    staff = await apiAccount(server, 'Sam Staff');
    cellar = await addCategory(server, manager.idToken, 'Cellar');
    // Another category's item must not be on the list.
    const bar = await addCategory(server, manager.idToken, 'Bar');
    tonic = await addItem(server, manager.idToken, bar, { name: 'Tonic Water', quantity: 30, threshold: 5, price: 1 });
    red = await addItem(server, manager.idToken, cellar, { name: 'Red Wine', quantity: 10, threshold: 2, price: 12 });
    white = await addItem(server, manager.idToken, cellar, { name: 'White Wine', quantity: 6, threshold: 2, price: 9 });
    await server.api('PUT', `/inventory/${white.id}`, manager.idToken, { barcode: WHITE_EAN });
    rose = await server.api<Item>(
      'PUT',
      `/inventory/${(await addItem(server, manager.idToken, cellar, { name: 'Rose Wine', quantity: 4, threshold: 1, price: 10 })).id}`,
      manager.idToken,
      {
        barcode: '4006381333931',
      },
    );
    [boss, clerk] = await Promise.all([openPage(browser, server), openPage(browser, server, { viewport: PHONE })]);
    await boss.context.grantPermissions(['camera'], { origin: server.url });
    await Promise.all([
      signIn(boss.page, manager.email!, manager.password!),
      signIn(clerk.page, staff.email!, staff.password!),
    ]);
    // Let the dashboards finish arriving: a navigation racing the sign-in's last one is lost.
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

  const quantities = async () =>
    Promise.all(
      [red, white, rose].map(
        async (i) => (await server.api<Item>('GET', `/inventory/${i.id}`, manager.idToken)).quantity,
      ),
    );

  /** Serious and critical WCAG 2 A/AA problems axe finds on the page. */
  const axeProblems = async (page: Page) =>
    (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);

  /** Types a count into an item's field and sends it with Enter. */
  const countOn = async (page: Page, name: string, counted: number) => {
    const field = page.getByLabel(`Count of ${name}`);
    await field.fill(String(counted));
    await field.press('Enter');
  };

  it('counts a category on two screens at once, merges the totals, and posts them on approval', async () => {
    // The manager starts a count of the Cellar from the nav link.
    const { page } = boss;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Count' }).click();
    await page.getByRole('button', { name: 'Start a count' }).click();
    const choose = page.getByRole('dialog', { name: 'Start a count' });
    await choose.getByRole('radio', { name: /Categories/ }).check();
    await choose.getByRole('checkbox', { name: /Cellar/ }).check();
    expect(await axeProblems(page)).toEqual([]);
    await choose.getByRole('button', { name: 'Start count of 3 items' }).click();
    await page.waitForURL('**/stocktake/*');
    const sessionId = page.url().split('/').at(-1)!;
    await seeText(page, '0 of 3 counted');
    expect(await page.getByTestId('count-row').count()).toBe(3);

    // Staff open it from the list on a phone; they count blind (no variance table).
    await clerk.page.goto('/stocktake');
    // This attempt's session by its address: a retry after a timeout finds the first attempt's too.
    await clerk.page.locator(`a.stocktake-session-link[href="/stocktake/${sessionId}"]`).click();
    await seeText(clerk.page, '0 of 3 counted');
    // The phone shows the items to count before it loses its signal (on a busy machine the
    // list came after the summary, and a read cut by going offline left no list to count in).
    await clerk.page.getByLabel('Count of Red Wine').waitFor();
    await clerk.page.getByLabel('Search the items to count by name, SKU or barcode').waitFor();

    // Both count at once. The staff phone has no signal: its counts wait in the outbox. The
    // manager scans the Rose Wine's barcode with a hardware scanner and types the count.
    await clerk.context.setOffline(true);
    const T = Date.now();
    await Promise.all([
      (async () => {
        const search = clerk.page.getByLabel('Search the items to count by name, SKU or barcode');
        // Should the field go, the failure says what the phone showed instead.
        await search.fill('red', { timeout: 20_000 }).catch(async (error: Error) => {
          throw new Error(
            `${error.message}\nthe phone showed: ${(
              await clerk.page
                .locator('body')
                .innerText()
                .catch(() => '?')
            ).slice(0, 600)}`,
          );
        });
        await countOn(clerk.page, 'Red Wine', 9);
        await search.fill('');
        await countOn(clerk.page, 'White Wine', 6);
        await expect
          .poll(() => clerk.page.getByTestId('counts-waiting').textContent(), { timeout: 10_000 })
          .toContain('2 counts waiting to send');
      })(),
      (async () => {
        await page.locator('h1').click(); // no field focused: the page hears the scanner
        await typeLikeScanner(page, '4006381333931');
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 15_000 })
          .toBe('Count of Rose Wine');
        await page.keyboard.type('3');
        await page.keyboard.press('Enter');
        // The header's Scan button opens the count's camera (not the quick sheet): White Wine, 5.
        await page.getByRole('button', { name: 'Scan a barcode' }).click();
        await page.getByRole('dialog', { name: 'Scan an item to count' }).waitFor();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 30_000 })
          .toBe('Count of White Wine');
        await page.keyboard.type('5');
        await page.keyboard.press('Enter');
      })(),
    ]);
    await seeText(page, '2 of 3 counted', 15_000);
    // A Red Wine is sold after the shelf was counted, and that sale reaches the server first.
    await server.api('POST', `/inventory/${red.id}/adjust`, manager.idToken, { delta: -1, reason: 'sale' });
    await screenshot(clerk.page, 'stocktake-offline');
    await clerk.context.setOffline(false);

    // Each screen sees the other's counts (live): White Wine was counted 6 and 5, the rest merge.
    await Promise.all([seeText(page, '3 of 3 counted', 15_000), seeText(clerk.page, '3 of 3 counted', 15_000)]);
    const conflict = page.getByTestId('conflict').filter({ hasText: 'White Wine' });
    await conflict.waitFor({ timeout: 15_000 });
    await seeText(clerk.page, '1 counted twice');
    const totals = page.getByTestId('variance-totals');
    await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toBe('Totals1412−2−$22.00');
    expect(await page.getByRole('button', { name: 'Approve all' }).isDisabled()).toBe(true);
    expect(await clerk.page.getByTestId('variance-totals').count()).toBe(0);
    const session = await server.api<StocktakeSession>('GET', `/stocktakes/${sessionId}`, manager.idToken);
    expect(
      session.lines.map((l) => [l.name, l.counted, l.counts.map((c) => `${c.counted} by ${c.countedBy}`)]),
    ).toEqual(
      expect.arrayContaining([
        ['Red Wine', 9, ['9 by Sam Staff']],
        ['White Wine', null, ['6 by Sam Staff', '5 by Mia Manager']],
        ['Rose Wine', 3, ['3 by Mia Manager']],
      ]),
    );
    expect(
      Math.min(...session.lines.flatMap((l) => l.counts.map((c) => Date.parse(c.countedAt)))),
    ).toBeGreaterThanOrEqual(T - 1000);
    await screenshot(page, 'stocktake-session');
    await screenshot(clerk.page, 'stocktake-session');
    await clerk.page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await screenshot(clerk.page, 'stocktake-session');
    expect([...(await axeProblems(page)), ...(await axeProblems(clerk.page))]).toEqual([]);

    // The manager keeps the staff's 6 (that line alone posts: nothing), then approves the rest.
    await conflict.getByRole('button', { name: 'Keep 6' }).click();
    await expect.poll(() => totals.textContent(), { timeout: 15_000 }).toBe('Totals2018−2−$22.00');
    // Nothing moved before approval (but the sale).
    expect(await quantities()).toEqual([9, 6, 4]);
    await page.getByRole('button', { name: 'Approve all' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve all' }).click();
    await seeText(page, 'Stocktake approved: stock levels updated', 15_000);
    await seeText(page, /Closed /);
    // Red: 10 when counted, 9 counted, 1 sold since: 8 (the sale is neither lost nor counted twice).
    expect(await quantities()).toEqual([8, 6, 3]);
    await seeText(clerk.page, '3 approved', 15_000);
    expect(await clerk.page.getByLabel('Count of Red Wine').count()).toBe(0);
    await page.getByRole('link', { name: 'All counts' }).click();
    await page
      .getByRole('link', { name: /Count: Cellar/ })
      .first()
      .waitFor();
    await screenshot(page, 'stocktake-list');
    expect([...boss.errors, ...clerk.errors]).toEqual([]);
  });

  it('lets a role that runs counts without counting start one at a location and follow it, with no count fields; approving changes that location only', async () => {
    const role = await server.api<{ id: string }>('POST', '/roles', manager.idToken, {
      name: 'Count Auditor',
      description: 'Starts and approves counts others make',
      permissions: ['inventory:view', 'stocktake:run'],
    });
    const auditor = await apiAccount(server, 'Ada Auditor');
    await server.api('PUT', `/users/${auditor.uid}/role`, manager.idToken, { role: role.id });
    // The back room holds 3 more Tonic Water: the auditor counts the back room alone.
    const back = await server.api<{ id: string }>('POST', '/locations', manager.idToken, {
      site_id: MAIN_SITE_ID,
      name: 'Back room',
      code: 'BACK',
    });
    await server.api('POST', `/inventory/${tonic.id}/adjust`, manager.idToken, {
      delta: 3,
      reason: 'restock',
      locationId: back.id,
    });
    const { page, context, errors } = await openPage(browser, server);
    await signIn(page, auditor.email!, auditor.password!);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Count' }).click();
    await page.getByRole('button', { name: 'Start a count' }).click();
    const choose = page.getByRole('dialog', { name: 'Start a count' });
    await choose.getByRole('radio', { name: /Categories/ }).check();
    await choose.getByRole('checkbox', { name: /Bar/ }).check();
    await choose.getByLabel('Location').selectOption({ label: 'Back room (BACK)' });
    await choose.getByRole('button', { name: 'Start count of 1 item' }).click();
    await page.waitForURL('**/stocktake/*');
    await seeText(page, '0 of 1 counted');
    await seeText(page, 'Main store › Back room');
    await page.getByTestId('count-row').filter({ hasText: 'Tonic Water' }).waitFor();
    expect(await page.getByLabel('Count of Tonic Water').count()).toBe(0);
    // Staff count it; the auditor's screen shows the count and its variance live.
    const sessionId = page.url().split('/').at(-1)!;
    const bar = (await server.api<StocktakeSession>('GET', `/stocktakes/${sessionId}`, manager.idToken)).lines[0]!;
    await server.api('POST', `/stocktakes/${sessionId}/counts`, staff.idToken, {
      itemId: bar.itemId,
      counted: 2,
      countedAt: new Date().toISOString(),
    });
    await seeText(page, '1 of 1 counted', 15_000);
    // Expected 3: what the back room held, not the item's 33.
    await expect
      .poll(() => page.getByTestId('variance-totals').textContent(), { timeout: 15_000 })
      .toBe('Totals32−1−$1.00');
    await screenshot(page, 'stocktake-auditor');
    await page.getByRole('button', { name: 'Approve all' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve all' }).click();
    await seeText(page, /Closed /, 15_000);
    // The shelf's 30 are untouched: counting the back room changed the back room only.
    const where = await server.api<{ locations: { locationId: string; quantity: number }[] }>(
      'GET',
      `/inventory/${tonic.id}/locations`,
      manager.idToken,
    );
    expect(Object.fromEntries(where.locations.map((l) => [l.locationId, l.quantity]))).toMatchObject({
      [MAIN_LOCATION_ID]: 30,
      [back.id]: 2,
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
