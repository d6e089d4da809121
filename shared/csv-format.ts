// How a CSV file is written: its delimiter and its encoding. Stockroom's exports (items,
// activity log, changes) and the import's rejected-rows file can be written the way the
// store's spreadsheet reads them: Excel on a French or German PC splits lines on ";" (the
// list separator of a locale whose decimal sign is ","), and reads a file without a
// byte-order mark as the Windows code page, so UTF-8 needs its BOM there.

export const CSV_DELIMITERS = { comma: ',', semicolon: ';', tab: '\t' } as const;
export type CsvDelimiter = keyof typeof CSV_DELIMITERS;
export const CSV_DELIMITER_NAMES = Object.keys(CSV_DELIMITERS) as CsvDelimiter[];

export const CSV_ENCODINGS = ['utf-8', 'utf-8-bom', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

export interface CsvFormat {
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
}

/** What every export wrote before formats could be chosen, and still writes when none was. */
export const STANDARD_CSV: CsvFormat = { delimiter: 'comma', encoding: 'utf-8' };

/**
 * The store's remembered export format: 'standard' (comma, UTF-8), 'excel' (UTF-8 with a
 * BOM and the list separator of the reader's locale, decided in the browser), or 'file'
 * (as the imported file came in: the store's last import, or for the rejected rows that
 * very file).
 */
export const CSV_FORMAT_CHOICES = ['standard', 'excel', 'file'] as const;
export type CsvFormatChoice = (typeof CSV_FORMAT_CHOICES)[number];

/** The delimiter's name for a character the import detected (',', ';' or a tab). */
export function delimiterNamed(char: string): CsvDelimiter {
  return char === ';' ? 'semicolon' : char === '\t' ? 'tab' : 'comma';
}

/**
 * Numbers in a semicolon file take a decimal comma: semicolons are the list separator
 * exactly where the comma is the decimal sign, and such a spreadsheet reads "4.5" as text
 * or a date (4 May). The import reads "4,5" back as 4.5.
 */
export const decimalCommaIn = (format: CsvFormat): boolean => format.delimiter === 'semicolon';

/** A short description for people: "semicolon, UTF-8 with BOM". */
export function describeCsvFormat(format: CsvFormat): string {
  const encoding = { 'utf-8': 'UTF-8', 'utf-8-bom': 'UTF-8 with BOM', 'windows-1252': 'Windows-1252' }[format.encoding];
  return `${format.delimiter}, ${encoding}`;
}

export const sameCsvFormat = (a: CsvFormat | null, b: CsvFormat | null): boolean =>
  a === b || (!!a && !!b && a.delimiter === b.delimiter && a.encoding === b.encoding);
