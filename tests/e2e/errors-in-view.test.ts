// End to end in Chromium: an error shows where the user is looking. A bad
// EAN check digit, a negative quantity and a refusal the server names a field for show under
// that input, which takes focus and is in view (not in a box at the top, scrolled away); a
// second revert says who reverted the change and when, readably, with Revert disabled; a
// new webhook's one-time secret comes into view, badged "Shown once". Each in the light and
// dark theme at desktop and phone width, with a screenshot of what the user sees.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import type { Category, Item } from '../../shared/inventory.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

const shotsDir = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** What the user sees (the viewport, not the whole page): where the page was left scrolled matters here. */
async function viewportShot(page: Page, screen: string, theme: string, device: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  await page.waitForTimeout(150); // entrance animations settle
  await page.screenshot({ path: path.join(shotsDir, `${screen}-${theme}-${device}.png`) });
}

/** The element's box lies wholly inside the viewport. */
async function inViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return (
      box.height > 0 &&
      box.top >= 0 &&
      box.left >= 0 &&
      box.bottom <= window.innerHeight &&
      box.right <= window.innerWidth
    );
  });
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** The input is marked invalid, has focus, is in view, and the message under it is read with it. */
async function expectErrorAtField(page: Page, inputId: string, message: string | RegExp): Promise<void> {
  const input = page.locator(`#${inputId}`);
  const error = page.locator(`#${inputId}-error`);
  await error.waitFor({ state: 'visible', timeout: 15_000 });
  if (typeof message === 'string') expect(await error.textContent()).toBe(message);
  else expect(await error.textContent()).toMatch(message);
  expect(await input.getAttribute('aria-invalid')).toBe('true');
  expect((await input.getAttribute('aria-describedby'))?.split(' ')).toContain(`${inputId}-error`);
  expect(await focusedId(page)).toBe(inputId);
  expect(await inViewport(input)).toBe(true);
  expect(await inViewport(error)).toBe(true);
  // Next to the field: just under it, not in a box somewhere else on the page.
  const [inputBox, errorBox] = [await input.boundingBox(), await error.boundingBox()];
  expect(errorBox!.y - (inputBox!.y + inputBox!.height)).toBeGreaterThanOrEqual(0);
  expect(errorBox!.y - (inputBox!.y + inputBox!.height)).toBeLessThan(24);
  // And not repeated in an alert box above the form.
  expect(await page.locator('.error-box').count()).toBe(0);
}

describe('errors shown where the user looks', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let receiver: Receiver;
  let manager: TestAccount;
  let shelf: Category;
  let n = 0;

  beforeAll(async () => {
    [server, browser, receiver] = await Promise.all([startE2EServer(), launchBrowser(), startReceiver()]);
    manager = await apiAccount(server, 'Sam Manager', 'manager');
    shelf = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Pantry' });
    // Endpoints already listed: the Integrations tab is long, its add form far below the list's top.
    for (let i = 0; i < 3; i++) {
      await server.api('POST', '/webhooks', manager.idToken, {
        url: `${receiver.url}?existing=${i}`,
        description: `Shop ${i + 1}`,
        eventTypes: ['*'],
      });
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  const newItem = (quantity = 10) =>
    server.api<Item>('POST', '/inventory', manager.idToken, {
      name: `Oat milk ${++n}`,
      sku: `OAT-${n}`,
      category_id: shelf.id,
      quantity,
      price: 2.5,
      threshold: 2,
    });

  describe.each([
    { theme: 'light', device: 'desktop', viewport: DESKTOP },
    { theme: 'dark', device: 'desktop', viewport: DESKTOP },
    { theme: 'light', device: 'phone', viewport: PHONE },
    { theme: 'dark', device: 'phone', viewport: PHONE },
  ] as const)('$theme theme, $device', ({ theme, device, viewport }) => {
    let open: OpenPage;
    const shot = (screen: string) => viewportShot(open.page, screen, theme, device);

    beforeAll(async () => {
      open = await openPage(browser, server, { theme, viewport });
      await signIn(open.page, manager.email!, manager.password!);
    }, 120_000);
    afterAll(() => open?.context.close());

    /** The /inventory/add form filled in as valid, but for `over` (input id -> value). */
    async function fillAddForm(page: Page, over: Record<string, string> = {}): Promise<void> {
      await page.goto('/inventory/add');
      const values: Record<string, string> = {
        'add-name': 'Rye bread',
        'add-sku': `RYE-${theme}-${device}-${++n}`,
        'add-barcode': '',
        'add-price': '3.20',
        'add-quantity': '8',
        'add-threshold': '2',
        ...over,
      };
      await page.locator('#add-categoryId').selectOption({ label: 'Pantry' });
      for (const [id, value] of Object.entries(values)) await page.locator(`#${id}`).fill(value);
    }

    it('a wrong EAN check digit shows under the barcode field, which takes focus in view', async () => {
      const page = open.page;
      await fillAddForm(page, { 'add-barcode': '4006381333932' }); // the right check digit is 1
      await page.getByRole('button', { name: 'Add Item' }).click(); // at the bottom of the form
      await expectErrorAtField(page, 'add-barcode', 'Barcode check digit is wrong (EAN-13, expected 1)');
      await shot('item-form-barcode-error');
      // Fixing it takes the message away.
      await page.locator('#add-barcode').fill('4006381333931');
      expect(await page.locator('#add-barcode-error').count()).toBe(0);
      expect(await page.locator('#add-barcode').getAttribute('aria-invalid')).toBeNull();
    });

    it('a negative quantity says it cannot be negative, at the quantity field (add and edit)', async () => {
      const page = open.page;
      await fillAddForm(page, { 'add-quantity': '-3' });
      await page.getByRole('button', { name: 'Add Item' }).click();
      await expectErrorAtField(page, 'add-quantity', 'Quantity cannot be negative');

      const item = await newItem();
      await page.goto(`/inventory/${item.id}/edit`);
      await page.locator('#edit-quantity').fill('-1');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expectErrorAtField(page, 'edit-quantity', 'Quantity cannot be negative');
      await shot('item-form-negative-quantity');
      expect((await server.api<Item>('GET', `/inventory/${item.id}`, manager.idToken)).quantity).toBe(10);
    });

    it('a refusal from the server lands at the field it names (item and category forms)', async () => {
      const page = open.page;
      // Nothing in the form checks a name's length: the server's 400 names the field.
      const item = await newItem();
      await page.goto(`/inventory/${item.id}/edit`);
      await page.locator('#edit-name').fill('n'.repeat(201));
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expectErrorAtField(page, 'edit-name', 'Name can have at most 200 characters');

      await page.goto('/inventory');
      await page.getByRole('button', { name: 'Add Category' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Category' });
      await dialog.locator('#category-name').fill('pantry'); // taken (names are compared without case)
      await dialog.getByRole('button', { name: 'Add Category' }).click();
      await expectErrorAtField(page, 'category-name', 'Category already exists');
      await shot('category-form-name-taken');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    it('a second revert says who reverted it and when, readably, and its Revert button is disabled', async () => {
      const page = open.page;
      const item = await newItem();
      const sold = await server.api<Item>('POST', `/inventory/${item.id}/adjust`, manager.idToken, {
        delta: -2,
        reason: 'sale',
      });
      await page.goto(`/inventory/${item.id}`);
      // The sale's own entry (the revert's entry, added later, cites the sale too).
      const entry = page
        .locator('li.history-entry')
        .filter({ has: page.getByText('Stock −2 · Sale', { exact: true }) });
      await entry.getByRole('button', { name: 'Revert' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revert change' });
      const revert = dialog.getByRole('button', { name: 'Revert', exact: true });
      await revert.waitFor();
      expect(await revert.isDisabled()).toBe(false);

      // Someone reverts it first (here: the same manager in another tab, through the API).
      const change = await server.api<{ eventId: string }>(
        'GET',
        `/history/change-at?streamId=item-${item.id}&version=${sold.version}`,
        manager.idToken,
      );
      await server.api('POST', `/events/${change.eventId}/revert`, manager.idToken, {});

      await revert.click();
      const notice = dialog.getByRole('status').filter({ hasText: 'Already reverted' });
      await notice.waitFor({ timeout: 15_000 });
      const text = (await notice.textContent())!;
      // The app's date format (formatDateTime: 'Nov 26, 2026, 2:05 PM'), never the raw ISO time.
      expect(text).toMatch(/^Already reverted by Sam Manager on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M\./);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect(await revert.isDisabled()).toBe(true);
      // Styled: a tinted box, not bare text.
      expect(await notice.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
      expect(await notice.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await inViewport(notice)).toBe(true);
      await shot('revert-already-reverted');
      await dialog.locator('footer').getByRole('button', { name: 'Close' }).click();
      // The entry behind now says it was reverted, with no Revert button.
      await entry.getByText(/^Reverted by Sam Manager on /).waitFor({ timeout: 15_000 });
      expect(await entry.getByRole('button', { name: 'Revert' }).count()).toBe(0);
    });

    it("a new webhook's one-time secret comes into view with a 'shown once' notice", async () => {
      const page = open.page;
      await page.goto('/settings?tab=integrations');
      await page.getByLabel('Endpoint URL').fill(`${receiver.url}?theme=${theme}&device=${device}`);
      await page.getByRole('button', { name: 'Add endpoint' }).click(); // far below the list, where the secret appears
      const secret = page.getByRole('status').filter({ hasText: 'Signing secret' });
      await secret.waitFor({ timeout: 15_000 });
      expect(await page.getByLabel('Signing secret').textContent()).toMatch(/^whsec_/);
      expect(await secret.textContent()).toMatch(/shown once/i);
      expect(await secret.textContent()).toContain('it will not be shown again');
      const box = (await secret.boundingBox())!;
      const size = page.viewportSize()!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height);
      expect(await secret.evaluate((el) => el === document.activeElement)).toBe(true);
      await shot('webhook-secret-shown-once');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByLabel('Signing secret').waitFor({ state: 'detached' });
      expect(open.errors).toEqual([]);
    });
  });

  it('the Add Item wizard sends a refused barcode back to its step, at the field, focused', async () => {
    const open = await openPage(browser, server);
    try {
      await signIn(open.page, manager.email!, manager.password!);
      const page = open.page;
      await page.goto('/inventory');
      await page.getByRole('button', { name: 'Add Item' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Item' });
      await dialog.locator('#wizard-name').fill('Spelt flour');
      await dialog.locator('#wizard-sku').fill('SPELT-1');
      await dialog.locator('#wizard-barcode').fill('96385075'); // EAN-8 with a wrong check digit (4 is right)
      await dialog.locator('#wizard-categoryId').selectOption({ label: 'Pantry' });
      await dialog.getByRole('button', { name: 'Next' }).click();
      await dialog.locator('#wizard-price').fill('4');
      await dialog.getByRole('button', { name: 'Next' }).click();
      await dialog.locator('#wizard-quantity').fill('5');
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expectErrorAtField(page, 'wizard-barcode', 'Barcode check digit is wrong (EAN-8, expected 4)');
      expect(open.errors).toEqual([]);
    } finally {
      await open.context.close();
    }
  });
});
