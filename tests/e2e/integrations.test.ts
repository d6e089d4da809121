// End to end in Chromium: a manager opens Settings > Integrations, adds a webhook endpoint
// (a real receiver on this machine), sees the signing secret once, sends a test event, and
// sees it delivered in the delivery log; the receiver got it with a valid signature. Then
// creates an API token and sees it listed (and, when the answer with it is lost on the way,
// is told the retry cannot show it again). An endpoint limited to one category gets only
// that category's items; when it keeps failing, the server disables it and every screen's
// header says so. Staff have no Integrations tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import type { Category } from '../../shared/inventory.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

describe('integrations', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let receiver: Receiver;
  let manager: TestAccount;
  let staff: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    // A short retry window, so an endpoint that keeps failing is disabled within seconds.
    const env = {
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '300',
      WEBHOOK_RETRY_FOR_MS: '1500',
      WEBHOOK_POLL_MS: '200',
    };
    [server, browser, receiver] = await Promise.all([startE2EServer({ env }), launchBrowser(), startReceiver()]);
    manager = await apiAccount(server, 'Ivy Integrator', 'manager');
    staff = await apiAccount(server, 'Sam Staff');
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  it('creates an endpoint, sends a test event and sees it delivered in the delivery log', async () => {
    const page = admin.page;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await seeText(page, 'No endpoints yet.');
    await screenshot(page, 'integrations-empty');

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('Till sync');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByLabel('Signing secret').textContent({ timeout: 15_000 }))!;
    expect(secret).toMatch(/^whsec_/);
    await seeText(page, receiver.url);
    await screenshot(page, 'integrations-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Signing secret').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByRole('table', { name: 'Recent deliveries' });
    await log
      .getByRole('row')
      .filter({ hasText: 'Test event' })
      .filter({ hasText: 'Delivered' })
      .waitFor({ timeout: 20_000 });
    expect(await log.getByRole('row').filter({ hasText: 'Test event' }).textContent()).toContain('200');
    await receiver.waitFor((r) => r.received.some((x) => x.payload.type === 'webhook.test'), 10_000, 'the test event');
    receiver.verifyAll(secret);
    // A stock adjustment's delivery, logged in a batch with the others of its progress write
    // (migration 017), is listed above the test event.
    const shelf = await server.api<{ id: string }>('POST', '/categories', manager.idToken, { name: 'Hooks shelf' });
    const item = await server.api<{ id: string }>('POST', '/inventory', manager.idToken, {
      name: 'Hook',
      sku: 'HOOK-1',
      category_id: shelf.id,
      quantity: 5,
      price: 1,
      threshold: 0,
    });
    await server.api('POST', `/inventory/${item.id}/adjust`, manager.idToken, { delta: -1, reason: 'sale' });
    const adjusted = log.getByRole('row').filter({ hasText: 'stock.adjusted' });
    await adjusted.filter({ hasText: 'Delivered' }).waitFor({ timeout: 20_000 });
    expect(await adjusted.textContent()).toContain('200');
    const types = await log.getByRole('row').allTextContents();
    expect(types.findIndex((row) => row.includes('stock.adjusted'))).toBeLessThan(
      types.findIndex((row) => row.includes('Test event')),
    );
    await screenshot(page, 'integrations-delivery-log');
    expect(admin.errors).toEqual([]);
  });

  it('creates an API token, shown once, and lists it', async () => {
    const page = admin.page;
    await page.getByLabel('Token name').fill('Till 1');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByLabel('New API token').textContent({ timeout: 15_000 }))!;
    expect(token).toMatch(/^srk_/);
    await page
      .getByRole('table', { name: 'API tokens' })
      .getByRole('row')
      .filter({ hasText: 'Till 1' })
      .filter({ hasText: 'Ivy Integrator' })
      .waitFor();
    // The token works against the API with its permissions (View inventory by default).
    const res = await fetch(`${server.url}/api/inventory`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    await screenshot(page, 'integrations-token');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('a token whose answer is lost on the way: the retry gets the replay, which has no token, and the page says what to do', async () => {
    const page = admin.page;
    // The server creates the token and answers, but the answer never reaches the page: the
    // client retries with the same Idempotency-Key and the server replays its stored answer,
    // which keeps no token (secretShownOnce).
    let lost = false;
    await page.route('**/api/tokens', async (route) => {
      if (route.request().method() !== 'POST' || lost) return route.fallback();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    try {
      await page.getByLabel('Token name').fill('Till lost');
      await page.getByRole('button', { name: 'Create token' }).click();
      await seeText(page, /New API token: created, but the answer carrying it was lost on the way/);
      expect(lost).toBe(true);
      expect(await page.getByLabel('New API token').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
      await screenshot(page, 'integrations-token-lost');
      await page.getByRole('button', { name: 'Done' }).click();
      // Created once, listed once.
      await page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'Till lost' }).waitFor();
      expect(
        await page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: 'Till lost' }).count(),
      ).toBe(1);
    } finally {
      await page.unroute('**/api/tokens');
    }
  });

  it('limits an endpoint to a category; one that keeps failing is disabled and the header says so', async () => {
    const page = admin.page;
    const cellar = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Cellar' });
    const bakery = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Bakery' });
    const failing = await startReceiver();
    failing.mode = { kind: 'status', status: 503, retryAfter: '0' };
    try {
      await page.goto('/settings?tab=integrations');
      await page.getByLabel('Endpoint URL').fill(failing.url);
      await page.getByLabel('Description').fill('Cellar only');
      await page.getByRole('group', { name: 'Categories' }).getByLabel('Cellar').check();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('button', { name: 'Done' }).click({ timeout: 15_000 });
      const endpoints = await server.api<{ endpoints: { url: string; categoryIds: string[] }[] }>(
        'GET',
        '/webhooks',
        manager.idToken,
      );
      expect(endpoints.endpoints.find((e) => e.url === failing.url)?.categoryIds).toEqual([cellar.id]);

      await page.goto('/inventory');
      await server.api('POST', '/inventory', manager.idToken, {
        name: 'Sourdough',
        sku: `BK-${Date.now()}`,
        category_id: bakery.id,
        quantity: 5,
        price: 4,
        threshold: 1,
      });
      await server.api('POST', '/inventory', manager.idToken, {
        name: 'Cider',
        sku: `CL-${Date.now()}`,
        category_id: cellar.id,
        quantity: 5,
        price: 4,
        threshold: 1,
      });
      // The deliverer gives up after the retry window: a toast, and a pill in the header on every screen.
      const alert = page.getByRole('link', { name: 'Webhook disabled' });
      await alert.waitFor({ timeout: 30_000 });
      await seeText(page, 'A webhook endpoint was disabled after failing deliveries for too long');
      const names = failing.received.map(
        (r) => (r.payload.data.event as { data?: { name?: string } } | undefined)?.data?.name,
      );
      expect(names).toContain('Cider');
      expect(names).not.toContain('Sourdough');
      await screenshot(page, 'integrations-alert');
      await alert.click();
      await page.waitForURL('**/settings?tab=integrations');
      // The endpoint's banner names it (the toast, maybe still showing, does not).
      await page
        .getByRole('alert')
        .filter({ hasText: 'disabled after failing deliveries for too long' })
        .filter({ hasText: failing.url })
        .waitFor();
      // Enabled again (after fixing the receiver), the alert goes.
      failing.mode = { kind: 'ok' };
      await page.getByRole('listitem').filter({ hasText: failing.url }).getByRole('button', { name: 'Enable' }).click();
      await alert.waitFor({ state: 'detached', timeout: 15_000 });
    } finally {
      await failing.close();
    }
  });

  it('has no Integrations tab for staff', async () => {
    const staffPage = await openPage(browser, server);
    await signIn(staffPage.page, staff.email!, staff.password!);
    await staffPage.page.goto('/settings');
    await staffPage.page.getByRole('tab', { name: 'General' }).waitFor();
    expect(await staffPage.page.getByRole('tab', { name: 'Integrations' }).count()).toBe(0);
    await staffPage.context.close();
  });
});
