// Toasts in Chromium: several stock saves each offer an Undo that names its
// change, and undoing the older one takes back that change only; low-stock alerts in a row
// collapse into one toast with a count; at 1280x800 and 390x844 no toast covers the header's
// Scan, Live, theme or user menu; and on a phone without signal each count shows "Waiting to
// send" on its own row, with one toast for all of them instead of one per count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import type { StocktakeSession } from '../../shared/stocktake.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, PHONE } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn, type OpenPage } from './shared-steps.js';

const DESKTOP_800 = { width: 1280, height: 800 };
type Box = { x: number; y: number; width: number; height: number };

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of the header's controls, by name: each must be on screen to be checked. */
async function headerControls(page: Page): Promise<Record<string, Box>> {
  const controls: Record<string, Locator> = {
    Scan: page.getByRole('button', { name: 'Scan a barcode' }),
    Live: page.locator('.live-indicator'),
    Theme: page.locator('.theme-toggle'),
    'User menu': page.locator('.user-menu-button'),
  };
  const boxes: Record<string, Box> = {};
  for (const [name, control] of Object.entries(controls)) {
    const box = await control.boundingBox();
    expect(box, `${name} is on screen`).not.toBeNull();
    boxes[name] = box!;
  }
  return boxes;
}

/** Every pair of a showing toast and a header control whose boxes meet ([] when none do). */
async function toastsOverHeader(page: Page): Promise<string[]> {
  const controls = await headerControls(page);
  const toasts = page.locator('.toast');
  const clashes: string[] = [];
  for (let i = 0; i < (await toasts.count()); i++) {
    const box = await toasts.nth(i).boundingBox();
    if (!box) continue;
    for (const [name, control] of Object.entries(controls)) {
      if (overlap(box, control))
        clashes.push(`toast "${(await toasts.nth(i).innerText()).split('\n')[0]}" covers ${name}`);
    }
  }
  return clashes;
}

describe('toasts', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let dairy: Category;
  let creme: Item;
  let butter: Item;
  let tab: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Tia Toast', 'manager');
    dairy = await addCategory(server, manager.idToken, 'Dairy');
    creme = await addItem(server, manager.idToken, dairy, {
      name: 'Crème fraîche 1 kg',
      quantity: 10,
      threshold: 2,
      price: 6,
    });
    butter = await addItem(server, manager.idToken, dairy, {
      name: 'Salted Butter 250 g',
      quantity: 8,
      threshold: 2,
      price: 3,
    });
    await addItem(server, manager.idToken, dairy, { name: 'Goat Cheese', quantity: 12, threshold: 2, price: 7 });
    tab = await openPage(browser, server, { viewport: DESKTOP_800 });
    await signIn(tab.page, manager.email!, manager.password!);
    await tab.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const quantity = async (item: Item) =>
    (await server.api<Item>('GET', `/inventory/${item.id}`, manager.idToken)).quantity;

  const openCategory = async (page: Page) => {
    await page.goto(`/inventory/category/${dairy.id}`);
    await page.getByRole('button', { name: `Increase quantity of ${butter.name}` }).waitFor({ timeout: 15_000 });
  };

  it('names the change on each Undo, and undoing the older save takes back that one only', async () => {
    const { page } = tab;
    await openCategory(page);
    const before = [await quantity(creme), await quantity(butter)];
    await page.getByRole('button', { name: `Decrease quantity of ${creme.name}` }).click();
    const undoCreme = page.getByRole('button', { name: 'Undo -1 Crème fraîche 1 kg', exact: true });
    await undoCreme.waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: `Increase quantity of ${butter.name}` }).click();
    const undoButter = page.getByRole('button', { name: 'Undo +1 Salted Butter 250 g', exact: true });
    await undoButter.waitFor({ timeout: 15_000 });
    // Both saves landed, and both toasts still offer their own Undo.
    expect([await quantity(creme), await quantity(butter)]).toEqual([before[0]! - 1, before[1]! + 1]);
    expect(await undoCreme.isVisible()).toBe(true);

    // Undo on the older toast: the crème fraîche goes back, the butter keeps its +1.
    await undoCreme.click();
    await expect.poll(() => quantity(creme), { timeout: 15_000 }).toBe(before[0]);
    await page
      .locator('.toast')
      .filter({ hasText: /Undone: .*Crème fraîche 1 kg/ })
      .waitFor({ timeout: 15_000 });
    expect(await quantity(butter)).toBe(before[1]! + 1);
    expect(await undoButter.isVisible()).toBe(true);
    expect(tab.errors).toEqual([]);
  });

  it('collapses low-stock alerts in a row into one toast with a count', async () => {
    const { page } = tab;
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.locator('.live-live').waitFor({ timeout: 15_000 });
    const low = await Promise.all(
      ['Whole Milk 1 l', 'Greek Yogurt 500 g', 'Double Cream 300 ml'].map((name) =>
        addItem(server, manager.idToken, dairy, { name, quantity: 6, threshold: 3, price: 2 }),
      ),
    );
    for (const item of low) await adjust(server, manager.idToken, item, -4, 'sale');
    const alerts = page.locator('.toast[data-group="stock-alerts"]');
    await expect
      .poll(
        () =>
          alerts
            .first()
            .innerText()
            .catch(() => ''),
        { timeout: 15_000 },
      )
      .toContain('3 items running low');
    expect(await alerts.count()).toBe(1);
    expect(await alerts.innerText()).toContain('Whole Milk 1 l, Greek Yogurt 500 g and Double Cream 300 ml');
    // No toast per item beside it.
    expect(await page.locator('.toast').filter({ hasText: 'Low stock:' }).count()).toBe(0);
    // It can be closed, and it is announced (a status in a polite live region).
    expect(await alerts.getAttribute('role')).toBe('status');
    expect(await page.locator('.toast-viewport').getAttribute('aria-live')).toBe('polite');
    await alerts.getByRole('button', { name: 'Dismiss notification' }).click();
    await alerts.waitFor({ state: 'detached' });
  });

  for (const [label, viewport] of [
    ['1280x800', DESKTOP_800],
    ['390x844', PHONE],
  ] as const) {
    it(`keeps toasts clear of Scan, Live, the theme switch and the user menu at ${label}`, async () => {
      const { page } = tab;
      await page.setViewportSize(viewport);
      await openCategory(page);
      // Three saves in a row: three toasts, each with its Undo.
      for (const [item, sign] of [
        [creme, 'Increase'],
        [butter, 'Decrease'],
        [creme, 'Increase'],
      ] as const) {
        await page.getByRole('button', { name: `${sign} quantity of ${item.name}` }).click();
      }
      await expect.poll(() => page.locator('.toast-action').count(), { timeout: 15_000 }).toBe(3);
      expect(await page.locator('.toast-action').allInnerTexts()).toEqual([
        'Undo +1 Crème fraîche 1 kg',
        'Undo -1 Salted Butter 250 g',
        'Undo +1 Crème fraîche 1 kg',
      ]);
      expect(await toastsOverHeader(page)).toEqual([]);
      // Still clear with the user menu open: the menu opens over the toasts, not under them.
      await page.locator('.user-menu-button').click();
      const profile = page.getByRole('menuitem', { name: 'Profile' });
      await profile.waitFor();
      expect(
        await page.evaluate(() => {
          const item = document.querySelector('.user-menu-panel [role="menuitem"]')!.getBoundingClientRect();
          return (
            document
              .elementFromPoint(item.x + item.width / 2, item.y + item.height / 2)
              ?.closest('.user-menu-panel') !== null
          );
        }),
      ).toBe(true);
      await page.locator('.user-menu-button').click();
      await profile.waitFor({ state: 'detached' });
    });
  }

  it('shows offline counts on their rows at phone width, with one toast for all of them', async () => {
    const session = await server.api<StocktakeSession>('POST', '/stocktakes', manager.idToken, {
      scope: 'category',
      categoryId: dairy.id,
      name: 'Dairy shelf',
    });
    const phone = await openPage(browser, server, { viewport: PHONE });
    const { page, context } = phone;
    await signIn(page, manager.email!, manager.password!);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto(`/stocktake/${session.id}`);
    for (const item of [creme, butter]) await page.getByLabel(`Count of ${item.name}`).waitFor({ timeout: 15_000 });
    await page.getByLabel('Count of Goat Cheese').waitFor();

    await context.setOffline(true);
    const counts: Array<[string, number]> = [
      [creme.name, 9],
      [butter.name, 7],
      ['Goat Cheese', 12],
    ];
    for (const [name, counted] of counts) {
      const field = page.getByLabel(`Count of ${name}`);
      await field.fill(String(counted));
      await field.press('Enter');
      // In place: the row itself says its count waits.
      await page
        .getByTestId('count-row')
        .filter({ hasText: name })
        .getByText(`Waiting to send: ${counted}`)
        .waitFor({ timeout: 15_000 });
    }
    await expect
      .poll(() => page.getByTestId('counts-waiting').textContent(), { timeout: 10_000 })
      .toContain('3 counts waiting to send');
    // One toast for the three, not one each, and it covers no header control.
    const toasts = page.locator('.toast');
    await expect
      .poll(
        () =>
          toasts
            .first()
            .innerText()
            .catch(() => ''),
        { timeout: 10_000 },
      )
      .toContain('3 counts waiting to send');
    expect(await toasts.count()).toBe(1);
    expect(await toastsOverHeader(page)).toEqual([]);

    // Back online: the counts are sent and the rows say so.
    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('counts-waiting').count(), { timeout: 30_000 }).toBe(0);
    const sent = await server.api<StocktakeSession>('GET', `/stocktakes/${session.id}`, manager.idToken);
    expect(
      Object.fromEntries(sent.lines.filter((l) => counts.some(([n]) => n === l.name)).map((l) => [l.name, l.counted])),
    ).toEqual(Object.fromEntries(counts));
    expect(phone.errors).toEqual([]);
    await context.close();
  });
});
