// An embedded store vacuums its history tables by itself (PGlite has no autovacuum, and the
// as-of reads slow down with every closed version's dead row); a PostgreSQL store leaves it
// to the server's autovacuum.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleHistoryVacuum, VACUUMED_TABLES } from '../../server/db/pglite-vacuum.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';

async function vacuumCounts(t: TestStore): Promise<Record<string, number>> {
  const rows = await sql<{
    relname: string;
    vacuums: number;
  }>`select relname, vacuum_count::int as vacuums from pg_stat_user_tables
    where relname in (${sql.join(VACUUMED_TABLES)}) and schemaname = current_schema()`.execute(t.database.db);
  return Object.fromEntries(rows.rows.map((r) => [r.relname, Number(r.vacuums)]));
}

describe.each(backends())('history vacuum on $name', (backend) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(backend);
  });
  afterAll(() => t.close());

  it(
    backend.url
      ? 'schedules nothing: autovacuum does it'
      : 'vacuums item_versions and category_versions on its schedule',
    async () => {
      const before = await vacuumCounts(t);
      const warnings: string[] = [];
      const stop = scheduleHistoryVacuum(t.database, 50, (w) => warnings.push(w));
      try {
        if (backend.url) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(await vacuumCounts(t)).toEqual(before);
        } else {
          await vi.waitFor(
            async () => {
              const after = await vacuumCounts(t);
              for (const table of VACUUMED_TABLES)
                expect(after[table]).toBeGreaterThanOrEqual((before[table] ?? 0) + 2);
            },
            { timeout: 10_000, interval: 50 },
          );
        }
      } finally {
        await stop();
      }
      expect(warnings).toEqual([]);
    },
  );
});
