// CSV import in headless Chromium against the real server: a manager opens Import from the
// Inventory page, drops a 10,000-row file with 35 bad rows of every kind (the shared fixture;
// tests/integration/import-api.test.ts runs it through the API too), sees those 35 rows with
// their row numbers, confirms the new
// categories, closes the tab in the middle of the commit, reopens the page, resumes, and
// gets every row exactly once; the rejected rows download as a CSV with an error column;
// the same file dropped again changes nothing. A semicolon-separated Windows-1252 file and a
// UTF-8 file with a BOM keep their accents.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { apiAccount, newAppContext, screenshot, seeText, watchErrors } from '../helpers/e2e-app.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { stockFile } from '../helpers/import-fixture.js';
import { signIn } from './shared-steps.js';

describe('CSV import in the browser', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let manager: TestAccount;
  const ROWS = 10_000;
  const file = stockFile(ROWS);
  const good = ROWS - 35;
  const n = (value: number) => value.toLocaleString('en-US');

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Mia Import', 'manager');
    await server.api('POST', '/categories', manager.idToken, { name: 'Tools' });
    context = await newAppContext(browser, server);
    page = await context.newPage();
    errors = watchErrors(page);
    await signIn(page, manager.email!, manager.password!);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Items in the file's categories, as the Categories page counts them. */
  const imported = async () =>
    (await server.api<any[]>('GET', '/categories', manager.idToken))
      .filter((c) => ['Tools', 'Garden', 'Kitchen'].includes(c.name))
      .reduce((n, c) => n + c.itemCount, 0);

  it('checks a 10,000-row file, commits it, survives a closed tab and resumes without duplicates', async () => {
    await page.goto('/inventory');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.waitForURL('**/inventory/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'stock.csv', mimeType: 'text/csv', buffer: Buffer.from(file.text, 'utf8') });

    // Columns mapped from the header; the first rows previewed.
    await seeText(page, 'Map columns');
    expect(await page.getByLabel('Field for column Item').inputValue()).toBe('name');
    expect(await page.getByLabel('Field for column Qty').inputValue()).toBe('quantity');
    expect(await page.getByLabel('Field for column Unit price').inputValue()).toBe('price');
    await seeText(page, `${n(ROWS)} rows, comma-separated, UTF-8`);
    await seeText(page, 'Widget 0');
    await screenshot(page, 'import-mapping');

    await page.getByRole('button', { name: 'Check rows' }).click();
    const problems = page.getByRole('table', { name: 'Rows with problems' }).locator('tbody tr');
    await problems.first().waitFor();
    const rows = (await problems.locator('th').allTextContents()).map(Number);
    expect(rows).toEqual([...file.bad.keys()]);
    await seeText(page, /starts with "=": a spreadsheet formula/);
    await seeText(page, /Unterminated quote/);
    await seeText(page, 'Garden, Kitchen');
    await screenshot(page, 'import-review');

    // The tab closes in the middle of the commit: batch 1 is answered; batch 2 reaches the
    // server and is written, but its answer never gets back (the tab is gone by then); batch
    // 3 is never sent. Batches go one after the other, so holding batch 2's answer holds them.
    let sent = 0;
    let secondWritten!: () => void;
    const written = new Promise<void>((resolve) => (secondWritten = resolve));
    await page.route('**/api/inventory/import/commit', async (route) => {
      if (++sent === 1) return route.continue();
      await route.fetch();
      secondWritten();
    });
    const commit = page.getByRole('button', { name: `Import ${n(good)} rows` });
    expect(await commit.isDisabled()).toBe(true); // until the new categories are confirmed
    await page.getByLabel(/Create these 2 categories/).check();
    await commit.click();
    await written;
    await seeText(page, new RegExp(`^500 of ${n(good)} rows`));
    await screenshot(page, 'import-progress');
    await page.close();
    expect(await imported()).toBe(1_000);

    page = await context.newPage();
    errors = watchErrors(page);
    await page.goto('/inventory/import');
    await seeText(page, 'An import did not finish');
    await screenshot(page, 'import-resume');
    await page.getByRole('button', { name: 'Resume import of stock.csv' }).click();
    const result = page.getByRole('list', { name: 'Import result' });
    await result.waitFor({ timeout: 240_000 });
    expect((await result.innerText()).replace(/\s+/g, ' ')).toBe(
      `${n(good)} created 0 updated 0 unchanged 35 rejected`,
    );
    await screenshot(page, 'import-result');

    // Every row once: no item missing, no SKU twice.
    const skus: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await fetch(`${server.url}/api/inventory?limit=500${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { authorization: `Bearer ${manager.idToken}` },
      });
      skus.push(...((await res.json()) as any[]).map((i) => i.sku));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(skus.length).toBe(good);
    expect(new Set(skus).size).toBe(good);

    // The rejected rows, to fix and import again: the file's columns plus "error".
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /Download rejected rows/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('stock-rejected.csv');
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Item,SKU,Barcode,Category,Qty,Unit price,Threshold,Description,error');
    expect(lines).toHaveLength(36);
    expect(lines.some((l) => l.includes('Row 22, Item: name is required'))).toBe(true);

    // The same file again: every row is as the store has it, nothing is written.
    await page.goto('/inventory/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'stock.csv', mimeType: 'text/csv', buffer: Buffer.from(file.text, 'utf8') });
    await page.getByRole('button', { name: 'Check rows' }).click();
    await seeText(page, new RegExp(`${n(good)}\\s*unchanged`));
    await page.getByRole('button', { name: `Import ${n(good)} rows` }).click();
    await result.waitFor({ timeout: 120_000 });
    expect((await result.innerText()).replace(/\s+/g, ' ')).toBe(
      `0 created 0 updated ${n(good)} unchanged 35 rejected`,
    );
    expect(await imported()).toBe(good);

    await page.goto('/activity');
    await seeText(page, /Imported from stock\.csv/);
    expect(errors).toEqual([]);
  }, 400_000);

  it('imports a semicolon-separated Windows-1252 file with its accents', async () => {
    const ansi =
      'Nom;Référence;Catégorie;Quantité;Prix\r\nCafé crème;ACC-1;Épicerie;12;4,50\r\nPâte à crêpes;ACC-2;Épicerie;3;2,95\r\n';
    await page.goto('/inventory/import');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'épicerie.csv', mimeType: 'text/csv', buffer: Buffer.from(ansi, 'latin1') });
    await seeText(page, /2 rows, semicolon-separated, Windows-1252/);
    await seeText(page, 'Pâte à crêpes');
    await page.getByRole('button', { name: 'Check rows' }).click();
    await page.getByLabel(/Create this category/).check();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    const result = page.getByRole('list', { name: 'Import result' });
    await result.waitFor({ timeout: 30_000 });
    expect((await result.innerText()).replace(/\s+/g, ' ')).toBe('2 created 0 updated 0 unchanged 0 rejected');
    const found = await server.api<any[]>('GET', '/inventory/search?q=ACC-1', manager.idToken);
    expect(found.find((i) => i.sku === 'ACC-1')).toMatchObject({
      name: 'Café crème',
      category: 'Épicerie',
      price: 4.5,
    });
  }, 60_000);

  it('imports a UTF-8 file with a byte order mark, header and accents intact', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Name,SKU,Category,Stock,Price\nCrème brûlée torch,ACC-3,Épicerie,2,19.90\n', 'utf8'),
    ]);
    await page.goto('/inventory/import');
    await page.getByLabel('CSV file').setInputFiles({ name: 'bom.csv', mimeType: 'text/csv', buffer: bom });
    await seeText(page, /1 row, comma-separated, UTF-8 with BOM/);
    expect(await page.getByLabel('Field for column Name', { exact: true }).inputValue()).toBe('name'); // no BOM glued to the first header
    await page.getByRole('button', { name: 'Check rows' }).click();
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    const result = page.getByRole('list', { name: 'Import result' });
    await result.waitFor({ timeout: 30_000 });
    expect((await result.innerText()).replace(/\s+/g, ' ')).toBe('1 created 0 updated 0 unchanged 0 rejected');
    const found = await server.api<any[]>('GET', '/inventory/search?q=ACC-3', manager.idToken);
    expect(found.find((i) => i.sku === 'ACC-3')).toMatchObject({
      name: 'Crème brûlée torch',
      category: 'Épicerie',
      price: 19.9,
    });
  }, 60_000);
});
