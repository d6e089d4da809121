// Printed labels end to end: a category of 26 items (half with an EAN-13, half with only a
// SKU) printed to PDF by Chromium with the page's own CSS page size, each PDF page rendered
// with pdf.js, and every label's QR code and Code 128 decoded back with zxing: they must
// be the item's URL and its barcode (or SKU). Each preset gives its paper size and count.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { gs1CheckDigit } from '../../shared/barcode.js';
import type { Category, Item } from '../../shared/inventory.js';
import { labelPosition, labelsPerPage, presetById, type LabelPresetId } from '../../client/features/labels/label-presets.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { decodeCodes } from '../helpers/decode-barcodes.js';
import { apiAccount, newAppContext, screenshot, signInViaUi } from '../helpers/e2e-app.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { renderPdfPages } from '../helpers/pdf-pages.js';

const ITEMS = 26;
const PT_PER_MM = 72 / 25.4;

/** An EAN-13 with a correct check digit, different for each n. */
const ean13 = (n: number) => {
  const body = `200000${String(n).padStart(6, '0')}`;
  return body + gs1CheckDigit(body);
};

describe('printed labels', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let page: Page;
  let category: Category;
  let items: Item[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    const manager = await apiAccount(server, 'Lea Labels', 'manager');
    category = await server.api<Category>('POST', '/categories', manager.idToken, { name: 'Hardware' });
    items = [];
    for (let n = 1; n <= ITEMS; n++) {
      items.push(
        await server.api<Item>('POST', '/inventory', manager.idToken, {
          name: `Item ${String(n).padStart(2, '0')} ${n % 3 === 0 ? 'with a rather long name that wraps' : 'bolts'}`,
          sku: `HW-${String(n).padStart(3, '0')}`,
          category_id: category.id,
          quantity: n,
          price: n + 0.99,
          threshold: 1,
          barcode: n % 2 === 1 ? ean13(n) : null,
        }),
      );
    }
    const context = await newAppContext(browser, server);
    page = await context.newPage();
    await signInViaUi(page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openLabels(presetId: LabelPresetId): Promise<Buffer> {
    if (!page.url().includes('/inventory/labels')) await page.goto(`/inventory/labels?category=${category.id}`);
    await page.getByLabel('Label stock').selectOption(presetId);
    await page.getByRole('region', { name: 'Preview' }).getByRole('region', { name: 'Label sheet 1', exact: true }).waitFor();
    return page.pdf({ preferCSSPageSize: true, printBackground: true });
  }

  it('reaches the labels page from the category page, every item ticked', async () => {
    await page.goto(`/inventory/category/${category.id}`);
    await page.getByRole('link', { name: 'Print labels' }).click();
    await page.waitForURL(`**/inventory/labels?category=${category.id}`);
    await page.getByText(`Hardware · ${ITEMS} of ${ITEMS} items · 2 pages`).waitFor();
    const boxes = page.getByRole('region', { name: 'Preview' }).locator('img');
    await boxes.first().waitFor();
    expect(await page.locator('.labels-item-list input[type=checkbox]:checked').count()).toBe(ITEMS);
    await screenshot(page, 'labels-a4');
  }, 60_000);

  it('prints A4 3x8 sheets whose every QR code and Code 128 read back as the item URL and code', async () => {
    const preset = presetById('a4-3x8');
    const pdf = await openLabels('a4-3x8');
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
    const perPage = labelsPerPage(preset);
    const rects = (pageIndex: number) =>
      sorted.slice(pageIndex * perPage, (pageIndex + 1) * perPage).map((_, index) => {
        const { left, top } = labelPosition(preset, index);
        return { x: left * PT_PER_MM, y: top * PT_PER_MM, width: preset.label.width * PT_PER_MM, height: preset.label.height * PT_PER_MM };
      });
    const pages = await renderPdfPages(browser, pdf, rects);
    mkdirSync('test-results/screenshots', { recursive: true });
    writeFileSync('test-results/screenshots/labels-a4-pdf-page1.png', pages[0]!.png);

    expect(pages).toHaveLength(2);
    for (const rendered of pages) {
      expect(rendered.width).toBeCloseTo(595.28, 0);
      expect(rendered.height).toBeCloseTo(841.89, 0);
      // Only the labels are printed: none of the app around them.
      expect(rendered.text).not.toContain('Print labels');
      expect(rendered.text).not.toContain('Stockroom');
    }
    expect(pages[0]!.text).toContain(sorted[0]!.name.slice(0, 10));

    const decoded = await Promise.all(pages.flatMap((rendered) => rendered.crops.map((crop) => decodeCodes(crop))));
    expect(decoded).toHaveLength(ITEMS);
    decoded.forEach((codes, index) => {
      const item = sorted[index]!;
      const qr = codes.filter((code) => code.format === 'QRCode').map((code) => code.text);
      const linear = codes.filter((code) => code.format === 'Code128').map((code) => code.text);
      expect({ label: index, qr, linear }).toEqual({ label: index, qr: [`${server.url}/inventory/${item.id}`], linear: [item.barcode ?? item.sku] });
    });
  }, 180_000);

  it('prints Avery 5160 on one US Letter page, and the roll one label per 62 x 29 mm page', async () => {
    const letter = await renderPdfPages(browser, await openLabels('letter-30'), () => []);
    expect(letter).toHaveLength(1);
    expect([letter[0]!.width, letter[0]!.height]).toEqual([612, 792]);

    const roll = await renderPdfPages(browser, await openLabels('roll-62x29'), () => [], 1);
    expect(roll).toHaveLength(ITEMS);
    for (const rendered of roll) {
      expect(rendered.width).toBeCloseTo(62 * PT_PER_MM, 0);
      expect(rendered.height).toBeCloseTo(29 * PT_PER_MM, 0);
    }
  }, 180_000);

  it('decodes a roll label and a Letter label too', async () => {
    for (const presetId of ['letter-30', 'roll-62x29'] as const) {
      const preset = presetById(presetId);
      const { left, top } = labelPosition(preset, 0);
      const rect = { x: left * PT_PER_MM, y: top * PT_PER_MM, width: preset.label.width * PT_PER_MM, height: preset.label.height * PT_PER_MM };
      const [first] = await renderPdfPages(browser, await openLabels(presetId), (index) => (index === 0 ? [rect] : []), 6);
      const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
      writeFileSync(`test-results/screenshots/labels-${presetId}-pdf-label1.png`, first!.crops[0]!);
      const codes = await decodeCodes(first!.crops[0]!);
      expect(codes.map((code) => code.text).sort()).toEqual([`${server.url}/inventory/${sorted[0]!.id}`, sorted[0]!.barcode ?? sorted[0]!.sku].sort());
    }
  }, 180_000);

  it('prints only the ticked items', async () => {
    await page.getByLabel('Select all').uncheck();
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
    await page.getByRole('checkbox', { name: new RegExp(sorted[2]!.name) }).check();
    await page.getByText(`1 of ${ITEMS} items · 1 page`).waitFor();
    const [only] = await renderPdfPages(browser, await openLabels('a4-3x8'), () => [], 1);
    expect(only!.text).toContain(sorted[2]!.name.slice(0, 10));
    expect(only!.text).not.toContain(sorted[0]!.name.slice(0, 10));
  }, 60_000);
});
