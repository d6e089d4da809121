// CSV exports as Excel on a French or German PC reads them, in headless
// Chromium against the real server: a manager's browser set to German downloads the items
// as they always were (comma, no BOM), then picks "Excel" from the export menu and gets a
// file starting with the UTF-8 byte-order mark, split by semicolons, prices with decimal
// commas and accents intact. The pick is the store's: a staff member's French browser, in
// another session, finds Excel preselected and exports with it; staff picks are for their
// download only. A semicolon Windows-1252 file is imported: its rejected rows download in
// the store's format (Excel) or, picked from the menu, in the file's own bytes; the store
// then offers that format for its exports, and another session sees it preselected.
import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, DESKTOP, PHONE, screenshot, seeText, watchErrors } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, signIn } from './shared-steps.js';

const BOM = [0xef, 0xbb, 0xbf];

/** Clicks, waits for the browser's download and answers the saved file's bytes. */
async function downloadedBytes(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

/** WCAG 2 A/AA problems of the open export menu (roles, names, contrast in the page's theme). */
async function menuViolations(page: Page): Promise<string[]> {
  await page.waitForTimeout(300); // the panel's entrance animation: a half-faded panel reads as low contrast
  const results = await new AxeBuilder({ page }).include('.csv-export').withTags(['wcag2a', 'wcag2aa']).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help}`);
}

const utf8Lines = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/);

describe('CSV exports in the format Excel reads', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let cremerie: Category;
  const contexts: BrowserContext[] = [];

  /** A signed-in page in a browser whose language (and so number format) is `locale`. */
  async function openAs(
    account: TestAccount,
    locale: string,
    options: { theme?: 'light' | 'dark'; viewport?: typeof DESKTOP } = {},
  ) {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: options.viewport ?? DESKTOP,
      serviceWorkers: 'block',
      locale,
    });
    if (options.theme) await context.addInitScript((theme) => localStorage.setItem('theme', theme), options.theme);
    contexts.push(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, account.email!, account.password!);
    return { page, errors };
  }

  const formatMenu = (page: Page) => page.getByRole('button', { name: 'Choose the file format' });
  const option = (page: Page, name: RegExp) => page.getByRole('menuitemradio', { name });
  const checked = async (menu: Locator) =>
    (await menu.locator('[aria-checked="true"] .csv-export-title').allTextContents()).join();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Margot Manager', 'manager');
    staff = await apiAccount(server, 'Sami Staff', 'staff');
    cremerie = await addCategory(server, manager.idToken, 'Crèmerie');
    await addItem(server, manager.idToken, cremerie, { name: 'Crème fraîche', quantity: 12, threshold: 2, price: 4.5 });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it("exports as always until Excel is picked; then BOM, semicolons and accents in a German manager's browser", async () => {
    await server.api('PUT', '/settings', manager.idToken, { exportFormat: null }); // as a new store (and on a retry)
    const { page, errors } = await openAs(manager, 'de-DE');
    await page.goto('/inventory');
    await seeText(page, 'Crèmerie');

    // Nothing chosen yet: the file is what it always was.
    const plain = await downloadedBytes(page, () =>
      page.getByRole('button', { name: 'Export CSV', exact: true }).click(),
    );
    expect([...plain.bytes.subarray(0, 3)]).not.toEqual(BOM);
    expect(utf8Lines(plain.bytes)[0]).toBe(
      'name,sku,barcode,category,quantity,price,threshold,description,expiry_date,image_url,currency',
    );

    await formatMenu(page).click();
    const menu = page.getByRole('menu', { name: 'File format' });
    await option(page, /^Excel/).waitFor();
    expect(await checked(menu)).toBe('Standard CSV');
    await seeText(menu, 'semicolon, UTF-8 with BOM'); // a German PC's list separator
    await seeText(page, 'Your pick becomes the store’s format for everyone.');
    await screenshot(page, 'export-format-menu');

    const excel = await downloadedBytes(page, () => option(page, /^Excel/).click());
    expect(excel.name).toMatch(/^inventory-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...excel.bytes.subarray(0, 3)]).toEqual(BOM);
    const lines = utf8Lines(excel.bytes);
    expect(lines[0]).toBe(
      'name;sku;barcode;category;quantity;price;threshold;description;expiry_date;image_url;currency',
    );
    expect(lines[1]).toMatch(/^"Crème fraîche";"CRÈ-[a-z0-9]+";"";"Crèmerie";12;4,5;2;"";"";"";"USD"$/);
    expect((await server.api<{ exportFormat: string }>('GET', '/settings', staff.idToken)).exportFormat).toBe('excel');
    expect(errors).toEqual([]);
  }, 120_000);

  it("shows another user's session the store's format preselected; a staff pick is for that download only", async () => {
    const { page, errors } = await openAs(staff, 'fr-FR');
    await page.goto(`/inventory/category/${cremerie.id}`);
    await seeText(page, 'Crème fraîche');

    await formatMenu(page).click();
    const menu = page.getByRole('menu', { name: 'File format' });
    await option(page, /^Excel/).waitFor();
    expect(await checked(menu)).toBe('Excel');
    await seeText(page, 'Your pick is for this download; a manager sets the store’s format.');
    await page.keyboard.press('Escape');

    // The button itself uses the store's format: Excel, with a French PC's semicolons.
    const excel = await downloadedBytes(page, () =>
      page.getByRole('button', { name: 'Export CSV', exact: true }).click(),
    );
    expect([...excel.bytes.subarray(0, 3)]).toEqual(BOM);
    expect(utf8Lines(excel.bytes)[1]).toContain('"Crème fraîche";');
    expect(utf8Lines(excel.bytes)[1]).toContain(';4,5;');

    await formatMenu(page).click();
    const standard = await downloadedBytes(page, () => option(page, /^Standard CSV/).click());
    expect([...standard.bytes.subarray(0, 3)]).not.toEqual(BOM);
    expect(utf8Lines(standard.bytes)[1]).toContain('"Crème fraîche","');
    expect((await server.api<{ exportFormat: string }>('GET', '/settings', manager.idToken)).exportFormat).toBe(
      'excel',
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it("downloads the rejected rows as Excel or in the imported file's own bytes, and the store then offers that format", async () => {
    const { page, errors } = await openAs(manager, 'de-DE');
    const sku = `ACC-${Math.random().toString(36).slice(2, 8)}`; // a retry imports new items again
    const ansi = `Nom;Référence;Catégorie;Quantité;Prix\r\nCafé crème;${sku};Crèmerie;12;4,50\r\nPâte à crêpes;${sku}-2;Crèmerie;3;trois euros\r\n`;
    await page.goto('/inventory/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'épicerie.csv', mimeType: 'text/csv', buffer: Buffer.from(ansi, 'latin1') });
    await seeText(page, /2 rows, semicolon-separated, Windows-1252/);
    await page.getByRole('button', { name: 'Check rows' }).click();
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    const result = page.getByRole('list', { name: 'Import result' });
    await result.waitFor({ timeout: 30_000 });
    expect((await result.innerText()).replace(/\s+/g, ' ')).toBe('1 created 0 updated 0 unchanged 1 rejected');

    // The store's format (Excel): a BOM, semicolons, the accents as UTF-8.
    const download = page.getByRole('button', { name: 'Download rejected rows (CSV)', exact: true });
    const excel = await downloadedBytes(page, () => download.click());
    expect(excel.name).toBe('épicerie-rejected.csv');
    expect([...excel.bytes.subarray(0, 3)]).toEqual(BOM);
    const lines = utf8Lines(excel.bytes);
    expect(lines[0]).toBe('Nom;Référence;Catégorie;Quantité;Prix;error');
    expect(lines[1]).toMatch(new RegExp(`^Pâte à crêpes;${sku}-2;Crèmerie;3;trois euros;Row 3, Prix: `));

    // Like the file: Windows-1252 bytes, as Excel wrote them (â E2, à E0, ê EA).
    await formatMenu(page).click();
    const menu = page.getByRole('menu', { name: 'File format' });
    await seeText(menu, 'semicolon, Windows-1252');
    await screenshot(page, 'export-format-menu-rejected');
    const own = await downloadedBytes(page, () => option(page, /^Like épicerie\.csv/).click());
    expect([...own.bytes.subarray(0, 3)]).not.toEqual(BOM);
    expect(own.bytes.subarray(0, 40).includes(Buffer.from('Nom;R\xe9f\xe9rence;Cat\xe9gorie', 'latin1'))).toBe(true);
    expect(own.bytes.includes(Buffer.from(`P\xe2te \xe0 cr\xeapes;${sku}-2`, 'latin1'))).toBe(true);
    expect(own.bytes.includes(Buffer.from('Pâte', 'utf8'))).toBe(false);
    expect(errors).toEqual([]);

    // The manager's pick is now the store's, and the imported file's format is known: the
    // staff member's next session exports the items in Windows-1252 with semicolons.
    const other = await openAs(staff, 'fr-FR');
    await other.page.goto('/inventory');
    await seeText(other.page, 'Crèmerie');
    await formatMenu(other.page).click();
    const otherMenu = other.page.getByRole('menu', { name: 'File format' });
    await option(other.page, /^Like the imported file/).waitFor();
    expect(await checked(otherMenu)).toBe('Like the imported file');
    await seeText(otherMenu, 'semicolon, Windows-1252');
    await other.page.keyboard.press('Escape');
    const items = await downloadedBytes(other.page, () =>
      other.page.getByRole('button', { name: 'Export CSV', exact: true }).click(),
    );
    expect(items.bytes.includes(Buffer.from(`"Caf\xe9 cr\xe8me";"${sku}";"";"Cr\xe8merie";12;4,5;`, 'latin1'))).toBe(
      true,
    );
    expect(other.errors).toEqual([]);
  }, 180_000);

  it('looks right in both themes, on a desktop and a phone (Inventory, Activity Log, the import result, What changed)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page } = await openAs(manager, 'de-DE', { theme, viewport });
        await page.goto('/inventory');
        await seeText(page, 'Crèmerie');
        await formatMenu(page).click();
        await option(page, /^Excel/).waitFor();
        expect(await menuViolations(page)).toEqual([]);
        await screenshot(page, 'export-format-menu-inventory');
        // The activity log's button sits at the right edge: its menu opens leftwards.
        await page.goto('/activity');
        await seeText(page, 'Crème fraîche');
        await formatMenu(page).click();
        await option(page, /^Excel/).waitFor();
        await screenshot(page, 'export-format-menu-activity');
        // The import's result step, with its rejected rows.
        await page.goto('/inventory/import');
        const sku = `SHOT-${theme}-${viewport.width}`;
        const file = `Name;SKU;Category;Qty;Price\r\nGruyère;${sku};Crèmerie;1;9,50\r\nComté;${sku}-X;Crèmerie;1;x\r\n`;
        await page
          .getByLabel('CSV file')
          .setInputFiles({ name: 'fromages.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'latin1') });
        await page.getByRole('button', { name: 'Check rows' }).click();
        await page.getByRole('button', { name: 'Import 1 row' }).click();
        await page.getByRole('list', { name: 'Import result' }).waitFor({ timeout: 30_000 });
        await formatMenu(page).click();
        await option(page, /^Like fromages\.csv/).waitFor();
        await screenshot(page, 'export-format-menu-rejected');
        // What changed (a report with its own export).
        await page.goto('/inventory/changes');
        await seeText(page, 'Gruyère');
        await formatMenu(page).click();
        await option(page, /^Excel/).waitFor();
        await screenshot(page, 'export-format-menu-changes');
        await page.context().close();
      }
    }
  }, 180_000);
});
