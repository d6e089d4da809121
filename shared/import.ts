// CSV import: the item fields a file's columns can map to, and the shapes of the import
// API (dry run, categories, commit). Shared by the browser (which parses the file) and
// the server (which validates and writes it).
import type { CsvFormat } from './csv-format.js';

/**
 * What an import column can fill, in the order the mapping screen lists them: the item's
 * fields, and where its quantity is (`site`, `location`: a code or a name each). A row that
 * names a place sets the quantity there (the item's other locations keep theirs); a row that
 * names none sets the item's total, as before places (the difference at the default location).
 */
export const IMPORT_FIELDS = [
  'name',
  'sku',
  'barcode',
  'category',
  'site',
  'location',
  'quantity',
  'price',
  'threshold',
  'description',
  'expiry_date',
  'image_url',
] as const;

export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The columns that say where a row's quantity is. */
export const PLACE_FIELDS: readonly ImportField[] = ['site', 'location'];

/** The item export's columns (one row per item): the item fields, without a place. */
export const ITEM_EXPORT_FIELDS = IMPORT_FIELDS.filter((field) => !PLACE_FIELDS.includes(field));

/** Rows per commit request: one transaction each on the server. */
export const IMPORT_BATCH_ROWS = 500;
// The most rows and bytes one file may have are the server's settings (IMPORT_MAX_ROWS,
// IMPORT_MAX_BYTES in server/config.ts): past either, the dry run answers 413 saying which.

/**
 * One data row of the file. `row` is its number as a spreadsheet shows it (the header is
 * row 1). `cells` follow the request's `columns`; a row the browser could not even parse
 * (an unterminated quote) carries `problem` instead, so the report lists it with the rest.
 */
export type ImportRow = { row: number; cells: string[] } | { row: number; problem: string };

export interface ImportRowsBody {
  fileName: string;
  columns: ImportField[];
  rows: ImportRow[];
}

export interface ImportProblem {
  row: number;
  /** The item field the problem is in (the browser shows the file's own column name), or null for the whole row. */
  column: ImportField | null;
  message: string;
}

export interface DryRunReport {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  problems: ImportProblem[];
  /** Categories the file names that do not exist yet: created once the user confirms them. */
  newCategories: string[];
}

export interface ImportCategoriesBody {
  importId: string;
  fileName: string;
  names: string[];
}

export interface CommitBody extends ImportRowsBody {
  importId: string;
  /** The file's delimiter and encoding: the store remembers them for its exports (Settings.importFormat). */
  format?: CsvFormat;
}

export type RowOutcome = 'created' | 'updated' | 'unchanged' | 'rejected';

export interface CommitRowResult {
  row: number;
  outcome: RowOutcome;
  column?: ImportField | null;
  message?: string;
}

export interface CommitResult {
  results: CommitRowResult[];
}

/** The idempotency key of one imported row: a retry or a resumed import never writes it twice. */
export const importRowKey = (importId: string, row: number) => `import:${importId}:${row}`;
export const importCategoryKey = (importId: string, name: string) =>
  `import:${importId}:category:${name.trim().toLowerCase()}`;

/** What history and the activity log say about an imported change. */
export const importedFrom = (fileName: string) => `Imported from ${fileName}`;
