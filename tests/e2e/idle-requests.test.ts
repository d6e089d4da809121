// End to end in Chromium: no screen keeps asking the server for nothing.
// Every route of the client's route table (client/app/route-table.ts), bare and with each of
// its optional query parameters, is opened as a typed address by a signed-in manager; once
// the network is quiet the page is left alone for a few seconds, and the API requests it
// sends meanwhile may only be the known polls below (the live feed is a WebSocket, not
// requests), and its main thread must rest. /inventory/changes without ?from= used to ask
// for /api/changes about 60 times a second: its default moment was a new one on every
// render. The same mistake in the as-of time control (a draft reset to Date.now() after each
// render) kept a slow phone's CPU busy while it was open: checked at a throttled CPU.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APP_ROUTES, type AppRoute } from '../../client/app/route-table.js';
import { urlsOf, type RouteSamples } from '../helpers/app-route-urls.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, newAppContext, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { busyShare, openAndWatchIdle, TabPool, type IdleOptions } from '../helpers/idle-requests.js';
import { addCategory, addItem, adjust, signIn } from './shared-steps.js';

/** Tabs watched at once (one signed-in context): each screen is still watched alone in its tab. */
const TABS = 3;
const IDLE: IdleOptions = { quietMs: 700, settleMaxMs: 15_000, idleMs: 3_000 };

/**
 * The requests a screen may send while idle: the client's polls (grep setInterval and
 * `after:` in client/), each at most as often as it can fire in the idle window.
 * - GET /api/me: SessionWatch (client/app/session-watch.tsx) checks the role every 15 s
 *   (WATCH_EVERY_MS) and when the feed connects, on every signed-in screen and the display.
 * - GET /api/webhooks: the header's IntegrationsAlert takes one look 3 s after the shell
 *   mounts (FIRST_LOOK_MS), for those who manage settings; that can fall in the window.
 * - GET /api/dashboard/display: the wall display reads again every 60 s (REFRESH_EVERY_MS).
 * Not allowed, since no screen opens them by itself: the delivery log's 2 s refresh (only
 * while an endpoint's log is open) and the 5 s saved-copy recheck of live queries (only when
 * the service worker answered from its cache; the worker is blocked in these contexts).
 */
const KNOWN_POLLS: { request: RegExp; everyMs: number; firesOnce?: boolean }[] = [
  { request: /^GET \/api\/me$/, everyMs: 15_000 },
  { request: /^GET \/api\/webhooks$/, everyMs: 3_000, firesOnce: true },
  { request: /^GET \/api\/dashboard\/display$/, everyMs: 60_000 },
];

/** How many requests went to each path (the query left off, so a flood reads as one line). */
function countByPath(requests: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of requests) {
    const key = request.split('?')[0]!;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The idle requests beyond what the known polls may send: empty when the screen is quiet. */
function beyondPolls(requests: string[]): string[] {
  const extra: string[] = [];
  const used = new Map<RegExp, number>();
  for (const request of requests) {
    const poll = KNOWN_POLLS.find((p) => p.request.test(request));
    const allowed = poll ? (poll.firesOnce ? 1 : Math.ceil(IDLE.idleMs / poll.everyMs)) : 0;
    const count = poll ? (used.get(poll.request) ?? 0) + 1 : 1;
    if (poll) used.set(poll.request, count);
    if (count > allowed) extra.push(request);
  }
  return extra;
}

// Test names, fixed before the setup makes real ids: the placeholders stand in for them.
const NAMES: RouteSamples = { item: '{item}', category: '{category}', stocktake: '{stocktake}', moment: '{moment}' };
const CASES = (APP_ROUTES as readonly AppRoute[]).flatMap((route) =>
  urlsOf(route, NAMES).map((named, index) => ({ route, index, name: decodeURIComponent(named.url) })),
);

describe('every screen rests while nobody touches it', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const tabs = new TabPool();
  let manager: TestAccount;
  let samples: RouteSamples;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Ida Idle', 'manager');
    const category = await addCategory(server, manager.idToken, 'Pantry');
    const item = await addItem(server, manager.idToken, category, {
      name: 'Oat Flakes',
      quantity: 40,
      threshold: 5,
      price: 3,
    });
    const stocktake = await server.api<{ id: string }>('POST', '/stocktakes', manager.idToken, {
      scope: 'category',
      categoryId: category.id,
    });
    // A moment between the setup and a later change, so as-of screens differ from live.
    await new Promise((r) => setTimeout(r, 50));
    const moment = new Date().toISOString();
    await adjust(server, manager.idToken, item, -2, 'sale');
    samples = { item: item.id, category: category.id, stocktake: stocktake.id, moment };
    context = await newAppContext(browser, server);
    page = await context.newPage();
    await signIn(page, manager.email!, manager.password!);
    // The other tabs share the sign-in (same context, same stored Firebase session).
    for (const tab of [page, ...(await Promise.all(Array.from({ length: TABS - 1 }, () => context.newPage())))]) {
      tab.on('pageerror', (error) => errors.push(`${tab.url()}: ${error.message}`));
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Performance.enable');
      tabs.add({ page: tab, cdp });
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens each route bare, with each optional query parameter, and with all of them', () => {
    expect(CASES.filter((c) => c.route.path === '/inventory/changes').map((c) => c.name)).toEqual([
      '/inventory/changes',
      '/inventory/changes?from={moment}',
      '/inventory/changes?to={moment}',
      '/inventory/changes?from={moment}&to={moment}',
    ]);
  });

  // Each screen has a tab to itself while it is watched; a few tabs at a time keep the file fast.
  it.concurrent.each(CASES)(
    '$name sends no more than the known polls while idle',
    async ({ route, index }) => {
      const { url } = urlsOf(route, samples)[index]!;
      const report = await tabs.use((tab) => openAndWatchIdle(tab.page, tab.cdp, url, server.url, IDLE));
      const seen = `${url} (ended on ${report.finalPath}, ${report.settled ? `quiet after ${report.settleMs} ms` : 'never went quiet'}, busy ${Math.round(report.busy * 100)}%)`;
      // A hidden tab's timers are throttled, which could hide a loop: each is watched visible.
      expect(report.visible, seen).toBe(true);
      expect(
        countByPath(beyondPolls(report.requests)),
        `${seen}: API requests beyond the known polls in ${IDLE.idleMs} ms`,
      ).toEqual({});
      // A screen that re-renders itself in a loop keeps the main thread busy without asking the
      // server anything; an idle one runs a few timers (a few percent here).
      expect(report.busy, seen).toBeLessThan(0.5);
    },
    30_000,
  );

  it('shows the changes report when opened without ?from= (a bookmark or a typed address)', async () => {
    await page.goto('/inventory/changes');
    // The week before now: the item was created (40) and sold (-2) within it.
    await seeText(page, '1 created · 0 deleted · 0 changed · net stock +38');
    await seeText(page, 'Oat Flakes');
    await screenshot(page, 'changes-without-from');
  }, 30_000);

  it('keeps the time control still and its scrubber working while live on a slow phone', async () => {
    // On a CPU 20 times slower, a render takes more than a millisecond: the control used to
    // reset its draft to Date.now() after every render, which asked for another render (the
    // page's main thread never rested) and undid each move of the scrubber.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'View as of…' }).click();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    try {
      // This store is minutes old: once its day counts have come (and rendered at this
      // speed), the scrubber spans its history, from its first record.
      const scrubber = page.getByLabel('Scrub since the first record');
      await scrubber.waitFor({ timeout: 20_000 });
      // While live nothing re-renders the control by itself, so the moment its picker shows
      // (to the second) stays put: the render loop set it to the clock on every render.
      const picker = page.getByLabel('As of date and time');
      const picked = await picker.inputValue();
      const since = Date.now();
      // And the main thread comes to rest. On a loaded machine its busy share (wall time in
      // tasks) jumps about, the last of the opening work included: each second is measured
      // in turn, up to ten, until one is less than half busy.
      const shares: number[] = [];
      while (shares.length < 10 && !(shares.at(-1)! < 0.5)) shares.push(await busyShare(cdp, 1000));
      expect(
        Math.min(...shares),
        `busy share of each second: ${shares.map((s) => s.toFixed(2)).join(', ')}`,
      ).toBeLessThan(0.5);
      await page.waitForTimeout(Math.max(0, 3000 - (Date.now() - since)));
      expect(await picker.inputValue(), 'the moment the picker shows, 3 s later').toBe(picked);
      const first = Number(await scrubber.getAttribute('min'));
      await scrubber.focus();
      await page.keyboard.press('End');
      await page.waitForTimeout(300);
      await page.keyboard.press('Home');
      // On a throttled CPU the URL follows the scrubber a step or two late: wait for it to settle
      // on the first record (the earliest moment that has anything to show).
      const shown = () => {
        const asOf = new URL(page.url()).searchParams.get('asOf');
        return asOf ? Date.parse(asOf) : null;
      };
      await expect.poll(shown, { timeout: 20_000 }).toBe(first);
      await page.getByRole('status').filter({ hasText: 'Showing the store as of' }).waitFor();
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  }, 60_000);

  it('throws no page errors on any screen', () => {
    expect(errors).toEqual([]);
  });
});
