// The import in progress, kept in IndexedDB: a closed tab or a crash mid-commit leaves it
// there, and reopening /inventory/import offers to resume it. The rows are kept too (the
// file itself is gone with the tab); batches already answered are never sent again, and a
// batch that was in flight is sent again safely (each row has its own idempotency key).
import type { CommitRowResult, DryRunReport } from '../../../shared/import';
import type { ColumnMapping } from './column-mapping';
import type { ParsedFile } from './parse-file';

export interface SavedImport {
  importId: string;
  fileName: string;
  parsed: ParsedFile;
  mapping: ColumnMapping;
  report: DryRunReport;
  /** Batches answered so far, and their rows' outcomes. */
  batchesDone: number;
  results: CommitRowResult[];
}

const DB_NAME = 'stockroom-import';
const STORE = 'imports';
const KEY = 'current';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export const savedImport = {
  load: async (): Promise<SavedImport | null> => (await run('readonly', (s) => s.get(KEY))) ?? null,
  save: (state: SavedImport) => run('readwrite', (s) => s.put(state, KEY)).then(() => undefined),
  clear: () => run('readwrite', (s) => s.delete(KEY)).then(() => undefined),
};
