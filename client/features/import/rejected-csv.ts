// The rejected rows as a CSV to fix and import again: the file's own columns as they were,
// plus an "error" column saying what to fix, split by the file's own delimiter unless
// another format was picked (the bytes are client/lib/csv-blob.ts's job).
import Papa from 'papaparse';
import type { ImportProblem } from '../../../shared/import';
import type { Delimiter, ParsedCsv } from './parse-csv';

/** `columnName` turns a problem's field into the file's own column title. */
export function rejectedCsv(
  parsed: ParsedCsv,
  problems: ImportProblem[],
  columnName: (p: ImportProblem) => string | null,
  delimiter: Delimiter = parsed.delimiter,
): string {
  const byRow = new Map(parsed.rows.map((r) => [r.row, r]));
  const data = [...problems]
    .sort((a, b) => a.row - b.row)
    .map((problem) => {
      const row = byRow.get(problem.row);
      const cells = !row ? [] : 'cells' in row ? row.cells : row.line.split(parsed.delimiter);
      const padded = parsed.header.map((_, i) => cells[i] ?? '');
      const column = columnName(problem);
      return [...padded, `Row ${problem.row}${column ? `, ${column}` : ''}: ${problem.message}`];
    });
  return Papa.unparse({ fields: [...parsed.header, 'error'], data }, { delimiter, newline: '\r\n' });
}
