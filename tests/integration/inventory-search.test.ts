// Typo-tolerant search through the search dictionary: misspelt words find items by the known
// words one or two edits away, including words that arrive by an edit or a category rename;
// the dictionary survives projections:rebuild, and migration 007's backfill rebuilds it.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitStatements } from '../../server/db/migrate.js';
import { rebuildProjections, verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe.each(backends())('search with typos on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  const ids: Record<string, string> = {};

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await server.request(method, path, { token: manager.idToken, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  const search = async (q: string): Promise<string[]> =>
    ((await call('GET', `/api/inventory/search?q=${encodeURIComponent(q)}`)) as Array<{ name: string }>).map(
      (i) => i.name,
    );
  const words = async (): Promise<string[]> =>
    (
      await sql<{ word: string }>`select word from search_words order by word`.execute(server.store.database.db)
    ).rows.map((r) => r.word);

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    const lighting = await call('POST', '/api/categories', { name: 'Lighting' });
    const add = async (name: string, sku: string, description = '') => {
      ids[name] = (
        await call('POST', '/api/inventory', {
          name,
          sku,
          description,
          category_id: lighting.id,
          quantity: 5,
          price: 9,
          threshold: 1,
        })
      ).id;
    };
    await add('Desk Lamp', 'L-DESK', 'Warm white, adjustable arm');
    await add('Floor Lamp', 'L-FLOOR');
    await add('Keyboard Light', 'L-KEY');
  });
  afterAll(() => server.close());

  it('keeps the words of names, descriptions, SKUs and category names', async () => {
    expect(await words()).toEqual(
      expect.arrayContaining([
        'adjustable',
        'arm',
        'desk',
        'floor',
        'keyboard',
        'lamp',
        'light',
        'lighting',
        'warm',
        'white',
      ]),
    );
    // Letters only, three or more: 'l' (from the SKUs) is no word.
    expect(await words()).not.toContain('l');
  });

  it('finds items when a word is misspelt by one or two edits', async () => {
    expect((await search('lmp')).sort()).toEqual(['Desk Lamp', 'Floor Lamp']);
    expect(await search('keybord')).toEqual(['Keyboard Light']);
    expect(await search('dsk lamp')).toEqual(['Desk Lamp']);
    expect(await search('adjustible')).toEqual(['Desk Lamp']);
    // Exact matches come first and are not repeated by the typo pass.
    expect(await search('lamp')).toHaveLength(2);
    // Too far from any known word: nothing, rather than something unrelated.
    expect(await search('xqzvw')).toEqual([]);
  });

  it('learns words from edits and category renames', async () => {
    await call('PUT', `/api/inventory/${ids['Floor Lamp']}`, { name: 'Standing Lantern' });
    expect(await search('lanturn')).toEqual(['Standing Lantern']);
    const category = (await call('GET', '/api/categories')).find((c: { name: string }) => c.name === 'Lighting');
    await call('PUT', `/api/categories/${category.id}`, { name: 'Illumination' });
    expect((await search('ilumination')).sort()).toEqual(['Desk Lamp', 'Keyboard Light', 'Standing Lantern']);
  });

  it('keeps the dictionary through projections:rebuild, and migration 007 backfills it from the items', async () => {
    const before = await words();
    await rebuildProjections(server.store.store);
    expect(await verifyProjections(server.store.store)).toEqual([]);
    expect(await words()).toEqual(before);

    const db = server.store.database.db;
    const backfill = splitStatements(
      readFileSync(new URL('../../migrations/007_search_words.sql', import.meta.url), 'utf8'),
    ).filter((s) => s.startsWith('insert into'));
    expect(backfill).toHaveLength(1);
    await sql`delete from search_words`.execute(db);
    expect(await search('lanturn')).toEqual([]);
    await sql.raw(backfill[0]!).execute(db);
    expect(await search('lanturn')).toEqual(['Standing Lantern']);
    // From the items as they are now: the renamed-away words are not brought back.
    expect(await words()).not.toContain('lighting');
  });
});
