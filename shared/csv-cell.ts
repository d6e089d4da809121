// CSV cells as Stockroom's exports write them (the item export and the activity log export).
// A text cell that starts with =, +, -, @, a tab or a carriage return would be run as a
// formula (or a DDE command) by Excel, LibreOffice or Google Sheets when the file is
// opened: such cells get a leading single quote, which spreadsheets show as plain text.
// Numbers are written as numbers: a negative quantity is not a formula, and quoting it
// would make a spreadsheet read it as text.

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell: always quoted (quotes doubled), and defused if it could run as a formula. */
export function csvTextCell(value: string | null | undefined): string {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * A numeric cell: the number as it is, or empty when there is none. With `decimalComma`
 * (a semicolon file, see shared/csv-format.ts) 4.5 is written 4,5.
 */
export function csvNumberCell(value: number | null | undefined, decimalComma = false): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return decimalComma ? String(value).replace('.', ',') : String(value);
}

/**
 * One line of cells, already written by the two functions above. Text cells are always
 * quoted and numbers never hold the delimiter, so any delimiter is safe to join with.
 */
export const csvLine = (cells: string[], delimiter = ','): string => cells.join(delimiter) + '\n';
