// End to end in Chromium at phone width (390x844): every destination a role has is within
// reach. The bottom bar shows four entries and a More button; More opens
// a modal sheet (a dialog: focus moves in, Escape closes it and gives focus back to More)
// with the rest. A manager reaches all eight destinations, each click landing on its page;
// a staff member reaches exactly theirs. Nothing in the bar is squeezed to zero size.
// Screenshots of the bar and the open sheet in both themes: test-results/screenshots/
// nav-bar-<theme>-phone.png and nav-more-<theme>-phone.png.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn } from './shared-steps.js';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** Every destination of the main navigation and where it leads. */
const MANAGER_DESTINATIONS: Record<string, string> = {
  Dashboard: '/dashboard',
  Items: '/inventory',
  Transfers: '/transfers',
  Users: '/users',
  Logs: '/activity',
  Alerts: '/alerts',
  Count: '/stocktake',
  Roles: '/roles',
  Setup: '/settings',
};
const STAFF_DESTINATIONS = ['Dashboard', 'Items', 'Transfers', 'Logs', 'Alerts', 'Count', 'Setup'];

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const moreButton = (page: Page) => nav(page).getByRole('button', { name: 'More' });
const sheet = (page: Page) => page.getByRole('dialog', { name: 'More' });

/** Serious and critical WCAG 2 A/AA problems axe finds on the page. */
const axeProblems = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);

/** The bar's links and buttons as drawn: label and size, and whether each sits on screen. */
async function barControls(page: Page) {
  await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();
  return nav(page)
    .locator(':scope > ul a, :scope > ul button')
    .evaluateAll((controls) =>
      controls.map((c) => {
        const box = c.getBoundingClientRect();
        return {
          label: (c.textContent ?? '').trim(),
          width: box.width,
          height: box.height,
          onScreen: box.left >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
        };
      }),
    );
}

/** Labels a person can reach from the bar and from the More sheet (opened and closed again). */
async function reachableLabels(page: Page): Promise<string[]> {
  const bar = (await barControls(page)).filter((c) => c.width > 0 && c.height > 0).map((c) => c.label);
  const labels = bar.filter((label) => label !== 'More');
  if (bar.includes('More')) {
    await moreButton(page).click();
    await sheet(page).waitFor();
    labels.push(...(await sheet(page).getByRole('link').allTextContents()).map((t) => t.trim()));
    await page.keyboard.press('Escape');
    await sheet(page).waitFor({ state: 'hidden' });
  }
  return labels;
}

/** Goes to a destination the way a person would: its bar link, or More and then the link. */
async function goTo(page: Page, label: string): Promise<'bar' | 'more'> {
  // The bar is drawn (a page just loaded) before asking what is on it.
  await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();
  const inBar = nav(page).locator(':scope > ul').getByRole('link', { name: label, exact: true });
  if ((await inBar.count()) > 0) {
    await inBar.click();
    return 'bar';
  }
  await moreButton(page).click();
  await sheet(page).getByRole('link', { name: label, exact: true }).click();
  return 'more';
}

describe('phone navigation reaches every destination', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mia Manager');
    staff = await apiAccount(server, 'Sol Staff');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lets a manager reach all eight destinations from the bar or the More sheet, each click landing there', async () => {
    const { context, page, errors } = await openPage(browser, server, { viewport: PHONE });
    await signIn(page, manager.email!, manager.password!);
    // Five controls that fit the bar, none squeezed to nothing: four entries and More.
    const bar = await barControls(page);
    expect(bar.map((c) => c.label)).toEqual(['Dashboard', 'Items', 'Count', 'Alerts', 'More']);
    for (const control of bar) {
      expect(control.width, control.label).toBeGreaterThan(40);
      expect(control.height, control.label).toBeGreaterThan(40);
      expect(control.onScreen, control.label).toBe(true);
    }
    expect((await reachableLabels(page)).sort()).toEqual(Object.keys(MANAGER_DESTINATIONS).sort());

    const routes: Record<string, 'bar' | 'more'> = {};
    for (const [label, path] of Object.entries(MANAGER_DESTINATIONS)) {
      // Start somewhere else each time, so the click is what moves the page.
      const from = path === '/alerts' ? '/dashboard' : '/alerts';
      await page.goto(from);
      await page.waitForURL(`**${from}`);
      routes[label] = await goTo(page, label);
      await page.waitForURL(`**${path}`);
      expect(new URL(page.url()).pathname, label).toBe(path);
      // The page is there, not an access-denied or not-found screen.
      await page.getByRole('main').getByRole('heading').first().waitFor();
      expect(await page.getByText(/Access Denied|Page not found/i).count(), label).toBe(0);
      if (routes[label] === 'more') {
        // The sheet closed on the way; More is marked as where you are.
        expect(await sheet(page).count()).toBe(0);
        expect(await moreButton(page).getAttribute('class')).toContain('active');
      }
    }
    expect(
      Object.entries(routes)
        .filter(([, via]) => via === 'more')
        .map(([label]) => label),
    ).toEqual(['Transfers', 'Users', 'Logs', 'Roles', 'Setup']);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('opens More as an accessible dialog: focus moves in, Escape closes it and focus returns', async () => {
    const { context, page } = await openPage(browser, server, { viewport: PHONE });
    await signIn(page, manager.email!, manager.password!);
    const more = moreButton(page);
    expect(await more.getAttribute('aria-haspopup')).toBe('dialog');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await sheet(page).waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    // A modal dialog: focus is on its first link, and the page behind is inert.
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('dialog[open]') !== null && document.activeElement?.textContent,
      ),
    ).toBe('Transfers');
    expect(await page.evaluate(() => document.querySelector('dialog[open]')?.matches(':modal'))).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => document.activeElement === document.body || document.activeElement?.closest('dialog[open]') !== null,
        ),
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await sheet(page).waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('More');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    // The close button and a tap on the backdrop close it too.
    await more.click();
    await sheet(page).getByRole('button', { name: 'Close' }).click();
    await sheet(page).waitFor({ state: 'hidden' });
    await more.click();
    await sheet(page).waitFor();
    await page.mouse.click(200, 40);
    await sheet(page).waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    // Wider than a phone: the rail holds every entry and there is no More.
    await page.setViewportSize(DESKTOP);
    await nav(page).getByRole('link', { name: 'Roles' }).waitFor();
    expect((await nav(page).getByRole('link').allTextContents()).map((t) => t.trim())).toEqual(
      Object.keys(MANAGER_DESTINATIONS),
    );
    expect(await moreButton(page).count()).toBe(0);
    // And back: the bar follows the window without a reload.
    await page.setViewportSize(PHONE);
    await moreButton(page).waitFor();
    await context.close();
  }, 120_000);

  it('gives staff exactly their destinations at phone width, each reachable', async () => {
    const { context, page, errors } = await openPage(browser, server, { viewport: PHONE });
    await signIn(page, staff.email!, staff.password!);
    expect((await reachableLabels(page)).sort()).toEqual([...STAFF_DESTINATIONS].sort());
    for (const label of STAFF_DESTINATIONS) {
      const path = MANAGER_DESTINATIONS[label]!;
      await page.goto(path === '/alerts' ? '/dashboard' : '/alerts');
      await goTo(page, label);
      await page.waitForURL(`**${path}`);
      await page.getByRole('main').getByRole('heading').first().waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  for (const theme of ['light', 'dark'] as const) {
    it(`shows the bar and the More sheet in the ${theme} theme, with no axe problems (screenshot)`, async () => {
      const { context, page } = await openPage(browser, server, { viewport: PHONE, theme });
      await signIn(page, manager.email!, manager.password!);
      await page.goto('/roles');
      await page.getByRole('main').getByRole('heading').first().waitFor();
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}nav-bar-${theme}-phone.png` });
      expect(await axeProblems(page)).toEqual([]);
      await moreButton(page).click();
      await sheet(page).getByRole('link', { name: 'Roles' }).waitFor();
      // Let the slide-in finish, with the mouse off the links (it clicked More, under Setup).
      await page.mouse.move(200, 600);
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SHOTS}nav-more-${theme}-phone.png` });
      // Where you are is marked in the sheet too.
      expect(await sheet(page).getByRole('link', { name: 'Roles' }).getAttribute('aria-current')).toBe('page');
      // Readable and well-formed in this theme (axe sees only the dialog while it is modal).
      expect(await axeProblems(page)).toEqual([]);
      await context.close();
    }, 90_000);
  }
});
