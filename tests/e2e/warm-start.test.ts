// Warm start (the signed-in first paint on a phone). A returning user's page shows
// its data from this device's last session grant and Firebase's stored token, without
// waiting for Firebase to ask the auth server who they are. Shown by making that question
// hang: with the grant the category page fills in (in its first render: its reads were asked
// early, see client/lib/first-data.ts); without it (the cold path) the app can
// only wait on "Signing you in...". Once Firebase answers, the app goes on with its tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Route } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, newAppContext, seeText, signInViaUi } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';

describe('warm start of a returning user', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let category: Category;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Wendy Warm', 'manager');
    category = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Cellar' });
    await server.api('POST', '/inventory', manager.idToken, {
      name: 'Sparkling Water',
      sku: 'CW-1',
      category_id: category.id,
      quantity: 24,
      price: 0.9,
      threshold: 5,
    });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  /** Signs in, then holds every answer from the auth server's user lookup until released. */
  async function returningUser() {
    const context = await newAppContext(browser, server);
    contexts.push(context);
    const page = await context.newPage();
    await signInViaUi(page, manager.email!, manager.password!);
    const held: Route[] = [];
    let holding = true;
    await context.route(/accounts:lookup/, (route) => (holding ? held.push(route) : route.continue()));
    const release = async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    };
    return { page, release };
  }

  it('shows the category page from the stored grant while Firebase is still asking who the user is', async () => {
    const { page, release } = await returningUser();
    // Everything the page ever showed, from its first byte: the shell's first render is the
    // user's screen, never "Signing you in..." swapped out a moment later, also when reading
    // the stored user takes longer than the app's code to arrive (IndexedDB slow to open, as
    // on a phone's first visit of the day): each open answers 800 ms late here.
    await page.addInitScript(() => {
      const open = IDBFactory.prototype.open;
      const onsuccess = Object.getOwnPropertyDescriptor(IDBRequest.prototype, 'onsuccess')!;
      IDBFactory.prototype.open = function (this: IDBFactory, ...args: [string, number?]) {
        const request = open.apply(this, args);
        Object.defineProperty(request, 'onsuccess', {
          get: () => onsuccess.get!.call(request),
          set: (handler: ((event: Event) => void) | null) =>
            onsuccess.set!.call(
              request,
              handler && ((event: Event) => setTimeout(() => handler.call(request, event), 800)),
            ),
        });
        return request;
      };
      const seen = ((window as unknown as { shown: string[] }).shown = [] as string[]);
      new MutationObserver(() => seen.push(document.body?.innerText ?? '')).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    await page.goto(`/inventory/category/${category.id}`);
    await seeText(page, 'Sparkling Water');
    await page.getByRole('button', { name: /Account menu/ }).waitFor();
    const shown = await page.evaluate(() => (window as unknown as { shown: string[] }).shown);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => text.includes('Signing you in'))).toEqual([]);
    // And with its data: the reads asked early come with the first render, never a loading
    // state first (a second render and layout on a slow phone).
    expect(shown.filter((text) => /Loading (items|inventory)/.test(text))).toEqual([]);
    // Firebase answers at last: same user, the session is confirmed and the page goes on live.
    await release();
    await page.waitForResponse((res) => res.url().endsWith('/api/session') && res.ok(), { timeout: 15_000 });
    await server.api('POST', '/inventory', manager.idToken, {
      name: 'Still Water',
      sku: 'CW-2',
      category_id: category.id,
      quantity: 12,
      price: 0.8,
      threshold: 5,
    });
    await seeText(page, 'Still Water', 15_000);
  });

  it('without a stored grant (the cold path) waits for Firebase before anything shows', async () => {
    const { page, release } = await returningUser();
    await page.evaluate(() => localStorage.removeItem('stockroom.sessionGrant'));
    await page.goto(`/inventory/category/${category.id}`);
    await seeText(page, 'Signing you in...');
    await page.waitForTimeout(1500);
    expect(await page.getByText('Sparkling Water').count()).toBe(0);
    await release();
    await seeText(page, 'Sparkling Water', 15_000);
  });
});
