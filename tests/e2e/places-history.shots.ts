// Screenshots of what the log, labels and time travel know about places, in the light and
// dark theme at desktop and phone width, saved to test-results/screenshots as places-*.png:
// Sites and locations with Print labels, a site's location labels, the activity log filtered
// to a location, and the Inventory as of a moment at a location (units there then).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Item } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { Location, Site } from '../../shared/sites.js';
import { launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn } from './shared-steps.js';

const THEMES = ['light', 'dark'] as const;
const DEVICES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describe('screenshots of places in labels, the log and time travel', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let back: Location;
  let asOf: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mona Manager', 'manager');
    const token = manager.idToken;
    const post = <T>(path: string, body: unknown) => server.api<T>('POST', path, token, body);
    back = await post<Location>('/locations', { site_id: MAIN_SITE_ID, name: 'Back room', code: 'BR' });
    await post('/locations', {
      site_id: MAIN_SITE_ID,
      parent_id: back.id,
      name: 'Shelf 2',
      code: 'S2',
      barcode: 'SHELF-0002',
    });
    const warehouse = await post<Site>('/sites', { name: 'Warehouse', code: 'WH', time_zone: 'Europe/Paris' });
    await post('/locations', { site_id: warehouse.id, name: 'Dock', code: 'DOCK' });
    const garden = await addCategory(server, token, 'Garden');
    const items: Item[] = [];
    for (const [name, quantity] of [
      ['Garden Hose 25 m', 14],
      ['Watering Can', 9],
      ['Pruning Shears', 6],
    ] as const)
      items.push(await addItem(server, token, garden, { name, quantity, threshold: 2, price: 12 }));
    const move = (item: Item, to: string, quantity: number, from = MAIN_LOCATION_ID) =>
      post('/moves', { itemId: item.id, fromLocationId: from, toLocationId: to, quantity });
    await move(items[0]!, back.id, 6);
    await move(items[1]!, back.id, 4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    asOf = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await move(items[0]!, MAIN_LOCATION_ID, 3, back.id);
    await move(items[2]!, back.id, 2);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/settings/places');
    await seeText(page, 'Shelf 2');
    await screenshot(page, 'places-sites');

    await page.goto(`/inventory/labels?site=${MAIN_SITE_ID}`);
    await page.getByRole('region', { name: 'Preview' }).locator('img').first().waitFor();
    await screenshot(page, 'places-location-labels');

    await page.goto(`/activity?siteId=${MAIN_SITE_ID}&locationId=${back.id}`);
    await seeText(page, 'Moved 2 Pruning Shears');
    await screenshot(page, 'places-activity-filter');

    await page.goto(`/inventory?asOf=${encodeURIComponent(asOf)}&siteId=${MAIN_SITE_ID}&locationId=${back.id}`);
    await page.getByTestId('as-of-quantity-here').first().waitFor();
    await screenshot(page, 'places-as-of-location');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots sites, location labels, the filtered log and stock as of a moment in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }
});
