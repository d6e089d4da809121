// The places bench fills its store through the projections' set-based forms
// (tests/bench/places-fill.ts); its numbers only count if that store is what the app would
// have written. Here a small fill is compared table by table with a replay of its events.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
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

  it('leaves every projection as a replay of its events does', async () => {
    expect(await verifyProjections(t.store)).toEqual([]);
  }, 120_000);
});
