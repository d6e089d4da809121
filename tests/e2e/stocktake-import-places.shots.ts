// Screenshots of counting and importing at a place, in the light and dark theme at desktop and
// phone width, saved to test-results/screenshots as places-*.png: Start a count with Where to
// count (one location of a store with a warehouse), a count of a whole site with Counting at,
// and the import's column mapping with Site and Location columns.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { StocktakeSession } from '../../shared/stocktake.js';
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

const IMPORT_FILE = [
  'Name,SKU,Category,Price,Site,Location,Quantity',
  'Red Wine,RW-1,Cellar,12,MAIN,BR,5',
  'Red Wine,RW-1,Cellar,12,Warehouse,Bay 7,40',
  'White Wine,WW-1,Cellar,9,MAIN,TS,3',
  'Tonic Water,TW-1,Bar,1,Shop 9,,12',
].join('\n');

describe('screenshots of counting and importing at a place', () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let siteSession: StocktakeSession;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mia Manager', 'manager');
    const token = manager.idToken;
    const place = (body: object) => server.api<{ id: string }>('POST', '/locations', token, body);
    const warehouse = await server.api<{ id: string }>('POST', '/sites', token, {
      name: 'Warehouse',
      code: 'WH',
      time_zone: 'Europe/Paris',
    });
    await place({ site_id: warehouse.id, name: 'Dock', code: 'DOCK' });
    await place({ site_id: warehouse.id, name: 'Bay 7', code: 'BAY7' });
    const back = await place({ site_id: MAIN_SITE_ID, name: 'Back room', code: 'BR' });
    const shelf = await place({ site_id: MAIN_SITE_ID, parent_id: back.id, name: 'Top shelf', code: 'TS' });
    const cellar: Category = await addCategory(server, token, 'Cellar');
    const items: Item[] = [];
    for (const [name, quantity, price] of [
      ['Red Wine', 10, 12],
      ['White Wine', 6, 9],
      ['Rose Wine', 4, 10],
    ] as const)
      items.push(await addItem(server, token, cellar, { name, quantity, threshold: 2, price }));
    await server.api('POST', `/inventory/${items[0]!.id}/adjust`, token, {
      delta: 6,
      reason: 'restock',
      locationId: back.id,
    });
    await server.api('POST', `/inventory/${items[1]!.id}/adjust`, token, {
      delta: 2,
      reason: 'restock',
      locationId: shelf.id,
    });
    siteSession = await server.api<StocktakeSession>('POST', '/stocktakes', token, {
      scope: 'category',
      categoryId: cellar.id,
      siteId: MAIN_SITE_ID,
    });
    for (const [item, locationId, counted] of [
      [items[0]!, back.id, 5],
      [items[0]!, MAIN_LOCATION_ID, 10],
      [items[1]!, shelf.id, 2],
    ] as const)
      await server.api('POST', `/stocktakes/${siteSession.id}/counts`, token, {
        itemId: item.id,
        locationId,
        counted,
        countedAt: new Date().toISOString(),
      });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function shootScreens(page: Page): Promise<void> {
    await page.goto('/stocktake');
    await page.getByRole('button', { name: 'Start a count' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a count' });
    await dialog.getByRole('radio', { name: /Categories/ }).check();
    await dialog.getByRole('checkbox', { name: /Cellar/ }).check();
    await dialog.getByLabel('Location').selectOption({ label: 'Back room (BR)' });
    await seeText(dialog, 'and the 1 location inside it');
    await screenshot(page, 'places-stocktake-start');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/stocktake/${siteSession.id}`);
    await seeText(page, '3 of 5 counted');
    await screenshot(page, 'places-stocktake-site');
    await page.getByLabel('Counting at').selectOption({ label: 'Back room' });
    await page.getByLabel('Search the items to count by name, SKU or barcode').fill('rose');
    await page.getByLabel('Count of Rose Wine').waitFor();
    await screenshot(page, 'places-stocktake-counting-at');

    await page.goto('/inventory/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'stock-by-place.csv', mimeType: 'text/csv', buffer: Buffer.from(IMPORT_FILE, 'utf8') });
    await seeText(page, 'Map columns');
    await page.getByTestId('import-place-note').waitFor();
    await screenshot(page, 'places-import-mapping');
    await page.getByRole('button', { name: 'Check rows' }).click();
    await seeText(page, 'Site "Shop 9" does not exist', 30_000);
    await screenshot(page, 'places-import-review');
  }

  for (const theme of THEMES) {
    for (const [device, viewport] of DEVICES) {
      it(`shoots the stocktake start and session at a place and the import mapping in ${theme} at ${device} width`, async () => {
        const { context, page } = await openPage(browser, server, { theme, viewport });
        await signIn(page, manager.email!, manager.password!);
        await shootScreens(page);
        await context.close();
      }, 180_000);
    }
  }
});
