// One migrated PGlite store for the whole run: the global setup migrates an empty PGlite once
// and dumps its data folder to a file; every PGlite test store opens from that dump. An empty
// PGlite's initdb costs 3-4 s of CPU (7 s for a process's first), loading a dump about 1 s,
// and a run opens well over a hundred stores. The dump is made anew by every run, so a test
// store is as old as the run (the migrations date Main store's creation when they run).
// Tests of migrations themselves (places-upgrade) build their store without it, and every
// store still runs migrate(), which finds nothing left to do.
import { readFile, writeFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';

/** Migrates an empty in-memory PGlite and writes the dump of its data folder to `file`. */
export async function writeMigratedSnapshot(file: string): Promise<void> {
  const database = await openDatabase({});
  try {
    await migrate(database.db);
    const dump = await database.dumpDataDir!();
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
}

let snapshot: Promise<Blob> | undefined;

/** The dump the global setup made, read once per test file. */
export function migratedSnapshot(): Promise<Blob> {
  snapshot ??= readFile(inject('pgliteSnapshotFile')).then((bytes) => new Blob([bytes]));
  return snapshot;
}
