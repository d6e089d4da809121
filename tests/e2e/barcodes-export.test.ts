// End to end in Chromium: a manager adds an item with a barcode
// on the add page (a wrong check digit is refused with the shared check's message, a right
// one saves), sees it on the item page and edits it; the scanner's link for an unknown code
// (/inventory/add?barcode=...) fills the field in; Export CSV on the Inventory and Category
// pages downloads the items.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Category } from '../../shared/inventory.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { addCategory, addItem, openPage, signIn, type OpenPage } from './shared-steps.js';

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), click()]);
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, 'utf8') };
}

describe('barcodes and CSV export in the browser', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let admin: OpenPage;
  let garden: Category;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Bruno Barcode', 'manager');
    garden = await addCategory(server, manager.idToken, 'Garden');
    await addItem(server, manager.idToken, garden, { name: 'Watering Can', quantity: 4, threshold: 1, price: 12 });
    await addItem(server, manager.idToken, garden, { name: '=Trowel', quantity: 9, threshold: 2, price: 6.5 });
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('adds an item with a barcode (a wrong check digit refused first), shows it, and edits it', async () => {
    const page = admin.page;
    await page.goto('/inventory/add');
    await page.getByLabel('Name', { exact: true }).fill('Garden Gloves');
    await page.getByLabel('SKU').fill('GG-1');
    await page.getByLabel('Category').selectOption({ label: 'Garden' });
    await page.getByLabel('Quantity').fill('10');
    await page.getByLabel('Unit Price ($)').fill('8.50');
    await page.getByLabel(/^Barcode/).fill('4006381333932');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await seeText(page, 'Barcode check digit is wrong (EAN-13, expected 1)');
    expect(await page.getByLabel(/^Barcode/).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'barcode-add-page-error');

    await page.getByLabel(/^Barcode/).fill('4006381333931');
    await page.getByRole('button', { name: 'Add Item' }).click();
    await page.waitForURL(/\/inventory\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await seeText(page.getByTestId('item-barcode'), '4006381333931');
    await screenshot(page, 'barcode-item-page');

    await page.getByRole('link', { name: 'Edit Item' }).click();
    await page.getByLabel(/^Barcode/).waitFor();
    expect(await page.getByLabel(/^Barcode/).inputValue()).toBe('4006381333931');
    await page.getByLabel(/^Barcode/).fill('5901234123457');
    await screenshot(page, 'barcode-edit-page');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(/\/inventory\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await seeText(page.getByTestId('item-barcode'), '5901234123457');
    // The server has it too: a scan of the new code finds the item.
    const found = await server.api<{ name: string }>('GET', '/inventory/by-barcode/5901234123457', manager.idToken);
    expect(found.name).toBe('Garden Gloves');
  }, 90_000);

  it("fills the barcode in from the scanner's link for an unknown code", async () => {
    const page = admin.page;
    await page.goto('/inventory/add?barcode=4006381333931');
    await page.getByLabel(/^Barcode/).waitFor();
    expect(await page.getByLabel(/^Barcode/).inputValue()).toBe('4006381333931');
    await screenshot(page, 'barcode-add-prefilled');
  }, 60_000);

  it('downloads the items as CSV from the Inventory and Category pages', async () => {
    const page = admin.page;
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await screenshot(page, 'inventory-export-button');
    const all = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
    expect(all.name).toMatch(/^inventory-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = all.text.trim().split('\n');
    expect(lines[0]).toBe(
      'name,sku,barcode,category,quantity,price,threshold,description,expiry_date,image_url,currency',
    );
    expect(lines.some((l) => l.startsWith('"Garden Gloves","GG-1","5901234123457","Garden",10,8.5,'))).toBe(true);
    expect(lines.some((l) => l.startsWith(`"'=Trowel"`))).toBe(true);

    await page.goto(`/inventory/category/${garden.id}`);
    await page.locator('.item-card').first().waitFor();
    await page.getByLabel('Search this category').fill('watering');
    // The page's own filter first: one card left, then the export follows it.
    await expect.poll(async () => page.locator('.item-card').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('article', { name: 'Watering Can' }).waitFor();
    await screenshot(page, 'category-export-button');
    const filtered = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
    const rows = filtered.text.trim().split('\n').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^"Watering Can",/);
  }, 90_000);
});
