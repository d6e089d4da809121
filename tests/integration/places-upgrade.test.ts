// A store that had stock before places existed: migration 023 puts every item's quantity at
// Main location, and from then on Main store and Main location cannot be archived while that
// stock is there; the refusal says how much, and changes nothing. The store before the
// upgrade is built as its tables then were (migrations up to 022, rows of a category and
// its items), so the test stands whatever the later migrations and projections add.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { migrate, splitStatements } from '../../server/db/migrate.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { projections } from '../../server/features.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { backends, type Backend, type TestStore } from '../helpers/backends.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { eventCount } from './accounts-fixtures.js';

const migrations = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** A store at migration 022 with stock on its shelves, then upgraded by every later migration. */
async function upgradedStore(backend: Backend): Promise<TestStore> {
  const schema = backend.url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase({ url: backend.url, schema, poolSize: 4 });
  const db = database.db;
  await sql`create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(
    db,
  );
  const before = (await readdir(migrations)).filter((f) => /^\d+_.*\.sql$/.test(f) && f < '023').sort();
  for (const file of before) {
    const text = await readFile(migrations + file, 'utf8');
    await db.transaction().execute(async (trx) => {
      for (const statement of splitStatements(text)) await sql.raw(statement).execute(trx);
      await sql`insert into schema_migrations (name) values (${file})`.execute(trx);
    });
  }
  await sql`insert into categories (id, name, item_count, version, created_at, updated_at)
    values ('10000000-0000-4000-8000-000000000001', 'Dairy', 3, 1, now(), now())`.execute(db);
  for (const [n, name, quantity] of [
    [1, 'Milk', 11],
    [2, 'Eggs', 3],
    [3, 'Cream', 0],
  ] as const) {
    await sql`insert into items (id, name, sku, category_id, category_name, quantity, price, threshold, version,
        created_at, updated_at, search_text)
      values (${`20000000-0000-4000-8000-00000000000${n}`}, ${name}, ${`SKU-${n}`}, '10000000-0000-4000-8000-000000000001',
        'Dairy', ${quantity}, 1, 0, 1, now(), now(), lower(${name}))`.execute(db);
  }
  await migrate(db);
  return {
    database,
    store: new EventStore(db, projections),
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

describe.each(backends())('a store upgraded to places on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;

  beforeAll(async () => {
    server = await startTestServer(backend, { store: await upgradedStore(backend) });
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
  });
  afterAll(() => server?.close());

  it('keeps Main store and Main location while they hold the stock the store had, saying how much', async () => {
    const archive = async (path: string) => {
      const before = await eventCount(server);
      const res = await server.request('POST', path, { token: manager.idToken });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(await eventCount(server)).toBe(before);
      return res.body.error as string;
    };
    // Another active site, so the stock is the only reason Main store stays.
    const other = await server.request('POST', '/api/sites', {
      token: manager.idToken,
      body: { name: 'Depot', code: 'DEPOT', time_zone: 'UTC' },
    });
    expect(other.status).toBe(201);

    expect(await archive(`/api/sites/${MAIN_SITE_ID}/archive`)).toBe(
      'Main store still holds 14 units of 2 items (at Main location): move them first',
    );
    expect(await archive(`/api/locations/${MAIN_LOCATION_ID}/archive`)).toBe(
      'Main location still holds 14 units of 2 items: move them first',
    );
    const site = await server.request('GET', `/api/sites/${MAIN_SITE_ID}`, { token: manager.idToken });
    expect(site.body).toMatchObject({ archivedAt: null, version: 1 });
  });
});
