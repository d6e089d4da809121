// Printed labels end to end: a category of 26 items (half with an EAN-13, some with a
// barcode of their own text or a UPC-A, the rest with only a SKU) printed to PDF by Chromium
// with the page's own CSS page size, each PDF page rendered with pdf.js, and every label's
// QR code and linear code decoded back with zxing: they must be the item's URL and its
// barcode (or SKU), an EAN-13 symbol for an EAN-13 barcode (what a till expects)
// and Code 128 for anything else. Where each label lands is checked against the
// label stock's published geometry, written out here, not against the app's preset table.
// Location labels too: from Sites and locations, a site's labels, each QR code and Code 128
// reading back as what a scan of the shelf must find: the label barcode, else the code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { checkBarcode, gs1CheckDigit } from '../../shared/barcode.js';
import { MAIN_SITE_ID } from '../../shared/places.js';
import type { Location } from '../../shared/sites.js';
import type { Category, Item } from '../../shared/inventory.js';
import type { LabelPresetId } from '../../client/features/labels/label-presets.js';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { decodeCodes, type DecodedCode } from '../helpers/decode-barcodes.js';
import { apiAccount, newAppContext, screenshot, signInViaUi } from '../helpers/e2e-app.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { renderPdfPages } from '../helpers/pdf-pages.js';

const ITEMS = 26;
const MM_PER_INCH = 25.4;
const PT_PER_MM = 72 / MM_PER_INCH;

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface Stock {
  /** Page, label, first label's top-left corner and the distance from one label to the next, in mm. */
  page: { width: number; height: number };
  columns: number;
  rows: number;
  label: { width: number; height: number };
  first: { left: number; top: number };
  pitch: { x: number; y: number };
}

/**
 * The label stock as published by the paper makers, in mm from the page's top-left corner.
 * Written out here on purpose: a preset the app got wrong fails this test.
 */
const PUBLISHED: Record<LabelPresetId, Stock> = {
  // A4 (ISO 216: 210 x 297 mm) with 24 labels of 70 x 37 mm, 3 across and 8 down, no gaps:
  // 3 x 70 = 210 mm is the whole width (no side margin); 8 x 37 = 296 mm leaves 1 mm, half of
  // it (0.5 mm) above the first row.
  'a4-3x8': {
    page: { width: 210, height: 297 },
    columns: 3,
    rows: 8,
    label: { width: 70, height: 37 },
    first: { left: 0, top: 0.5 },
    pitch: { x: 70, y: 37 },
  },
  // Avery 5160 (Avery's template specification): US Letter 8.5 x 11 in, 3 columns x 10 rows
  // of 2 5/8 x 1 in labels; top margin 0.5 in, left margin 0.1875 in (3/16), horizontal
  // pitch 2.75 in (1/8 in between columns), vertical pitch 1 in.
  'letter-30': {
    page: { width: 8.5 * MM_PER_INCH, height: 11 * MM_PER_INCH },
    columns: 3,
    rows: 10,
    label: { width: 2.625 * MM_PER_INCH, height: 1 * MM_PER_INCH },
    first: { left: 0.1875 * MM_PER_INCH, top: 0.5 * MM_PER_INCH },
    pitch: { x: 2.75 * MM_PER_INCH, y: 1 * MM_PER_INCH },
  },
  // A 62 mm continuous roll (Brother DK-22205) cut at 29 mm: one label filling each page.
  'roll-62x29': {
    page: { width: 62, height: 29 },
    columns: 1,
    rows: 1,
    label: { width: 62, height: 29 },
    first: { left: 0, top: 0 },
    pitch: { x: 62, y: 29 },
  },
};

const perPage = (stock: Stock) => stock.columns * stock.rows;

/** Where label `index` (0-based, on its page) belongs on the stock, in mm. */
function publishedBox(stock: Stock, index: number): Box {
  return {
    left: stock.first.left + (index % stock.columns) * stock.pitch.x,
    top: stock.first.top + Math.floor(index / stock.columns) * stock.pitch.y,
    width: stock.label.width,
    height: stock.label.height,
  };
}

/** The same box in PDF points, to cut from a rendered page. */
const toPoints = (box: Box) => ({
  x: box.left * PT_PER_MM,
  y: box.top * PT_PER_MM,
  width: box.width * PT_PER_MM,
  height: box.height * PT_PER_MM,
});

/**
 * To 0.1 mm, so a comparison shows the numbers and ignores layout's sub-pixel steps (1/64 px,
 * under 0.01 mm); no published number here lies near a rounding boundary.
 */
const tenth = (mm: number) => Math.round(mm * 10) / 10;
const rounded = (box: Box): Box => ({
  left: tenth(box.left),
  top: tenth(box.top),
  width: tenth(box.width),
  height: tenth(box.height),
});

/** An EAN-13 with a correct check digit, different for each n. */
const ean13 = (n: number) => {
  const body = `200000${String(n).padStart(6, '0')}`;
  return body + gs1CheckDigit(body);
};

/** A UPC-A (12 digits) with a correct check digit. */
const upcA = (n: number) => {
  const body = `0360000${String(n).padStart(4, '0')}`;
  return body + gs1CheckDigit(body);
};

/** Odd items: an EAN-13; every fourth: label text of the store's own; item 2: a UPC-A; the rest: none (the SKU is printed). */
const barcodeOf = (n: number) => (n % 2 === 1 ? ean13(n) : n % 4 === 0 ? `BIN-${n}` : n === 2 ? upcA(n) : null);

/** The linear code a label of this item must carry: its format as zxing names it, and its text. */
const expectedLinear = (item: Item) => ({
  format: item.barcode && item.barcode.length === 13 ? 'EAN-13' : 'Code128',
  text: item.barcode ?? item.sku,
});
const linearOf = (codes: DecodedCode[]) => codes.filter((code) => code.format !== 'QRCode');

describe('printed labels', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let page: Page;
  let category: Category;
  let items: Item[];
  let manager: TestAccount;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Lea Labels', 'manager');
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
          barcode: barcodeOf(n),
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
    await page
      .getByRole('region', { name: 'Preview' })
      .getByRole('region', { name: 'Label sheet 1', exact: true })
      .waitFor();
    return page.pdf({ preferCSSPageSize: true, printBackground: true });
  }

  /**
   * Every printed label's box, per printed sheet, in mm from the top-left corner of its
   * page, as Chromium lays out the page for print (the layout the PDF is made from). The
   * first sheet's own corner is measured from the document's, so a print margin shows too.
   */
  async function printedBoxes(): Promise<{ firstSheetAt: { left: number; top: number }; sheets: Box[][] }> {
    await page.emulateMedia({ media: 'print' });
    try {
      return await page.evaluate((mmPerPx) => {
        const sheets = [...document.querySelectorAll('.label-print-root .label-page')];
        const origin = sheets[0]!.getBoundingClientRect();
        return {
          firstSheetAt: {
            left: (origin.left + window.scrollX) * mmPerPx,
            top: (origin.top + window.scrollY) * mmPerPx,
          },
          sheets: sheets.map((sheet) => {
            const corner = sheet.getBoundingClientRect();
            return [...sheet.querySelectorAll('.label')].map((label) => {
              const box = label.getBoundingClientRect();
              return {
                left: (box.left - corner.left) * mmPerPx,
                top: (box.top - corner.top) * mmPerPx,
                width: box.width * mmPerPx,
                height: box.height * mmPerPx,
              };
            });
          }),
        };
      }, MM_PER_INCH / 96);
    } finally {
      await page.emulateMedia({ media: null });
    }
  }

  /** The printed boxes beside the published ones, label by label. */
  async function expectPublishedPlaces(stock: Stock, labelsOnSheets: number[]): Promise<void> {
    const printed = await printedBoxes();
    expect(
      [tenth(printed.firstSheetAt.left), tenth(printed.firstSheetAt.top)],
      'the first sheet starts at the page corner',
    ).toEqual([0, 0]);
    expect(printed.sheets.map((sheet) => sheet.map(rounded))).toEqual(
      labelsOnSheets.map((count) => Array.from({ length: count }, (_, index) => rounded(publishedBox(stock, index)))),
    );
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

  it('prints A4 3x8 sheets whose every QR code and linear code read back as the item URL and code: EAN-13 for an EAN-13, else Code 128', async () => {
    const stock = PUBLISHED['a4-3x8'];
    const pdf = await openLabels('a4-3x8');
    // 24 on the first sheet, 2 on the second, each on its die-cut.
    await expectPublishedPlaces(stock, [24, 2]);
    const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
    const rects = (pageIndex: number) =>
      sorted
        .slice(pageIndex * perPage(stock), (pageIndex + 1) * perPage(stock))
        .map((_, index) => toPoints(publishedBox(stock, index)));
    const pages = await renderPdfPages(browser, pdf, rects);
    mkdirSync('test-results/screenshots', { recursive: true });
    writeFileSync('test-results/screenshots/labels-a4-pdf-page1.png', pages[0]!.png);

    expect(pages).toHaveLength(2);
    for (const rendered of pages) {
      expect(rendered.width).toBeCloseTo(stock.page.width * PT_PER_MM, 0); // 595.28 pt
      expect(rendered.height).toBeCloseTo(stock.page.height * PT_PER_MM, 0); // 841.89 pt
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
      expect({ label: index, qr, linear: linearOf(codes) }).toEqual({
        label: index,
        qr: [`${server.url}/inventory/${item.id}`],
        linear: [expectedLinear(item)],
      });
    });
    // Every kind of code was on the sheets: EAN-13 symbols, and Code 128 of a barcode's text, of a UPC-A and of a SKU.
    const kindOf = (item: Item) => (item.barcode ? (checkBarcode(item.barcode) as { kind: string }).kind : 'sku');
    expect(new Set(sorted.map(kindOf))).toEqual(new Set(['ean13', 'code128', 'upca', 'sku']));
  }, 180_000);

  it('prints Avery 5160 on one US Letter page, and the roll one label per 62 x 29 mm page', async () => {
    const letter = await renderPdfPages(browser, await openLabels('letter-30'), () => []);
    expect(letter).toHaveLength(1);
    expect([letter[0]!.width, letter[0]!.height]).toEqual([612, 792]);
    await expectPublishedPlaces(PUBLISHED['letter-30'], [26]);

    const roll = await renderPdfPages(browser, await openLabels('roll-62x29'), () => [], 1);
    expect(roll).toHaveLength(ITEMS);
    for (const rendered of roll) {
      expect(rendered.width).toBeCloseTo(62 * PT_PER_MM, 0);
      expect(rendered.height).toBeCloseTo(29 * PT_PER_MM, 0);
    }
    await expectPublishedPlaces(
      PUBLISHED['roll-62x29'],
      Array.from({ length: ITEMS }, () => 1),
    );
  }, 180_000);

  it('decodes a roll label and a Letter label too', async () => {
    for (const presetId of ['letter-30', 'roll-62x29'] as const) {
      const rect = toPoints(publishedBox(PUBLISHED[presetId], 0));
      const [first] = await renderPdfPages(
        browser,
        await openLabels(presetId),
        (index) => (index === 0 ? [rect] : []),
        6,
      );
      const sorted = [...items].sort((a, b) => a.name.localeCompare(b.name));
      writeFileSync(`test-results/screenshots/labels-${presetId}-pdf-label1.png`, first!.crops[0]!);
      const codes = await decodeCodes(first!.crops[0]!);
      expect(codes.map((code) => code.text).sort()).toEqual(
        [`${server.url}/inventory/${sorted[0]!.id}`, sorted[0]!.barcode ?? sorted[0]!.sku].sort(),
      );
      expect(linearOf(codes)).toEqual([expectedLinear(sorted[0]!)]);
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

  it("prints the labels of a site's locations from Sites and locations, each code reading back as its label text", async () => {
    // Made once (a retry finds them there).
    const existing = await server.api<Location[]>('GET', `/locations?siteId=${MAIN_SITE_ID}`, manager.idToken);
    const back =
      existing.find((l) => l.code === 'BR') ??
      (await server.api<Location>('POST', '/locations', manager.idToken, {
        site_id: MAIN_SITE_ID,
        name: 'Back room',
        code: 'BR',
      }));
    if (!existing.some((l) => l.code === 'S2'))
      await server.api('POST', '/locations', manager.idToken, {
        site_id: MAIN_SITE_ID,
        parent_id: back.id,
        name: 'Shelf 2',
        code: 'S2',
        barcode: 'SHELF-0002',
      });
    await page.goto('/settings/places');
    await page.getByRole('region', { name: 'Main store' }).getByRole('link', { name: 'Print labels' }).click();
    await page.waitForURL(`**/inventory/labels?site=${MAIN_SITE_ID}`);
    await page.getByText('Main store · 3 of 3 locations · 1 page').waitFor();
    await page.getByRole('region', { name: 'Preview' }).locator('img').first().waitFor();
    await screenshot(page, 'labels-locations');

    // The site's tree in reading order: Back room, Shelf 2 inside it, Main location.
    const stock = PUBLISHED['a4-3x8'];
    const pdf = await openLabels('a4-3x8');
    await expectPublishedPlaces(stock, [3]);
    const [sheet] = await renderPdfPages(browser, pdf, (index) =>
      index === 0 ? [0, 1, 2].map((n) => toPoints(publishedBox(stock, n))) : [],
    );
    expect(sheet!.text).toContain('Shelf 2  S2  Main store (MAIN)  in Back room');
    const decoded = await Promise.all(sheet!.crops.map((crop) => decodeCodes(crop)));
    expect(decoded.map((codes) => codes.map((code) => `${code.format}: ${code.text}`).sort())).toEqual([
      ['Code128: BR', 'QRCode: BR'],
      ['Code128: SHELF-0002', 'QRCode: SHELF-0002'],
      ['Code128: MAIN', 'QRCode: MAIN'],
    ]);
  }, 120_000);
});
