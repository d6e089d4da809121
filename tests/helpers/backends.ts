// The database backends a test runs on: PGlite always; PostgreSQL from TEST_DATABASE_URL;
// PostgreSQL from testcontainers when Docker was found. Each test database is fresh.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.js';
import { migrate } from '../../server/db/migrate.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import { migratedSnapshot } from './pglite-snapshot.js';

export interface Backend {
  name: string;
  url?: string;
}

export function backends(): Backend[] {
  const list: Backend[] = [{ name: 'pglite' }];
  if (process.env.TEST_DATABASE_URL) list.push({ name: 'postgres', url: process.env.TEST_DATABASE_URL });
  const container = inject('containerDatabaseUrl');
  if (container) list.push({ name: 'postgres-container', url: container });
  return list;
}

export interface TestStore {
  database: Database;
  store: EventStore;
  /** Opens another connection pool to the same database and schema (a second instance). */
  schema: string | undefined;
  close(): Promise<void>;
}

export async function openTestStore(backend: Backend, options: { poolSize?: number } = {}): Promise<TestStore> {
  const schema = backend.url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  // PGlite starts from the run's migrated dump; migrate() then finds nothing left to do.
  const loadDataDir = backend.url ? undefined : await migratedSnapshot();
  const database = await openDatabase({ url: backend.url, schema, poolSize: options.poolSize ?? 30, loadDataDir });
  await migrate(database.db);
  return {
    database,
    store: new EventStore(database.db, projections),
    schema,
    async close() {
      await database.close();
      if (backend.url && schema) {
        const client = new pg.Client({ connectionString: backend.url });
        await client.connect();
        await client.query(
          `drop schema if exists "${schema}" cascade; drop schema if exists "${schema}_rebuild" cascade`,
        );
        await client.end();
      }
    },
  };
}

/** The backends that are PostgreSQL servers (several connections, other instances). */
export function serverBackends(): Backend[] {
  return backends().filter((b) => b.url);
}

/**
 * For files whose every case needs a PostgreSQL server: without one (no TEST_DATABASE_URL,
 * no Docker) the file shows one skipped case saying so, instead of failing as empty.
 */
export function reportMissingServer(what: string): void {
  if (serverBackends().length === 0) {
    describe(what, () => it.skip('needs a PostgreSQL server: set TEST_DATABASE_URL (CI does)', () => {}));
  }
}
