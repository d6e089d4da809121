// End to end in Chromium: the wall display fits the screen it is on. At
// 1920x1080, 1280x720, 3840x2160 and portrait 1080x1920, in both themes: the page does not
// scroll either way, every row on view sits wholly inside its list (none cut mid-row), the
// ticker is on screen, type grows with the screen, and the long lists turn their pages by
// themselves so that every low-stock item and every category is shown within one rotation
// (the rotation is one second here through ?rotate=1; a wall uses the default). Screenshots
// of each size and theme go to test-results/screenshots/display-fit-<theme>-<size>.png.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, adjust, openPage, signIn } from './shared-steps.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
  { width: 3840, height: 2160 },
  { width: 1080, height: 1920 },
] as const;
const THEMES = ['light', 'dark'] as const;
const LOW_ITEMS = 30;
const CATEGORIES = 14;
const ROTATE_SECONDS = 1;

/** What is wrong with the layout on screen now: scrolling, rows cut by their list, lists or ticker off screen. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollHeight > window.innerHeight)
      problems.push(`the page is ${root.scrollHeight}px tall in a ${window.innerHeight}px window`);
    if (root.scrollWidth > window.innerWidth)
      problems.push(`the page is ${root.scrollWidth}px wide in a ${window.innerWidth}px window`);
    const inside = (inner: DOMRect, outer: DOMRect) =>
      inner.top >= outer.top - 0.5 &&
      inner.bottom <= outer.bottom + 0.5 &&
      inner.left >= outer.left - 0.5 &&
      inner.right <= outer.right + 0.5;
    const screen = new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const box = (e: Element) => e.getBoundingClientRect();
    const shown = (e: Element) => e.getClientRects().length > 0;
    for (const [list, row] of [
      ['display-alert-list', 'display-alert'],
      ['display-category-list', 'display-category'],
    ] as const) {
      const container = document.querySelector(`[data-testid="${list}"]`);
      if (!container) {
        problems.push(`no ${list}`);
        continue;
      }
      const panel = container.closest('section')!;
      if (!inside(box(container), box(panel))) problems.push(`${list} spills out of its panel`);
      if (!inside(box(panel), screen)) problems.push(`${list}'s panel is off screen`);
      const rows = [...container.querySelectorAll(`[data-testid="${row}"]`)].filter(shown);
      if (rows.length === 0) problems.push(`${list} shows no rows`);
      for (const r of rows)
        if (!inside(box(r), box(container)))
          problems.push(`${list}: "${(r.textContent ?? '').slice(0, 40)}" is cut by its list`);
    }
    const ticker = document.querySelector('.display-ticker');
    if (!ticker || !inside(box(ticker), screen)) problems.push('the latest-changes ticker is off screen');
    return problems;
  });
}

const visibleTexts = (page: Page, testId: string, part: string) =>
  page.evaluate(
    ([id, selector]) =>
      [...document.querySelectorAll(`[data-testid="${id}"]`)]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => e.querySelector(selector)?.textContent ?? ''),
    [testId, part] as const,
  );

/**
 * Watches the lists turn their pages until every name was on screen (or two rotations are
 * over, a margin for a busy machine), checking the layout of every page on the way.
 */
async function watchRotation(page: Page, wanted: { alerts: string[]; categories: string[] }) {
  const seen = { alerts: new Set<string>(), categories: new Set<string>() };
  const problems = new Set<string>();
  const pages = async (testId: string) =>
    Number(
      /of (\d+)/.exec(
        (await page
          .getByTestId(testId)
          .textContent()
          .catch(() => '')) ?? '',
      )?.[1] ?? 1,
    );
  const longest = Math.max(await pages('display-alert-pages'), await pages('display-category-pages'));
  const deadline = Date.now() + (2 * longest + 2) * ROTATE_SECONDS * 1000 + 5_000;
  while (
    Date.now() < deadline &&
    (seen.alerts.size < wanted.alerts.length || seen.categories.size < wanted.categories.length)
  ) {
    for (const name of await visibleTexts(page, 'display-alert', '.display-alert-name')) seen.alerts.add(name);
    for (const name of await visibleTexts(page, 'display-category', '.display-category-name'))
      seen.categories.add(name);
    for (const problem of await layoutProblems(page)) problems.add(problem);
    await page.waitForTimeout(150);
  }
  return { alerts: [...seen.alerts].sort(), categories: [...seen.categories].sort(), longest, problems: [...problems] };
}

describe('the wall display fits its screen', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  const lowNames: string[] = [];
  const categoryNames: string[] = [];
  const categories: Category[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Wanda Wall', 'manager');
    await server.api('PUT', '/settings', manager.idToken, { storeName: 'Harbour Street Store' });
    for (let c = 0; c < CATEGORIES; c++) {
      const name = `Aisle ${String(c + 1).padStart(2, '0')} ${['Dairy', 'Bakery', 'Produce', 'Frozen', 'Drinks', 'Household', 'Pet care'][c % 7]}`;
      categories.push(await addCategory(server, manager.idToken, name));
      categoryNames.push(name);
    }
    // More low-stock items than any screen has rows for; some out of stock, some with long names.
    for (let i = 0; i < LOW_ITEMS; i++) {
      const name = `${i % 4 === 0 ? 'Crème fraîche épaisse fermière bio, grand pot de' : 'Low item'} ${String(i + 1).padStart(2, '0')}`;
      await addItem(server, manager.idToken, categories[i % CATEGORIES]!, {
        name,
        quantity: i % 5 === 0 ? 0 : 1 + (i % 3),
        threshold: 5,
        price: 2.5 + i,
      });
      lowNames.push(name);
    }
    // A few well-stocked items and changes, so the ticker has something to say.
    const plenty = await addItem(server, manager.idToken, categories[0]!, {
      name: 'Plenty of Milk',
      quantity: 80,
      threshold: 5,
      price: 1.2,
    });
    await adjust(server, manager.idToken, plenty, -3, 'sale');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const theme of THEMES) {
    it(`fits 1920x1080, 1280x720, 4K and portrait in the ${theme} theme, and rotates through every low-stock item`, async () => {
      const { context, page, errors } = await openPage(browser, server, { theme, viewport: SIZES[0] });
      await page.goto(`/display?rotate=${ROTATE_SECONDS}`);
      await page.waitForURL('**/login');
      await signIn(page, manager.email!, manager.password!, /\/display\?rotate=1$/);
      await page.getByTestId('display-alert').first().waitFor();
      await seeText(page.getByTestId('display-alert-count'), String(LOW_ITEMS));
      const fontSizes: number[] = [];
      mkdirSync(SHOTS, { recursive: true });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        // The lists measure their rows again after a resize (a moment on a busy machine).
        await expect
          .poll(() => layoutProblems(page), { message: `${size.width}x${size.height}`, timeout: 5_000 })
          .toEqual([]);
        const seen = await watchRotation(page, { alerts: lowNames, categories: categoryNames });
        expect(seen.alerts, `low-stock items shown at ${size.width}x${size.height}`).toEqual([...lowNames].sort());
        expect(seen.categories, `categories shown at ${size.width}x${size.height}`).toEqual([...categoryNames].sort());
        // There are more rows than fit: the lists do turn pages, and say so.
        expect(seen.longest).toBeGreaterThan(1);
        await seeText(page.getByTestId('display-alert-pages'), /Page \d+ of \d+/);
        // Every page on the way was whole.
        expect(seen.problems, `${size.width}x${size.height} while rotating`).toEqual([]);
        // Enough rows on a page to be worth reading from across the room.
        expect((await visibleTexts(page, 'display-alert', '.display-alert-name')).length).toBeGreaterThanOrEqual(4);
        fontSizes.push(
          await page
            .getByTestId('display-alert')
            .first()
            .locator('.display-alert-name')
            .evaluate((e) => parseFloat(getComputedStyle(e).fontSize)),
        );
        await page.screenshot({ path: `${SHOTS}display-fit-${theme}-${size.width}x${size.height}.png` });
      }
      // Readable in this theme: no serious WCAG 2 A/AA problems (contrast of the page line too).
      const violations = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
      // Type follows the screen: a 4K wall reads like a 1080p one, twice the pixels.
      const [hd, small, uhd, portrait] = fontSizes as [number, number, number, number];
      expect(uhd).toBeGreaterThan(hd * 1.8);
      expect(small).toBeLessThan(hd);
      expect(portrait).toBeGreaterThan(hd * 0.8);
      // Live updates still arrive while the lists rotate: a new low item shows and the count follows.
      const name = `Fresh alert ${theme}`;
      const fresh = await addItem(server, manager.idToken, categories[0]!, {
        name,
        quantity: 0,
        threshold: 3,
        price: 1,
      });
      await seeText(page.getByTestId('display-alert-count'), String(LOW_ITEMS + 1));
      await page.getByTestId('display-alert').getByText(name).waitFor({ timeout: 10_000 });
      await server.api('DELETE', `/inventory/${fresh.id}`, manager.idToken);
      await seeText(page.getByTestId('display-alert-count'), String(LOW_ITEMS));
      expect(errors).toEqual([]);
      await context.close();
    }, 240_000);
  }
});
