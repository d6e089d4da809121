// The CSV import flow: upload -> map columns -> dry run on the server -> confirm the new
// categories -> commit in batches with progress -> result. The import's state is saved in
// IndexedDB once the commit starts and after every batch, so a closed tab resumes where it
// stopped (a batch in flight is sent again; its rows' idempotency keys keep it from doubling).
import { assign, fromPromise, setup } from 'xstate';
import {
  IMPORT_BATCH_ROWS,
  type CommitRowResult,
  type DryRunReport,
  type ImportField,
  type ImportRow,
} from '../../../shared/import';
import { delimiterNamed } from '../../../shared/csv-format';
import { errorMessage } from '../../lib/api-client';
import { importApi } from './api';
import { guessMapping, missingFields, type ColumnMapping } from './column-mapping';
import { batchesOf, toImportRows } from './import-rows';
import { parseFile, type ParsedFile } from './parse-file';
import { savedImport, type SavedImport } from './saved-import';

export interface ImportContext {
  importId: string;
  fileName: string;
  parsed: ParsedFile | null;
  mapping: ColumnMapping;
  report: DryRunReport | null;
  /** The user ticked "create these categories". */
  categoriesConfirmed: boolean;
  batchesDone: number;
  results: CommitRowResult[];
  /** A saved import found on opening the page. */
  saved: SavedImport | null;
  error: string | null;
}

export type ImportEvent =
  | { type: 'FILE'; file: File }
  | { type: 'MAP'; column: number; field: ImportField | null }
  | { type: 'CHECK' }
  | { type: 'BACK' }
  | { type: 'CONFIRM_CATEGORIES'; value: boolean }
  | { type: 'COMMIT' }
  | { type: 'RESUME' }
  | { type: 'DISCARD' }
  | { type: 'START_OVER' };

/** The rows a commit sends: every row the dry run did not reject. */
export function rowsToCommit(context: Pick<ImportContext, 'parsed' | 'mapping' | 'report'>): {
  columns: ImportField[];
  rows: ImportRow[];
} {
  const { columns, rows } = toImportRows(context.parsed!, context.mapping);
  const rejected = new Set(context.report?.problems.map((p) => p.row));
  return { columns, rows: rows.filter((r) => !rejected.has(r.row)) };
}

export const batchCount = (context: ImportContext) => Math.ceil(rowsToCommit(context).rows.length / IMPORT_BATCH_ROWS);

const snapshotOf = (c: ImportContext): SavedImport => ({
  importId: c.importId,
  fileName: c.fileName,
  parsed: c.parsed!,
  mapping: c.mapping,
  report: c.report!,
  batchesDone: c.batchesDone,
  results: c.results,
});

const fresh = (): ImportContext => ({
  importId: crypto.randomUUID(),
  fileName: '',
  parsed: null,
  mapping: [],
  report: null,
  categoriesConfirmed: false,
  batchesDone: 0,
  results: [],
  saved: null,
  error: null,
});

const failure =
  (what: string) =>
  ({ event }: { event: unknown }) =>
    `${what}: ${errorMessage((event as { error: unknown }).error, 'Request failed')}`;

export const importMachine = setup({
  types: { context: {} as ImportContext, events: {} as ImportEvent },
  actors: {
    loadSaved: fromPromise(() => savedImport.load()),
    parse: fromPromise<ParsedFile, File>(({ input }) => parseFile(input)),
    dryRun: fromPromise<DryRunReport, ImportContext>(({ input }) =>
      importApi.dryRun({ fileName: input.fileName, ...toImportRows(input.parsed!, input.mapping) }),
    ),
    createCategories: fromPromise<unknown, ImportContext>(async ({ input }) => {
      // Saved first: if the tab closes from here on, the page offers to resume.
      await savedImport.save(snapshotOf(input));
      if (input.report!.newCategories.length === 0) return;
      await importApi.createCategories({
        importId: input.importId,
        fileName: input.fileName,
        names: input.report!.newCategories,
      });
    }),
    commitBatch: fromPromise<CommitRowResult[], ImportContext>(async ({ input }) => {
      const { columns, rows } = rowsToCommit(input);
      const batch = batchesOf(rows, IMPORT_BATCH_ROWS)[input.batchesDone]!;
      // The file's delimiter and encoding go along: the store's exports offer them (Settings.importFormat).
      const format = { delimiter: delimiterNamed(input.parsed!.delimiter), encoding: input.parsed!.encoding };
      const { results } = await importApi.commit({
        importId: input.importId,
        fileName: input.fileName,
        columns,
        rows: batch,
        format,
      });
      await savedImport.save({
        ...snapshotOf(input),
        batchesDone: input.batchesDone + 1,
        results: [...input.results, ...results],
      });
      return results;
    }),
    forget: fromPromise(() => savedImport.clear()),
  },
  guards: {
    hasSaved: ({ event }) => Boolean((event as unknown as { output: SavedImport | null }).output),
    mappingComplete: ({ context }) => missingFields(context.mapping).length === 0,
    readyToCommit: ({ context }) =>
      (context.report!.newCategories.length === 0 || context.categoriesConfirmed) &&
      rowsToCommit(context).rows.length > 0,
    allBatchesDone: ({ context }) => context.batchesDone >= batchCount(context),
  },
  actions: {
    keepSaved: assign({ saved: ({ event }) => (event as unknown as { output: SavedImport }).output }),
    restoreSaved: assign(({ context }) => ({ ...context.saved!, saved: null, categoriesConfirmed: true, error: null })),
    reset: assign(() => fresh()),
    keepFileName: assign({ fileName: ({ event }) => (event.type === 'FILE' ? event.file.name : ''), error: null }),
    keepParsed: assign(({ event }) => {
      const parsed = (event as unknown as { output: ParsedFile }).output;
      return {
        parsed,
        mapping: guessMapping(parsed.header),
        error: parsed.header.length === 0 ? 'The file is empty' : null,
      };
    }),
    map: assign({
      mapping: ({ context, event }) => {
        if (event.type !== 'MAP') return context.mapping;
        // A field fills one column: choosing it for this column frees it elsewhere.
        return context.mapping.map((field, i) =>
          i === event.column ? event.field : field === event.field ? null : field,
        );
      },
    }),
    keepReport: assign({ report: ({ event }) => (event as unknown as { output: DryRunReport }).output, error: null }),
    setConfirmed: assign({
      categoriesConfirmed: ({ event }) => (event.type === 'CONFIRM_CATEGORIES' ? event.value : false),
    }),
    keepBatch: assign(({ context, event }) => ({
      batchesDone: context.batchesDone + 1,
      results: [...context.results, ...(event as unknown as { output: CommitRowResult[] }).output],
      error: null,
    })),
    parseFailed: assign({ error: failure('Could not read the file') }),
    dryRunFailed: assign({ error: failure('Could not check the file') }),
    commitFailed: assign({ error: failure('The import stopped') }),
  },
}).createMachine({
  id: 'csvImport',
  context: fresh,
  initial: 'checkingSaved',
  states: {
    checkingSaved: {
      invoke: {
        src: 'loadSaved',
        onDone: [{ guard: 'hasSaved', target: 'resumeOffer', actions: 'keepSaved' }, { target: 'upload' }],
        onError: 'upload',
      },
    },
    resumeOffer: {
      on: {
        RESUME: { target: 'committing', actions: 'restoreSaved' },
        DISCARD: 'discarding',
      },
    },
    discarding: {
      invoke: {
        src: 'forget',
        onDone: { target: 'upload', actions: 'reset' },
        onError: { target: 'upload', actions: 'reset' },
      },
    },
    upload: {
      on: { FILE: { target: 'parsing', actions: 'keepFileName' } },
    },
    parsing: {
      invoke: {
        src: 'parse',
        input: ({ event }) => (event as { type: 'FILE'; file: File }).file,
        onDone: { target: 'mapping', actions: 'keepParsed' },
        onError: { target: 'upload', actions: 'parseFailed' },
      },
    },
    mapping: {
      on: {
        MAP: { actions: 'map' },
        CHECK: { guard: 'mappingComplete', target: 'checking' },
        FILE: { target: 'parsing', actions: 'keepFileName' },
        START_OVER: { target: 'upload', actions: 'reset' },
      },
    },
    checking: {
      invoke: {
        src: 'dryRun',
        input: ({ context }) => context,
        onDone: { target: 'review', actions: 'keepReport' },
        onError: { target: 'mapping', actions: 'dryRunFailed' },
      },
    },
    review: {
      on: {
        CONFIRM_CATEGORIES: { actions: 'setConfirmed' },
        COMMIT: { guard: 'readyToCommit', target: 'creatingCategories' },
        BACK: 'mapping',
        START_OVER: { target: 'upload', actions: 'reset' },
      },
    },
    creatingCategories: {
      invoke: {
        src: 'createCategories',
        input: ({ context }) => context,
        onDone: 'committing',
        onError: { target: 'review', actions: 'commitFailed' },
      },
    },
    committing: {
      always: { guard: 'allBatchesDone', target: 'finishing' },
      invoke: {
        src: 'commitBatch',
        input: ({ context }) => context,
        onDone: { target: 'committing', reenter: true, actions: 'keepBatch' },
        onError: { target: 'stopped', actions: 'commitFailed' },
      },
    },
    stopped: {
      on: { RESUME: { target: 'committing', actions: assign({ error: null }) } },
    },
    finishing: { invoke: { src: 'forget', onDone: 'result', onError: 'result' } },
    result: {
      on: { START_OVER: { target: 'upload', actions: 'reset' } },
    },
  },
});
