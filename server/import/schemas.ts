// JSON schemas of the import routes. Cells are text as the file has them: the server turns
// them into the API's types and checks them with the API's own item schemas (import-rows.ts).
import { IMPORT_BATCH_ROWS, IMPORT_FIELDS } from '../../shared/import.js';
import { CSV_DELIMITER_NAMES, CSV_ENCODINGS } from '../../shared/csv-format.js';
import { errorSchema } from '../inventory/schemas.js';

const fileName = { type: 'string', minLength: 1, maxLength: 255 } as const;
const importId = { type: 'string', format: 'uuid' } as const;
const columns = {
  type: 'array',
  minItems: 1,
  maxItems: IMPORT_FIELDS.length,
  uniqueItems: true,
  items: { type: 'string', enum: IMPORT_FIELDS },
} as const;

const rowNumber = { type: 'integer', minimum: 2, maximum: 10_000_000 } as const;
const row = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['row', 'cells'],
      properties: {
        row: rowNumber,
        // A cell longer than any item field allows is refused by the item schema with a message.
        cells: { type: 'array', maxItems: IMPORT_FIELDS.length, items: { type: 'string', maxLength: 10_000 } },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['row', 'problem'],
      properties: { row: rowNumber, problem: { type: 'string', minLength: 1, maxLength: 500 } },
    },
  ],
} as const;

const rows = (max: number) => ({ type: 'array', minItems: 1, maxItems: max, items: row }) as const;

/** The dry run's body; `maxRows` is IMPORT_MAX_ROWS (import-limits.ts answers 413 past it, before this runs). */
export const dryRunBody = (maxRows: number) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['fileName', 'columns', 'rows'],
    properties: { fileName, columns, rows: rows(maxRows) },
  }) as const;

const format = {
  type: 'object',
  additionalProperties: false,
  required: ['delimiter', 'encoding'],
  properties: {
    delimiter: { type: 'string', enum: CSV_DELIMITER_NAMES },
    encoding: { type: 'string', enum: CSV_ENCODINGS },
  },
} as const;

export const commitBody = {
  type: 'object',
  additionalProperties: false,
  required: ['importId', 'fileName', 'columns', 'rows'],
  properties: { importId, fileName, columns, rows: rows(IMPORT_BATCH_ROWS), format },
} as const;

export const categoriesBody = {
  type: 'object',
  additionalProperties: false,
  required: ['importId', 'fileName', 'names'],
  properties: {
    importId,
    fileName,
    names: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', minLength: 1, maxLength: 100 } },
  },
} as const;

const problem = {
  type: 'object',
  properties: { row: { type: 'integer' }, column: { type: ['string', 'null'] }, message: { type: 'string' } },
} as const;

export const dryRunReply = {
  type: 'object',
  properties: {
    rows: { type: 'integer' },
    create: { type: 'integer' },
    update: { type: 'integer' },
    unchanged: { type: 'integer' },
    problems: { type: 'array', items: problem },
    newCategories: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const commitReply = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          row: { type: 'integer' },
          outcome: { type: 'string' },
          column: { type: ['string', 'null'] },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

export const categoriesReply = {
  type: 'object',
  properties: {
    categories: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, created: { type: 'boolean' } },
      },
    },
  },
} as const;

export const importErrors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 413: errorSchema } as const;
