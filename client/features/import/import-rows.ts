// A parsed file and its mapping as the import API takes them: the mapped fields, and each
// row's mapped cells (or the reason it could not be read).
import type { ImportField, ImportRow } from '../../../shared/import';
import { mappedColumns, type ColumnMapping } from './column-mapping';
import type { ParsedCsv } from './parse-csv';

export function toImportRows(parsed: ParsedCsv, mapping: ColumnMapping): { columns: ImportField[]; rows: ImportRow[] } {
  const { fields, indexes } = mappedColumns(mapping);
  const rows = parsed.rows.map((r): ImportRow =>
    'problem' in r ? { row: r.row, problem: r.problem } : { row: r.row, cells: indexes.map((i) => r.cells[i] ?? '') },
  );
  return { columns: fields, rows };
}

/** Rows in batches of `size`, in file order. */
export function batchesOf<T>(rows: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < rows.length; i += size) batches.push(rows.slice(i, i + size));
  return batches;
}
