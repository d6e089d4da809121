// Sites and locations for tests of stock per location: Main store with Main location (what
// migration 023 creates) plus two more locations there, and a second site, Warehouse, with
// two. They are written as the events the sites feature writes (SiteCreated, LocationCreated);
// where no projection of this build keeps the `sites` and `locations` tables from them, their
// rows are written too, as such a projection would. Idempotent: a second call adds nothing.
import { sql } from 'kysely';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { EventStore, StreamBatch } from '../../server/eventstore/event-store.js';
import type { StockPlace } from '../../server/inventory/stock-places.js';

export const WAREHOUSE_SITE_ID = '00000000-0000-4000-8000-0000000000b1';

export const TEST_PLACES: StockPlace[] = [
  { id: MAIN_LOCATION_ID, name: 'Main location', siteId: MAIN_SITE_ID, archived: false },
  { id: '00000000-0000-4000-8000-0000000000a1', name: 'Back room', siteId: MAIN_SITE_ID, archived: false },
  { id: '00000000-0000-4000-8000-0000000000a2', name: 'Shelf A', siteId: MAIN_SITE_ID, archived: false },
  { id: '00000000-0000-4000-8000-0000000000b2', name: 'Dock', siteId: WAREHOUSE_SITE_ID, archived: false },
  { id: '00000000-0000-4000-8000-0000000000b3', name: 'Bay 7', siteId: WAREHOUSE_SITE_ID, archived: false },
];

const SITES = [
  { id: MAIN_SITE_ID, name: 'Main store', code: 'MAIN' },
  { id: WAREHOUSE_SITE_ID, name: 'Warehouse', code: 'WH' },
];

const codeOf = (place: StockPlace) => place.name.toUpperCase().replace(/[^A-Z0-9]+/g, '-');
const actor = { uid: null, name: 'Stockroom' };

/** Writes the test places (their events, and their rows where no projection does); answers them. */
export async function seedPlaces(store: EventStore): Promise<StockPlace[]> {
  const projected = store.projections.some((p) => p.tables.includes('locations'));
  await store.db.transaction().execute(async (trx) => {
    const written = new Set(
      (
        await sql<{
          stream_id: string;
        }>`select stream_id from events where stream_type in ('site', 'location')`.execute(trx)
      ).rows.map((r) => r.stream_id),
    );
    const batches: StreamBatch[] = [];
    const metadata = { actor, correlationId: 'test-places' };
    for (const site of SITES) {
      const stream = { id: `site-${site.id}`, type: 'site' };
      if (written.has(stream.id)) continue;
      const data = { siteId: site.id, name: site.name, code: site.code, address: '', timeZone: 'UTC' };
      batches.push({ stream, expectedVersion: 0, commands: [{ events: [{ type: 'SiteCreated', data }], metadata }] });
    }
    // Each site's first location first: it is the site's default.
    for (const place of TEST_PLACES) {
      const stream = { id: `location-${place.id}`, type: 'location' };
      if (written.has(stream.id)) continue;
      const data = {
        locationId: place.id,
        siteId: place.siteId,
        parentId: null,
        name: place.name,
        code: codeOf(place),
        barcode: null,
      };
      batches.push({
        stream,
        expectedVersion: 0,
        commands: [{ events: [{ type: 'LocationCreated', data }], metadata }],
      });
    }
    if (batches.length) await store.appendBatch(trx, batches);
    if (projected) return;
    for (const site of SITES) {
      const first = TEST_PLACES.find((p) => p.siteId === site.id)!;
      await sql`insert into sites (id, name, code, address, time_zone, default_location_id, version, created_at, updated_at)
        values (${site.id}, ${site.name}, ${site.code}, '', 'UTC', ${first.id}, 1, now(), now())
        on conflict (id) do nothing`.execute(trx);
    }
    for (const place of TEST_PLACES) {
      await sql`insert into locations (id, site_id, parent_id, name, code, barcode, version, created_at, updated_at)
        values (${place.id}, ${place.siteId}, null, ${place.name}, ${codeOf(place)}, null, 1, now(), now())
        on conflict (id) do nothing`.execute(trx);
    }
  });
  store.committed();
  return TEST_PLACES;
}
