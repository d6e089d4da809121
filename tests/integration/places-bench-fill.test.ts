// The places bench fills its store through the projections' set-based forms
// (tests/bench/places-fill.ts); its numbers only count if that store is what the app would
// have written. Here a small fill is compared table by table with a replay of its events,
// and the lists the bench times (by site, by location, read a page at a time from the
// place's index in list order) are paged through over HTTP and compared with the items.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer } from '../helpers/test-server.js';
import { fillPlacesStore, type PlacesFill } from '../bench/places-fill.js';

describe.each(backends())('places bench fill ($name)', (backend) => {
  let t: TestStore;
  let fill: PlacesFill;
  beforeAll(async () => {
    t = await openTestStore(backend);
    fill = await fillPlacesStore(t.store, { sites: 3, locationsPerSite: 9, items: 60, levelsPerItem: 4 });
  }, 120_000);
  afterAll(() => t?.close());

  it('puts every item at its levels over two sites, its quantity their sum', async () => {
    const { rows } = await sql<{ levels: number; sites: number; total: number; quantity: number }>`
      select count(*)::int as levels, count(distinct s.site_id)::int as sites, sum(s.quantity)::int as total,
        i.quantity from items i join stock_levels s on s.item_id = i.id
      where i.id in (${sql.join(fill.itemIds)}) group by i.id, i.quantity`.execute(t.database.db);
    expect(rows).toHaveLength(60);
    for (const row of rows) expect(row).toEqual({ levels: 4, sites: 2, total: row.quantity, quantity: row.quantity });
    expect(fill.locationIds.flat()).toHaveLength(27);
  });

  it('pages through the items at a site and at a location newest first, with their units there', async () => {
    const server = await startTestServer(backend, { store: t });
    try {
      const staff = await accountWithRole(server, 'staff');
      const [site] = fill.siteIds;
      const location = fill.locationIds[1]![4]!;
      for (const [column, id, query] of [
        ['site_id', site, `siteId=${site}`],
        ['location_id', location, `locationId=${location}`],
      ] as const) {
        const { rows: expected } = await sql<{ id: string; quantityHere: number }>`select i.id::text as id,
            sum(s.quantity)::int as "quantityHere" from items i join stock_levels s on s.item_id = i.id
          where ${sql.ref(`s.${column}`)} = ${id}::uuid group by i.id order by i.created_at desc, i.id desc`.execute(
          t.database.db,
        );
        const read: Array<{ id: string; quantityHere: number }> = [];
        let path: string | null = `/api/inventory?limit=7&${query}`;
        while (path) {
          const page = await server.request('GET', path, { token: staff.idToken });
          expect(page.status).toBe(200);
          read.push(
            ...page.body.map((i: { id: string; quantityHere: number }) => ({ id: i.id, quantityHere: i.quantityHere })),
          );
          const next = page.headers.get('x-next-cursor');
          path = next ? `/api/inventory?limit=7&${query}&cursor=${next}` : null;
        }
        expect(expected.length).toBeGreaterThan(7);
        expect(read).toEqual(expected);
      }
    } finally {
      await server.close();
    }
  });

  it('leaves every projection as a replay of its events does', async () => {
    expect(await verifyProjections(t.store)).toEqual([]);
  }, 120_000);
});
