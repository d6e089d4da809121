// End to end in Chromium, small things a user would notice on several screens: a barcode
// scanned on the dashboard opens the item; the header says Offline in words
// at once when the network goes (the browser's offline event, or a request that gets no
// answer) and Online when it is back; the store as of a moment shows padded category cards
// saying '1 item'; /api/docs is a page listing the operations, drawn from this server alone;
// a store hours old shows no revenue forecast and says why; the dark theme's 'Enabled'
// badge is readable (its contrast ratio computed here); an item running low says how far
// above the threshold it is, not '100%'. Last, every changed screen is photographed in both
// themes at desktop and phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { typeLikeScanner } from '../helpers/hardware-scanner.js';
import { addCategory, adjust, openPage, signIn, type OpenPage } from './shared-steps.js';

const TEA_CODE = '5901234123457';

/** WCAG contrast ratio of an element's text against what is really behind it (its own and its ancestors' backgrounds, composited). */
function contrastOf(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const rgba = (css: string): [number, number, number, number] => {
      const srgb = /color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)/.exec(css);
      if (srgb)
        return [
          Number(srgb[1]) * 255,
          Number(srgb[2]) * 255,
          Number(srgb[3]) * 255,
          srgb[4] === undefined ? 1 : Number(srgb[4]),
        ];
      const parts = /rgba?\(([^)]+)\)/
        .exec(css)![1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const over = (top: number[], under: number[]) =>
      [0, 1, 2].map((i) => top[i]! * top[3]! + under[i]! * (1 - top[3]!));
    const layers: number[][] = [];
    for (let node: Element | null = el; node; node = node.parentElement) {
      const bg = rgba(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    const background = layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
    const text = over(rgba(getComputedStyle(el).color), background);
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [hi, lo] = [luminance(text), luminance(background)].sort((a, b) => b - a);
    return (hi! + 0.05) / (lo! + 0.05);
  });
}

describe('details across screens: scanning, Offline, as-of cards, API docs, forecast, badges', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let pantry: Category;
  let tea: Item;
  let moment: string;
  let tab: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Cora Corners', 'manager');
    pantry = await addCategory(server, manager.idToken, 'Pantry');
    const bakery = await addCategory(server, manager.idToken, 'Bakery');
    // Green Tea runs low: 12 with a threshold of 10 (up to twice the threshold).
    tea = await server.api<Item>('POST', '/inventory', manager.idToken, {
      name: 'Green Tea',
      sku: 'PAN-001',
      category_id: pantry.id,
      quantity: 14,
      price: 3.5,
      threshold: 10,
      barcode: TEA_CODE,
    });
    for (const name of ['Sourdough', 'Rye Loaf']) {
      await server.api('POST', '/inventory', manager.idToken, {
        name,
        sku: `BAK-${name.length}`,
        category_id: bakery.id,
        quantity: 30,
        price: 4,
        threshold: 5,
      });
    }
    tea = await adjust(server, manager.idToken, tea, -2, 'sale');
    await server.api('POST', '/webhooks', manager.idToken, {
      url: 'http://127.0.0.1:9/stock-hook',
      description: 'Till sync',
      eventTypes: ['*'],
    });
    moment = new Date().toISOString();
    tab = await openPage(browser, server);
    await signIn(tab.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const badge = (page: Page) => page.locator('.live-indicator');

  it('opens the item a hardware scanner types on the dashboard', async () => {
    const { page } = tab;
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await typeLikeScanner(page, TEA_CODE);
    await page.waitForURL(`**/inventory/${tea.id}`);
    await page.getByRole('dialog').getByRole('heading', { name: 'Green Tea' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  }, 60_000);

  it('says Offline in words within a moment of the browser going offline, and Online when it is back', async () => {
    const { page, context } = tab;
    await page.goto('/dashboard');
    await expect.poll(() => badge(page).getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
    expect(await badge(page).innerText()).toBe('Online');
    await context.setOffline(true);
    try {
      // The feed's own check would take up to 65 s (its ping silence limit); the badge must not wait for it.
      await expect.poll(() => badge(page).getAttribute('aria-label'), { timeout: 5_000 }).toBe('Live updates: Offline');
      expect(await badge(page).innerText()).toBe('Offline');
    } finally {
      await context.setOffline(false);
    }
    await expect.poll(() => badge(page).getAttribute('aria-label'), { timeout: 30_000 }).toBe('Live updates: Online');
  }, 60_000);

  it('says Offline when a request gets no answer though the browser thinks it is online', async () => {
    const { page } = tab;
    await page.goto('/dashboard');
    await expect.poll(() => badge(page).getAttribute('aria-label'), { timeout: 20_000 }).toBe('Live updates: Online');
    await page.evaluate(() => {
      const w = window as unknown as { __seen: string[] };
      w.__seen = [];
      const record = () => {
        const label = document.querySelector('.live-indicator')?.getAttribute('aria-label') ?? '';
        if (w.__seen.at(-1) !== label) w.__seen.push(label);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    });
    // Every API request dies on the way (the live feed's socket is left alone, as a dead one would look).
    const api = '**/api/**';
    await page.route(api, (route) => route.abort('internetdisconnected'));
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Items' }).click();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen), { timeout: 15_000 })
        .toContain('Live updates: Offline');
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    } finally {
      await page.unroute(api);
    }
    await page.goto('/dashboard');
    await expect.poll(() => badge(page).getAttribute('aria-label'), { timeout: 30_000 }).toBe('Live updates: Online');
  }, 60_000);

  it("shows the store as of a moment with padded category cards that say '1 item'", async () => {
    const { page } = tab;
    await page.goto(`/inventory?asOf=${encodeURIComponent(moment)}`);
    await seeText(page, /Showing the store as of/);
    const card = page.getByTestId('category-card').filter({ hasText: 'Pantry' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/\b1 item\b/);
    expect(await card.innerText()).not.toContain('1 items');
    expect(await page.getByTestId('category-card').filter({ hasText: 'Bakery' }).innerText()).toMatch(/\b2 items\b/);
    await seeText(page, /^3 items · total value/);
    // The text sits inside the card, not against its border.
    const gap = await card.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const name = [...el.querySelectorAll('*')].find((n) => n.textContent === 'Pantry')!.getBoundingClientRect();
      return Math.min(name.left - box.left, name.top - box.top);
    });
    expect(gap).toBeGreaterThanOrEqual(12);
    // The link keeps the moment.
    expect(await card.getByRole('link').getAttribute('href')).toContain('asOf=');
  }, 60_000);

  it('serves /api/docs as a readable page listing the operations, from this server alone', async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, serviceWorkers: 'block' });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const cspErrors: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    await page.goto('/api/docs');
    expect(await page.title()).toBe('Stockroom API reference');
    const operations = page.locator('.opblock');
    await operations.first().waitFor({ timeout: 20_000 });
    expect(await operations.count()).toBeGreaterThan(50);
    const adjustOp = page.locator('.opblock-post').filter({ hasText: '/api/inventory/{id}/adjust' });
    await adjustOp.first().waitFor();
    expect(await page.locator('.opblock-get').filter({ hasText: '/api/dashboard' }).count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows no revenue forecast from a store hours old, and says why', async () => {
    const { page } = tab;
    await page.goto('/dashboard');
    const card = page.getByRole('region', { name: 'Revenue Forecast' });
    await card.waitFor({ timeout: 15_000 });
    await seeText(card.getByTestId('revenue-value'), '$7.00');
    expect(await card.getByTestId('revenue-forecast').innerText()).toBe('No forecast yet');
    await seeText(card, "A forecast needs 7 days of sales; today is the store's first.");
  }, 60_000);

  it("draws the 'Enabled' badge readable in the dark theme and the light (contrast 4.5 or more)", async () => {
    for (const theme of ['dark', 'light'] as const) {
      const open = await openPage(browser, server, { theme });
      await signIn(open.page, manager.email!, manager.password!);
      await open.page.goto('/settings');
      await open.page.getByRole('tab', { name: 'Integrations' }).click();
      const enabled = open.page.locator('.endpoint-badge').filter({ hasText: 'Enabled' });
      await enabled.waitFor({ timeout: 15_000 });
      const ratio = await contrastOf(enabled);
      expect(ratio, `${theme} theme: contrast ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(4.5);
      await open.context.close();
    }
  }, 90_000);

  it("says how far a running-low item is above its threshold, not '100%'", async () => {
    const { page } = tab;
    await page.goto(`/inventory/${tea.id}`);
    const panel = page.getByRole('region', { name: 'Stock Status' });
    await panel.waitFor();
    await seeText(panel, 'Running low');
    expect(await panel.getByTestId('stock-standing').innerText()).toBe('2 above threshold');
    expect(await panel.innerText()).not.toContain('100%');
    // 12 of a bar that runs to twice the threshold (20).
    const width = await panel
      .locator('.meter-fill')
      .evaluate((el) => el.getBoundingClientRect().width / el.parentElement!.getBoundingClientRect().width);
    expect(width).toBeCloseTo(0.6, 1);
  }, 60_000);

  it('photographs every changed screen in both themes at desktop and phone width', async () => {
    const csv = 'Name,SKU,Category,Qty,Price\nOat Milk,PAN-010,Pantry,12,2.40\nBagels,BAK-010,Bakery,20,0.90\n';
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context, errors } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
        await expect
          .poll(() => badge(page).getAttribute('aria-label'), { timeout: 20_000 })
          .toBe('Live updates: Online');
        await page.getByRole('button', { name: 'View as of…' }).click();
        await page.getByLabel('As of date and time').waitFor();
        await screenshot(page, 'corners-dashboard');
        await context.setOffline(true);
        await expect
          .poll(() => badge(page).getAttribute('aria-label'), { timeout: 5_000 })
          .toBe('Live updates: Offline');
        await screenshot(page, 'corners-offline');
        await context.setOffline(false);
        await expect
          .poll(() => badge(page).getAttribute('aria-label'), { timeout: 30_000 })
          .toBe('Live updates: Online');

        await page.goto(`/inventory?asOf=${encodeURIComponent(moment)}`);
        await page.getByTestId('category-card').first().waitFor();
        await screenshot(page, 'corners-as-of-inventory');
        await page.getByRole('link', { name: 'Compare with now' }).click();
        await page.getByTestId('changes-totals').waitFor({ timeout: 15_000 });
        await screenshot(page, 'corners-changes');

        await page.goto(`/inventory/${tea.id}`);
        await page.getByRole('region', { name: 'Stock Status' }).waitFor();
        await screenshot(page, 'corners-item');
        await page.locator('.history-entry').first().getByRole('button', { name: 'Revert' }).click();
        await page.getByRole('dialog').getByLabel('Why').fill('Counted twice at the till');
        await screenshot(page, 'corners-revert-why');
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

        await page.goto('/inventory/import');
        await page.getByLabel('CSV file').waitFor({ state: 'attached' });
        await screenshot(page, 'corners-import-upload');
        await page
          .getByLabel('CSV file')
          .setInputFiles({ name: 'stock.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
        await page.getByRole('heading', { name: 'Map columns' }).waitFor();
        await screenshot(page, 'corners-import-mapping');

        await page.goto('/settings');
        await page.getByRole('tab', { name: 'Integrations' }).click();
        await page.locator('.endpoint-badge').first().waitFor({ timeout: 15_000 });
        await screenshot(page, 'corners-integrations');

        await page.goto('/api/docs');
        await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
        await screenshot(page, 'corners-api-docs');
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 600_000);
});
