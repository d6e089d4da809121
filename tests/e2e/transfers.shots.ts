// Screenshots of transfers between sites: the Transfers list with one in transit, one partly
// received and a draft, a transfer's page while its units are in transit, a step's undo (the
// log's Revert, its dialog, the item's history), and the New transfer form, in the light and dark theme at desktop and phone width, saved to
// test-results/screenshots as transfers-*.png.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn } from './shared-steps.js';

const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of transfers', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let inTransit: string;
  let tapeId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    const api = <T = any>(method: string, path: string, body?: unknown) =>
      server.api<T>(method, path, manager.idToken, body);
    const warehouse = await api('POST', '/sites', { name: 'Harbour warehouse', code: 'WH', time_zone: 'UTC' });
    const dock = (await api('POST', '/locations', { site_id: warehouse.id, name: 'Dock', code: 'DOCK' })).id;
    const bay = (await api('POST', '/locations', { site_id: warehouse.id, name: 'Bay 7', code: 'B7' })).id;
    const back = (await api('POST', '/locations', { site_id: MAIN_SITE_ID, name: 'Back room', code: 'BACK' })).id;
    const shop = await api('POST', '/sites', { name: 'Shop 2, Old Town', code: 'S2', time_zone: 'UTC' });
    await api('POST', '/locations', { site_id: shop.id, name: 'Counter', code: 'CTR' });
    const garden = await api('POST', '/categories', { name: 'Garden' });
    const item = async (name: string, quantity: number, at: string) =>
      (
        await api('POST', '/inventory', {
          name,
          sku: name.toUpperCase().replace(/[^A-Z0-9]+/g, '-'),
          category_id: garden.id,
          quantity,
          price: 12.5,
          threshold: 2,
          location_id: at,
        })
      ).id as string;
    const hose = await item('Garden hose 25 m', 40, dock);
    const tape = await item('Thread seal tape', 120, dock);
    const can = await item('Watering can 10 l', 18, bay);
    const gloves = await item('Work gloves L', 60, bay);
    const transfer = async (toSiteId: string, lines: Array<[string, string, number]>, note?: string) =>
      (
        await api('POST', '/transfers', {
          fromSiteId: warehouse.id,
          toSiteId,
          ...(note ? { note } : {}),
          lines: lines.map(([itemId, fromLocationId, quantity]) => ({ itemId, fromLocationId, quantity })),
        })
      ).id as string;
    const done = await transfer(MAIN_SITE_ID, [[gloves, bay, 10]]);
    await api('POST', `/transfers/${done}/ship`);
    await api('POST', `/transfers/${done}/receive`, { toLocationId: back, lines: [{ itemId: gloves, quantity: 10 }] });
    const partly = await transfer(shop.id, [
      [tape, dock, 30],
      [can, bay, 4],
    ]);
    await api('POST', `/transfers/${partly}/ship`);
    await api('POST', `/transfers/${partly}/receive`, {
      toLocationId: (await api<Array<{ id: string; siteId: string }>>('GET', '/locations')).find(
        (l) => l.siteId === shop.id,
      )!.id,
      lines: [{ itemId: tape, quantity: 30 }],
    });
    // A receipt at the counter undone (its tape back in transit), then received again.
    const counter = (await api<Array<{ id: string; siteId: string }>>('GET', '/locations')).find(
      (l) => l.siteId === shop.id,
    )!.id;
    const receipts = await api<{ entries: Array<{ eventId: string; eventType: string }> }>('GET', '/activity?limit=5');
    const receipt = receipts.entries.find((e) => e.eventType === 'TransferReceived')!;
    await api('POST', `/events/${receipt.eventId}/revert`, { reason: 'Counted at the wrong shop' });
    await api('POST', `/transfers/${partly}/receive`, {
      toLocationId: counter,
      lines: [{ itemId: tape, quantity: 30 }],
    });
    tapeId = tape;
    inTransit = await transfer(
      MAIN_SITE_ID,
      [
        [hose, dock, 12],
        [tape, dock, 24],
        [can, bay, 6],
      ],
      'For the spring window display',
    );
    await api('POST', `/transfers/${inTransit}/ship`);
    await transfer(shop.id, [[gloves, bay, 20]]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/transfers');
    await seeText(page, 'units in transit');
    await screenshot(page, 'transfers-list');

    await page.goto(`/transfers/${inTransit}`);
    await seeText(page, 'For the spring window display');
    await screenshot(page, 'transfers-detail');

    await page.getByRole('button', { name: 'Receive' }).click();
    await page.getByRole('dialog', { name: /Receive transfer/ }).waitFor();
    await screenshot(page, 'transfers-receive');
    await page.keyboard.press('Escape');

    // Undo of a step: the log's Revert on a shipment, its dialog, and an item's history.
    await page.goto('/activity');
    await seeText(page, 'Undid the receipt of 30 units');
    await screenshot(page, 'transfers-undo-log');
    await page.getByRole('button', { name: /^Revert: Shipped transfer #3/ }).click();
    await page.getByRole('dialog', { name: 'Revert change' }).getByText('Every unit goes back').waitFor();
    await screenshot(page, 'transfers-undo-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`/inventory/${tapeId}`);
    await seeText(page, 'Undid the receipt of transfer #2');
    await screenshot(page, 'transfers-undo-history');

    await page.goto('/transfers/new');
    await page.getByLabel('From site').selectOption({ label: 'Harbour warehouse' });
    await page.getByRole('group', { name: 'Line 1' }).getByLabel('Item').selectOption({ index: 1 });
    await screenshot(page, 'transfers-new');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots the list, a transfer in transit, receiving and the form in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }
});
