// Offline in Chromium, on a copy of the production build served by the real
// server: after a first visit the app opens with no network (service worker + cached
// session grant + cached API reads); two stock adjustments made offline survive a closed
// tab, show as "2 changes waiting" and Pending, and reach the server exactly once when the
// network returns; an edit that someone else overtook lands in Conflicts, where "Keep
// current" and "Apply mine" both do what they say; a new build's service worker shows
// "Update available - Reload"; Chromium reports no installability errors.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Category, HistoryEntry, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, newAppContext, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import { buildClientForTests } from '../helpers/e2e-build.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, signIn } from './shared-steps.js';

describe('offline: installable app and outbox', BROWSER_TESTS, () => {
  let clientDir: string;
  let server: E2EServer;
  let browser: Browser;
  let me: TestAccount;
  let other: TestAccount;
  let shelf: Category;
  let hammer: Item;
  let wrench: Item;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // A copy of the build, so the update test can put a new sw.js in it.
    const built = await buildClientForTests();
    clientDir = mkdtempSync(path.join(tmpdir(), 'stockroom-offline-'));
    cpSync(built, clientDir, { recursive: true });
    [server, browser] = await Promise.all([startE2EServer({ clientDir }), launchBrowser()]);
    me = await apiAccount(server, 'Olive Offline', 'manager'); // the store's first account: a manager
    other = await apiAccount(server, 'Otto Online', 'manager');
    await server.api('PUT', `/users/${other.uid}/role`, me.idToken, { role: 'manager' });
    shelf = await addCategory(server, me.idToken, 'Cellar');
    hammer = await addItem(server, me.idToken, shelf, { name: 'Claw Hammer', quantity: 10, threshold: 2, price: 12 });
    wrench = await addItem(server, me.idToken, shelf, { name: 'Pipe Wrench', quantity: 5, threshold: 1, price: 8 });
    context = await newAppContext(browser, server, { serviceWorkers: 'allow' });
    page = await context.newPage();
    await signIn(page, me.email!, me.password!);
    // The first visit installs the service worker, which takes over this page at once.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  const item = (id: string) => server.api<Item>('GET', `/inventory/${id}`, me.idToken);
  const card = (p: Page, name: string) => p.locator('article.item-card', { hasText: name });
  const categoryUrl = () => `/inventory/category/${shelf.id}`;

  it('opens offline after a first visit; two adjustments made offline survive a closed tab and arrive exactly once', async () => {
    await page.goto(`/inventory/${hammer.id}`);
    await page.getByTestId('current-stock').filter({ hasText: '10' }).waitFor();
    await page.goto(categoryUrl());
    await card(page, 'Claw Hammer').getByText('10 in stock').waitFor();

    await context.setOffline(true);
    // Really offline, service worker included: a request it does not cache gets no answer.
    expect(
      await page.evaluate(() =>
        fetch('/api/health').then(
          () => 'answered',
          () => 'no answer',
        ),
      ),
    ).toBe('no answer');
    // A read it does cache comes from there, marked as a saved copy (the screen reads it again
    // until the server answers: live-query.machine.ts).
    const savedCopy = await page.evaluate(
      (path) => fetch(path).then((res) => res.headers.get('x-stockroom-saved-copy')),
      `/api/categories/${shelf.id}`,
    );
    expect(savedCopy).toBe('1');
    const plus = page.getByRole('button', { name: 'Increase quantity of Claw Hammer' });
    await plus.click();
    await page.getByTestId('outbox-badge').filter({ hasText: '1 change waiting' }).waitFor();
    await plus.click();
    await page.getByTestId('outbox-badge').filter({ hasText: '2 changes waiting' }).waitFor();
    await card(page, 'Claw Hammer').getByText('12 in stock').waitFor();
    expect((await item(hammer.id)).quantity).toBe(10); // nothing reached the server

    // Close the tab; a new one, still offline, opens the app from the service worker.
    await page.close();
    page = await context.newPage();
    await page.setViewportSize(PHONE); // the offline header on a phone, where it is tightest
    await page.goto(categoryUrl());
    const hammerCard = card(page, 'Claw Hammer');
    await hammerCard.getByText('12 in stock').waitFor({ timeout: 20_000 });
    await hammerCard.getByTestId('pending-mark').waitFor();
    await page.getByTestId('outbox-badge').filter({ hasText: '2 changes waiting' }).waitFor();
    await card(page, 'Pipe Wrench').getByText('5 in stock').waitFor();
    await screenshot(page, 'offline-category-pending');
    await page.setViewportSize(DESKTOP);
    // The item page, also seen before, shows the same pending stock.
    await hammerCard.getByRole('link', { name: 'Claw Hammer', exact: true }).click();
    const stock = page.getByTestId('current-stock');
    await stock.getByTestId('pending-mark').waitFor();
    expect(await stock.textContent()).toBe('12Pending');
    await page.goBack();

    await context.setOffline(false);
    await expect.poll(async () => (await item(hammer.id)).quantity, { timeout: 20_000 }).toBe(12);
    await page.getByTestId('outbox-badge').waitFor({ state: 'detached', timeout: 10_000 });
    await hammerCard.getByTestId('pending-mark').waitFor({ state: 'detached' });
    // Failed once in a full run at load 6 (the card never showed 12): say what it showed.
    await hammerCard
      .getByText('12 in stock')
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nthe card showed: ${await hammerCard.innerText().catch(() => '?')}`);
      });
    // Exactly two adjustments of +1 were recorded: no replay applied twice.
    const history = await server.api<HistoryEntry[]>('GET', `/inventory/${hammer.id}/history`, me.idToken);
    expect(history.filter((entry) => entry.delta !== null).map((entry) => entry.delta)).toEqual([1, 1]);
  });

  /** Edits the wrench's price with no network (the edit page was loaded online) and saves. */
  async function editPriceOffline(price: string): Promise<void> {
    await page.goto(`/inventory/${wrench.id}`);
    await page.getByTestId('current-stock').waitFor();
    await page.goto(`/inventory/${wrench.id}/edit`);
    const field = page.getByLabel('Unit Price ($)');
    await field.waitFor();
    await context.setOffline(true);
    await field.fill(price);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByTestId('outbox-badge').filter({ hasText: '1 change waiting' }).waitFor();
  }

  /** Someone else changes the same field meanwhile, online. */
  async function otherUserSetsPrice(price: number): Promise<void> {
    const current = await item(wrench.id);
    await server.api('PUT', `/inventory/${wrench.id}`, other.idToken, { price, expected_version: current.version });
  }

  async function openConflict(): Promise<void> {
    await context.setOffline(false);
    const badge = page.getByTestId('conflicts-badge').filter({ hasText: '1 conflict' });
    await badge.waitFor({ timeout: 20_000 });
    await badge.click();
    await page.getByRole('heading', { name: 'Conflicts' }).waitFor();
  }

  it('an edit overtaken while offline lands in Conflicts: "Keep current" drops mine, "Apply mine" re-sends it', async () => {
    await editPriceOffline('9.5');
    await otherUserSetsPrice(12);
    await openConflict();
    const conflict = page.getByTestId('conflict');
    await seeText(conflict, 'Edit Pipe Wrench: price');
    await seeText(conflict, 'This item was changed by someone else');
    expect(await conflict.getByTestId('mine').textContent()).toBe('9.5');
    expect(await conflict.getByTestId('current').textContent()).toBe('12');
    await screenshot(page, 'offline-conflicts');
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await screenshot(page, 'offline-conflicts');
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await conflict.getByRole('button', { name: 'Keep current' }).click();
    await seeText(page, 'Everything is sent');
    expect((await item(wrench.id)).price).toBe(12);

    await editPriceOffline('7');
    await otherUserSetsPrice(13);
    await openConflict();
    expect(await page.getByTestId('conflict').getByTestId('current').textContent()).toBe('13');
    await page.getByTestId('conflict').getByRole('button', { name: 'Apply mine' }).click();
    await expect.poll(async () => (await item(wrench.id)).price, { timeout: 15_000 }).toBe(7);
    await seeText(page, 'Everything is sent');
  });

  it('is installable, and a new build waits for "Update available - Reload"', async () => {
    await page.goto('/dashboard');
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // The test browser's fresh profile counts as incognito, where Chromium never offers to
    // install; every other criterion (manifest, icons, service worker, secure origin) holds.
    expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
    const { errors } = (await cdp.send('Page.getAppManifest')) as { errors: unknown[] };
    expect(errors).toEqual([]);

    // A new build: another sw.js (its compressed copies removed so the server sends this one).
    const sw = path.join(clientDir, 'sw.js');
    writeFileSync(sw, `${readFileSync(sw, 'utf8')}\n// the next build\n`);
    rmSync(`${sw}.br`, { force: true });
    rmSync(`${sw}.gz`, { force: true });
    await page.reload();
    const banner = page.locator('.update-banner');
    await banner.getByText('Update available').waitFor({ timeout: 30_000 });
    // The new version waits: the page still runs the old worker until the user says so.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null)).toBe(
      true,
    );
    await screenshot(page, 'offline-update-available');
    // What the workers go through, to say why if the reload does not come.
    const workerStates: string[] = [];
    cdp.on(
      'ServiceWorker.workerVersionUpdated',
      ({ versions }: { versions: { versionId: string; status: string; runningStatus: string }[] }) => {
        for (const v of versions) workerStates.push(`${v.versionId}:${v.status}/${v.runningStatus}`);
      },
    );
    await cdp.send('ServiceWorker.enable');
    const pageLog: string[] = [];
    page.on('console', (message) => pageLog.push(message.text()));
    page.on('request', (r) => pageLog.push(`req ${r.url()}`));
    page.on('requestfinished', (r) => pageLog.push(`done ${r.url()}`));
    page.on('requestfailed', (r) => pageLog.push(`failed ${r.url()}`));
    page.on('framenavigated', (f) => pageLog.push(`nav ${f.url()}`));
    await Promise.all([
      page.waitForEvent('load'),
      banner.getByRole('button', { name: 'Reload' }).click({ timeout: 20_000 }),
    ]).catch((error: Error) => {
      throw new Error(`${error.message}\nworkers: ${workerStates.join(' ')}\npage: ${pageLog.join(' | ')}`);
    });
    // The new version took over (at once, or on the page after the reload if the old one was still busy).
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null), {
        timeout: 30_000,
      })
      .toBeNull();
    await page.getByRole('link', { name: 'Stockroom' }).first().waitFor();
    await expect.poll(() => banner.count()).toBe(0);

    // Logging out forgets the cached API answers: the next person here must not see them.
    expect(await page.evaluate(() => caches.has('api-get'))).toBe(true);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => page.evaluate(() => caches.has('api-get'))).toBe(false);
  });
});
