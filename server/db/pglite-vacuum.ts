// PGlite has no autovacuum. The history tables (item_versions, category_versions) close a
// version with an UPDATE, and each leaves a dead row whose open-ended time range matches
// every later moment: unvacuumed, an as-of read at one moment visits nearly all of them
// (the as-of bench at 1,000,000 events: listing p95 490 ms unvacuumed, 33 ms vacuumed). So an
// embedded store vacuums them now and then, as PostgreSQL's autovacuum would. VACUUM takes
// the single connection for its duration (seconds at a million events), hence rarely.
import { sql } from 'kysely';
import type { Database } from './database.js';

/** The tables whose rows are updated in place often enough to need it. */
export const VACUUMED_TABLES = ['item_versions', 'category_versions'] as const;

export async function vacuumHistory(database: Database): Promise<void> {
  for (const table of VACUUMED_TABLES) await sql`vacuum analyze ${sql.table(table)}`.execute(database.db);
}

/**
 * On PGlite, vacuums the history tables every `everyMs` (0: never); on PostgreSQL nothing
 * (autovacuum does it). Returns the stop function (it waits for a vacuum under way). A failed vacuum is logged and tried again
 * at the next turn.
 */
export function scheduleHistoryVacuum(
  database: Database,
  everyMs: number,
  warn: (message: string) => void,
): () => Promise<void> {
  if (database.kind !== 'pglite' || everyMs <= 0) return async () => undefined;
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = vacuumHistory(database)
      .catch((error: unknown) => warn(`vacuum of the history tables failed: ${(error as Error).message}`))
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  // Stopping waits for a vacuum under way, so the database is not closed under it.
  return async () => {
    clearInterval(timer);
    await running;
  };
}
