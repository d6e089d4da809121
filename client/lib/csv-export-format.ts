// The CSV formats the export buttons offer, and the store's remembered choice. "Excel" is
// decided here, in the browser, because the spreadsheet that opens
// the file runs on this computer: its list separator is ";" where the decimal sign is ","
// (French, German, Spanish...; Windows derives one from the other the same way), and a
// UTF-8 file needs its byte-order mark or Excel reads it as the Windows code page.
import type { Settings } from '../../shared/accounts';
import { STANDARD_CSV, type CsvDelimiter, type CsvFormat, type CsvFormatChoice } from '../../shared/csv-format';
import { api } from './api-client';

/** ";" for a locale that writes 4,5 (and for Switzerland, whose Windows uses ";" with 4.5); "," otherwise. */
export function localeListSeparator(locale: string | undefined = globalThis.navigator?.language): CsvDelimiter {
  if (locale && /-(CH|LI)\b/i.test(locale)) return 'semicolon';
  try {
    const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
    return decimal === ',' ? 'semicolon' : 'comma';
  } catch {
    return 'comma'; // a locale tag Intl does not know
  }
}

export const excelFormat = (locale?: string): CsvFormat => ({
  delimiter: localeListSeparator(locale),
  encoding: 'utf-8-bom',
});

/** The format a choice stands for; "file" without a known file is the standard format. */
export function formatOfChoice(choice: CsvFormatChoice, fileFormat: CsvFormat | null, locale?: string): CsvFormat {
  if (choice === 'excel') return excelFormat(locale);
  if (choice === 'file') return fileFormat ?? STANDARD_CSV;
  return STANDARD_CSV;
}

/** The export's query parameters; none for the standard format, so its address is what it always was. */
export function csvFormatParams(format: CsvFormat): string {
  const params = new URLSearchParams();
  if (format.delimiter !== STANDARD_CSV.delimiter) params.set('delimiter', format.delimiter);
  if (format.encoding !== STANDARD_CSV.encoding) params.set('encoding', format.encoding);
  return params.toString();
}

export const withCsvFormat = (path: string, format: CsvFormat): string => {
  const params = csvFormatParams(format);
  return params ? `${path}${path.includes('?') ? '&' : '?'}${params}` : path;
};

export type StoreCsvFormats = Pick<Settings, 'exportFormat' | 'importFormat'>;

/** Read when an export starts or its menu opens, so another session's pick is seen at once. */
export async function storeCsvFormats(): Promise<StoreCsvFormats> {
  const settings = await api.get<Settings>('/settings');
  return { exportFormat: settings.exportFormat ?? null, importFormat: settings.importFormat ?? null };
}

/** Managers only (Manage settings): the store's export format from now on. */
export const rememberExportFormat = (choice: CsvFormatChoice) =>
  api.put<Settings>('/settings', { exportFormat: choice });

/** The encoding a downloaded file really has: Windows-1252 asked for comes back as UTF-8 with a BOM when a name does not fit. */
export async function encodingOfDownload(blob: Blob, asked: CsvFormat['encoding']): Promise<CsvFormat['encoding']> {
  if (asked !== 'windows-1252') return asked;
  const head = new Uint8Array(await blob.slice(0, 3).arrayBuffer());
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 'utf-8-bom' : 'windows-1252';
}
