// The import's browser side without a browser: encodings, delimiters, spreadsheet row
// numbers, a broken quote costing one line, header synonyms, and the rejected-rows CSV.
import { describe, expect, it } from 'vitest';
import { guessMapping, missingFields } from '../../client/features/import/column-mapping.js';
import { decodeFile } from '../../client/features/import/decode-file.js';
import { parseCsv, UNTERMINATED_QUOTE } from '../../client/features/import/parse-csv.js';
import { rejectedCsv } from '../../client/features/import/rejected-csv.js';

describe('import parsing', () => {
  it('reads UTF-8 with and without BOM, and Windows-1252', () => {
    const utf8 = new TextEncoder().encode('Café');
    expect(decodeFile(utf8)).toEqual({ text: 'Café', encoding: 'utf-8' });
    expect(decodeFile(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toEqual({ text: 'Café', encoding: 'utf-8-bom' });
    expect(decodeFile(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80]))).toEqual({
      text: 'Café €',
      encoding: 'windows-1252',
    });
  });

  it('detects the delimiter and numbers rows as a spreadsheet does', () => {
    expect(parseCsv('a;b\n1;"2;3"\n').delimiter).toBe(';');
    expect(parseCsv('a\tb\n1\t2\n').delimiter).toBe('\t');
    const parsed = parseCsv('name,sku\r\n"two\r\nlines",A\r\n,\r\nC,D\r\n');
    expect(parsed.header).toEqual(['name', 'sku']);
    // A quoted cell over two lines is one row; a blank row still has its number.
    expect(parsed.rows).toEqual([
      { row: 2, cells: ['two\r\nlines', 'A'] },
      { row: 4, cells: ['C', 'D'] },
    ]);
  });

  it('turns a quote that never closes into one bad row and reads on', () => {
    const parsed = parseCsv('name,sku\nA,1\n"Broken,2\nC,3\n"Also broken,4\nE,5\n');
    expect(parsed.rows).toEqual([
      { row: 2, cells: ['A', '1'] },
      { row: 3, problem: UNTERMINATED_QUOTE, line: '"Broken,2' },
      { row: 4, cells: ['C', '3'] },
      { row: 5, problem: UNTERMINATED_QUOTE, line: '"Also broken,4' },
      { row: 6, cells: ['E', '5'] },
    ]);
  });

  it('maps columns from common header names, case and accents aside', () => {
    expect(
      guessMapping(['Item', 'SKU', 'EAN', 'Category', 'Qty', 'Unit price', 'Reorder level', 'Notes', 'Colour']),
    ).toEqual(['name', 'sku', 'barcode', 'category', 'quantity', 'price', 'threshold', 'description', null]);
    expect(guessMapping(['Nom', 'Référence', 'Catégorie', 'Stock', 'Prix'])).toEqual([
      'name',
      'sku',
      'category',
      'quantity',
      'price',
    ]);
    expect(missingFields(guessMapping(['Item', 'Qty']))).toEqual(['sku', 'category', 'price']);
  });

  it('writes the rejected rows with the file’s columns and an error column', () => {
    const parsed = parseCsv('Item;Prix\nA;x\n"B;1\n');
    const csv = rejectedCsv(
      parsed,
      [
        { row: 2, column: 'price', message: 'price must be number' },
        { row: 3, column: null, message: UNTERMINATED_QUOTE },
      ],
      (p) => (p.column === 'price' ? 'Prix' : null),
    );
    expect(csv.split('\r\n')).toEqual([
      'Item;Prix;error',
      'A;x;Row 2, Prix: price must be number',
      `"""B";1;"Row 3: ${UNTERMINATED_QUOTE.replace(/"/g, '""')}"`,
    ]);
  });
});
