// Stock at places on the screens, end to end in headless Chromium against the real server:
// the Inventory page's site picker filters the list to a site and a location (quantity here,
// in the URL, remembered by the browser) and follows a change live; the item page shows its
// quantities by site and location, and its Move dialog moves stock (a refusal of the server
// under the quantity, the table and another page's list following live); "Where is it" lists
// the locations; a hardware scanner reading a shelf label makes its location active, and an
// item scanned next is put away there (+1, and Move here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category, Item, ItemLocations } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { Location, Site } from '../../shared/sites.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { typeLikeScanner } from '../helpers/hardware-scanner.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

const MATCHES_EAN = '5901234123457';

describe('stock at places on the screens', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let open: OpenPage;
  let page: Page;
  let warehouse: Site;
  let backRoom: Location;
  let shelfA: Location;
  let lampOil: Item;
  let matches: Item;

  const api = <T>(method: string, path: string, body?: unknown) => server.api<T>(method, path, manager.idToken, body);
  const levels = async (item: Item) =>
    Object.fromEntries(
      (await api<ItemLocations>('GET', `/inventory/${item.id}/locations`)).locations.map((l) => [
        l.locationName,
        l.quantity,
      ]),
    );
  const placeRows = (scope: Page) => scope.getByTestId('item-places').getByTestId('place-row');
  /** The item page's table, location by location: [name and code, quantity]. */
  const tableRows = (scope: Page) =>
    placeRows(scope).evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('th')!.textContent, Number(row.querySelector('td')!.textContent)]),
    );

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Pia Placer', 'manager');
    const location = (site_id: string, name: string, code: string, barcode: string | null = null) =>
      api<Location>('POST', '/locations', { site_id, parent_id: null, name, code, barcode });
    backRoom = await location(MAIN_SITE_ID, 'Back room', 'BACK', 'LOC-BACK-1');
    shelfA = await location(MAIN_SITE_ID, 'Shelf A', 'SHELF-A');
    warehouse = await api<Site>('POST', '/sites', { name: 'Warehouse', code: 'WH', time_zone: 'UTC', address: '' });
    const dock = await location(warehouse.id, 'Dock', 'DOCK');
    const category = await api<Category>('POST', '/categories', { name: 'Camping' });
    const add = (name: string, sku: string, quantity: number, more: Record<string, unknown> = {}) =>
      api<Item>('POST', '/inventory', {
        name,
        sku,
        category_id: category.id,
        quantity,
        price: 4,
        threshold: 1,
        ...more,
      });
    lampOil = await add('Lamp Oil', 'CMP-1', 10);
    await api('POST', `/inventory/${lampOil.id}/adjust`, { delta: 4, reason: 'restock', locationId: backRoom.id });
    await add('Wick', 'CMP-2', 3, { location_id: dock.id });
    matches = await add('Matches', 'CMP-3', 5, { barcode: MATCHES_EAN });
    open = await openPage(browser, server);
    page = open.page;
    await signIn(page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('filters the list by site and location, shows quantity here, follows changes live, remembers the site', async () => {
    await page.goto('/inventory');
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    const rows = page.getByTestId('placed-row');
    const here = (name: string) => rows.filter({ hasText: name }).getByTestId('quantity-here');

    await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Warehouse' });
    await here('Wick').filter({ hasText: /^3$/ }).waitFor();
    expect(await rows.filter({ hasText: 'Lamp Oil' }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('siteId')).toBe(warehouse.id);

    await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Main store' });
    await here('Lamp Oil').filter({ hasText: /^14$/ }).waitFor();
    expect(await rows.filter({ hasText: 'Wick' }).count()).toBe(0);
    await page.getByLabel('Location', { exact: true }).selectOption({ label: 'Back room' });
    await here('Lamp Oil').filter({ hasText: /^4$/ }).waitFor();
    expect(await rows.filter({ hasText: 'Matches' }).count()).toBe(0);
    const url = new URL(page.url());
    expect([url.searchParams.get('siteId'), url.searchParams.get('locationId')]).toEqual([MAIN_SITE_ID, backRoom.id]);

    // A change made elsewhere shows without a reload: here, and the total beside it.
    await api('POST', `/inventory/${lampOil.id}/adjust`, { delta: 2, reason: 'restock', locationId: backRoom.id });
    await here('Lamp Oil').filter({ hasText: /^6$/ }).waitFor({ timeout: 15_000 });
    expect(await rows.filter({ hasText: 'Lamp Oil' }).getByTestId('quantity-total').textContent()).toBe('16 in all');

    // -/+ here change the stock here.
    await page.getByRole('button', { name: 'Increase quantity of Lamp Oil here' }).click();
    await here('Lamp Oil').filter({ hasText: /^7$/ }).waitFor();
    await expect.poll(() => levels(lampOil)).toMatchObject({ 'Back room': 7, 'Main location': 10 });
    await page.getByRole('button', { name: 'Decrease quantity of Lamp Oil here' }).click();
    await here('Lamp Oil').filter({ hasText: /^6$/ }).waitFor();

    // The browser remembers the site: Inventory opens on it.
    await page.goto('/inventory');
    await here('Lamp Oil').filter({ hasText: /^16$/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('siteId')).toBe(MAIN_SITE_ID);
    expect(await page.getByLabel('Site', { exact: true }).inputValue()).toBe(MAIN_SITE_ID);
    expect(open.errors).toEqual([]);
  }, 120_000);

  it("shows the item's stock by location and moves stock with the Move dialog, live on another page", async () => {
    await page.goto(`/inventory/${lampOil.id}`);
    await page.getByRole('heading', { level: 1, name: 'Lamp Oil' }).waitFor();
    await expect
      .poll(() => tableRows(page))
      .toEqual([
        ['Back roomBACK', 6],
        ['Main locationMAIN', 10],
      ]);

    // Another page lists what is on Shelf A: nothing yet.
    const other = await open.context.newPage();
    await other.goto(`/inventory?siteId=${MAIN_SITE_ID}&locationId=${shelfA.id}`);
    await other.getByText('Nothing here yet').waitFor();

    await page.getByRole('button', { name: 'Move stock' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move stock' });
    await dialog.getByLabel('From').selectOption(backRoom.id);
    await dialog.getByLabel('To').selectOption({ label: 'Shelf A' });
    await dialog.getByLabel('Quantity').fill('9');
    await dialog.getByRole('button', { name: 'Move stock' }).click();
    // The server's refusal, under the input it is about.
    const quantity = dialog.getByLabel('Quantity');
    await dialog.getByText('Insufficient stock at Back room: 6 there').waitFor();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    expect(await quantity.getAttribute('aria-describedby')).toContain('move-quantity-error');

    await quantity.fill('4');
    await dialog.getByRole('button', { name: 'Move stock' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
    await page.getByText('Moved 4 Lamp Oil from Back room to Shelf A').waitFor();
    await expect
      .poll(() => tableRows(page))
      .toEqual([
        ['Back roomBACK', 2],
        ['Main locationMAIN', 10],
        ['Shelf ASHELF-A', 4],
      ]);
    await other
      .getByTestId('placed-row')
      .filter({ hasText: 'Lamp Oil' })
      .getByTestId('quantity-here')
      .filter({ hasText: /^4$/ })
      .waitFor({ timeout: 15_000 });
    expect(await levels(lampOil)).toMatchObject({ 'Back room': 2, 'Shelf A': 4, 'Main location': 10 });
    await other.close();
  }, 120_000);

  it('answers "Where is it" in one click from the item page and from a list row', async () => {
    await page.getByRole('button', { name: 'Where is it' }).click();
    let where = page.getByTestId('where-is-it');
    await where.getByText('Shelf A').waitFor();
    const text = (await where.textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('Main store16');
    expect(text).toContain('Back roomBACK2');
    expect(text).toContain('Main locationMAIN10');
    expect(text).toContain('Shelf ASHELF-A4');
    expect(text).toContain('Total16');
    await page.keyboard.press('Escape');
    await where.waitFor({ state: 'hidden' });

    await page.goto(`/inventory?siteId=${warehouse.id}`);
    await page.getByRole('button', { name: 'Where is Wick' }).click();
    where = page.getByTestId('where-is-it').filter({ hasText: 'Where is Wick' });
    await where.getByText('Dock').waitFor();
    expect((await where.textContent())!.replace(/\s+/g, ' ')).toContain('Warehouse3');
  }, 60_000);

  it('puts scanned items away at a scanned shelf label: +1 there, and Move here', async () => {
    await page.goto(`/inventory?siteId=${MAIN_SITE_ID}`);
    await page.getByTestId('placed-row').first().waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await typeLikeScanner(page, 'LOC-BACK-1');
    const sheet = page.getByRole('dialog');
    await sheet.getByRole('heading', { name: 'Put away at Back room' }).waitFor();
    expect(await sheet.getByTestId('active-location').textContent()).toContain('Putting away at Back room');

    await typeLikeScanner(page, MATCHES_EAN);
    await sheet.getByRole('heading', { name: 'Matches' }).waitFor();
    expect(await sheet.getByTestId('active-location').textContent()).toContain('Back room');
    const quantity = sheet.getByTestId('scanner-quantity');
    await quantity.filter({ hasText: /^0$/ }).waitFor();
    await sheet.getByRole('button', { name: 'Add one' }).click();
    await quantity.filter({ hasText: /^1$/ }).waitFor();
    expect(await levels(matches)).toMatchObject({ 'Back room': 1, 'Main location': 5 });

    const move = sheet.getByRole('form', { name: 'Move to Back room' });
    expect(await move.getByLabel('Move from').inputValue()).toBe(MAIN_LOCATION_ID);
    await move.getByLabel('Quantity').fill('2');
    await move.getByRole('button', { name: 'Move here' }).click();
    await quantity.filter({ hasText: /^3$/ }).waitFor();
    expect(await levels(matches)).toMatchObject({ 'Back room': 3, 'Main location': 3 });

    // A label's code at the chosen site works as well as its barcode; Clear ends putting away.
    await sheet.getByRole('button', { name: 'Move here' }).blur();
    await typeLikeScanner(page, 'SHELF-A');
    await sheet.getByRole('heading', { name: 'Put away at Shelf A' }).waitFor();
    await sheet.getByRole('button', { name: 'Clear' }).click();
    expect(await sheet.getByTestId('active-location').count()).toBe(0);
    expect(open.errors).toEqual([]);
  }, 90_000);

  it('lists a location with the locations inside it, live, and says where each is by its path', async () => {
    // Back room › Shelf 2 › Bin 14; Lamp Oil has 2 in the back room itself.
    const inside = (parent: Location, name: string, code: string) =>
      api<Location>('POST', '/locations', { site_id: MAIN_SITE_ID, parent_id: parent.id, name, code, barcode: null });
    const bin = await inside(await inside(backRoom, 'Shelf 2', 'S2'), 'Bin 14', 'B14');
    await api('POST', `/inventory/${lampOil.id}/adjust`, { delta: 3, reason: 'restock', locationId: bin.id });

    await page.goto(`/inventory?siteId=${MAIN_SITE_ID}&locationId=${backRoom.id}`);
    const row = page.getByTestId('placed-row').filter({ hasText: 'Lamp Oil' });
    await row.getByTestId('quantity-here').filter({ hasText: /^5$/ }).waitFor();
    // Stock put in the bin counts in the back room's list as it happens.
    await api('POST', `/inventory/${lampOil.id}/adjust`, { delta: 1, reason: 'restock', locationId: bin.id });
    await row.getByTestId('quantity-here').filter({ hasText: /^6$/ }).waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Where is Lamp Oil' }).click();
    const where = page.getByTestId('where-is-it').filter({ hasText: 'Where is Lamp Oil' });
    await where.getByText('Back room › Shelf 2 › Bin 14').waitFor();
    const rows = await where
      .locator('.where-row:not(.where-total)')
      .evaluateAll((els) => els.map((el) => el.textContent!.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual([
      'Back roomBACK2',
      'Back room › Shelf 2 › Bin 14B144',
      'Main locationMAIN10',
      'Shelf ASHELF-A4',
    ]);
    await page.screenshot({ path: 'test-results/where-is-it-paths.png' });
    await page.keyboard.press('Escape');

    // The item page's table names it the same way.
    await page.goto(`/inventory/${lampOil.id}`);
    await expect
      .poll(() => tableRows(page))
      .toEqual([
        ['Back roomBACK', 2],
        ['Back room › Shelf 2 › Bin 14B14', 4],
        ['Main locationMAIN', 10],
        ['Shelf ASHELF-A', 4],
      ]);
    expect(open.errors).toEqual([]);
  }, 90_000);
});
