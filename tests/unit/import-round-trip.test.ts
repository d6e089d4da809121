// Export, then import the file back: the quote the export puts before a formula character
// ('=x, '-5 V) comes off again, so every exported row matches its item and changes nothing;
// and formula injection stays closed: a formula the item does not already have is refused,
// with the quote or without it.
import { describe, expect, it } from 'vitest';
import type { ImportRow } from '../../shared/import.js';
import { guessMapping } from '../../client/features/import/column-mapping.js';
import { parseCsv } from '../../client/features/import/parse-csv.js';
import { toImportRows } from '../../client/features/import/import-rows.js';
import { itemCsvHeader, itemCsvRow, type ExportedItem } from '../../server/inventory/item-export.js';
import type { ItemRow } from '../../server/inventory/item-rows.js';
import { cellsOf, decideRow, type RowContext } from '../../server/import/import-rows.js';

const TOOLS = '11111111-1111-4111-8111-111111111111';
const MATHS = '22222222-2222-4222-8222-222222222222';

function item(id: number, fields: Partial<ItemRow>): ExportedItem {
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    name: `Item ${id}`,
    description: '',
    sku: `SKU-${id}`,
    category_id: TOOLS,
    category_name: 'Tools',
    quantity: 3,
    price: 2.5,
    threshold: 1,
    image_url: null,
    expiry_date: null,
    barcode: null,
    version: 1,
    created_at: new Date(),
    updated_at: new Date(),
    currency: 'EUR',
    ...fields,
  };
}

// Items whose text starts with every character the export defuses (made through the API,
// which takes any text), and a category whose name does.
const items = [
  item(1, { name: '-5 V adapter', description: '- spare, boxed' }),
  item(2, { name: '=SUM(A1:A9)', description: '+1 for the shelf' }),
  item(3, { name: '@home kit', sku: '-ABC', barcode: '-BAR-1' }),
  item(4, { name: "'quoted' name", category_id: MATHS, category_name: '=Maths' }),
  item(5, {
    name: 'Plain widget',
    description: 'Nothing special',
    barcode: '4006381333931',
    expiry_date: '2031-05-01',
  }),
];

function context(known: ItemRow[]): RowContext {
  return {
    itemsBySku: new Map(known.map((i) => [i.sku.toLowerCase(), i])),
    barcodeOwners: new Map(known.filter((i) => i.barcode).map((i) => [i.barcode!, { id: i.id, name: i.name }])),
    categoriesByName: new Map([
      ['tools', TOOLS],
      ['=maths', MATHS],
    ]),
    newCategories: 'refused',
  };
}

/** A CSV file through the import's own parsing and mapping, then judged row by row. */
function importFile(text: string, known: ItemRow[]) {
  const parsed = parseCsv(text);
  const { columns, rows } = toImportRows(parsed, guessMapping(parsed.header));
  return rows.map((r: ImportRow) => {
    if ('problem' in r) throw new Error(r.problem);
    return decideRow(cellsOf(columns, r.cells), context(known), '99999999-9999-4999-8999-999999999999');
  });
}

describe('import of an export', () => {
  it('defuses formula text on export and reads it back: every row unchanged', () => {
    const file = itemCsvHeader() + items.map((i) => itemCsvRow(i)).join('');
    // The currency column tells a reader what the prices are in; no item field takes it.
    expect(parseCsv(file).header.at(-1)).toBe('currency');
    expect(guessMapping(parseCsv(file).header).at(-1)).toBeNull();
    expect(file).toContain(`"'-5 V adapter"`);
    expect(file).toContain(`"'=SUM(A1:A9)"`);
    expect(file).toContain(`"'=Maths"`);
    const decisions = importFile(file, items);
    expect(decisions.map((d) => d.kind)).toEqual(['update', 'update', 'update', 'update', 'update']);
    for (const d of decisions) expect(d.kind === 'update' && d.events).toEqual([]);
  });

  it('reads back an export written for a French or German Excel (semicolons, decimal commas): every row unchanged', () => {
    const excel = { delimiter: 'semicolon', encoding: 'utf-8-bom' } as const;
    const file = itemCsvHeader(excel) + items.map((i) => itemCsvRow(i, excel)).join('');
    expect(file.split('\n')[0]).toBe(
      'name;sku;barcode;category;quantity;price;threshold;description;expiry_date;image_url;currency',
    );
    expect(file).toContain(`"'-5 V adapter";"SKU-1";"";"Tools";3;2,5;1;`);
    const decisions = importFile(file, items);
    expect(decisions.map((d) => d.kind)).toEqual(['update', 'update', 'update', 'update', 'update']);
    for (const d of decisions) expect(d.kind === 'update' && d.events).toEqual([]);
  });

  it('creates an exported item elsewhere with its text as it was, quote taken off', () => {
    const file = itemCsvHeader() + itemCsvRow(items[0]!);
    const [created] = importFile(file, []);
    expect(created).toMatchObject({ kind: 'create', fields: { name: '-5 V adapter', description: '- spare, boxed' } });
  });

  it('still refuses a formula the item does not have, with the quote or without', () => {
    const header = 'name,sku,category,price\n';
    const refused = importFile(
      header +
        `"'=HYPERLINK(""http://evil.example"")",NEW-1,Tools,1\n=1+1,SKU-5,Tools,1\n"'=SUM(B1:B9)",SKU-2,Tools,1\n"'@evil",SKU-1,Tools,1\n`,
      items,
    );
    expect(refused.map((d) => d.kind === 'problem' && d.column)).toEqual(['name', 'name', 'name', 'name']);
    expect(refused[0]).toMatchObject({
      message: expect.stringMatching(/^name starts with "=": a spreadsheet formula/),
    });
  });

  it("keeps a quote that defuses nothing (it is the item's text)", () => {
    const [created] = importFile("name,sku,category,price\n'Tis the season,NEW-2,Tools,1\n", []);
    expect(created).toMatchObject({ kind: 'create', fields: { name: "'Tis the season" } });
  });
});
