// The `sites` and `locations` read tables, and the activity log's entries for their changes
// ("Created location Back room (BACK) at Main store"). Sites and locations change a few times
// a day, one command to a transaction, so these handlers have no set-based form: an append
// runs them event by event, as a rebuild does.
import { sql } from 'kysely';
import type { LocationEvent, PlaceEvent, SiteEvent } from '../../shared/sites.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { logPlaceChange } from './place-activity.js';

type SiteData<T extends SiteEvent['type']> = Extract<SiteEvent, { type: T }>['data'];
type LocationData<T extends LocationEvent['type']> = Extract<LocationEvent, { type: T }>['data'];

export const siteIdOf = (streamId: string) => streamId.slice('site-'.length);
export const locationIdOf = (streamId: string) => streamId.slice('location-'.length);

/** The new version and time of a site or location an event changed. */
const touched = (event: StoredEvent) => sql`version = ${event.streamVersion}, updated_at = ${event.createdAt}`;

async function siteArchived(trx: Transaction, event: StoredEvent, archived: boolean) {
  await sql`update sites set archived_at = ${archived ? event.createdAt : null}, ${touched(event)}
    where id = ${siteIdOf(event.streamId)}`.execute(trx);
}

async function locationArchived(trx: Transaction, event: StoredEvent, archived: boolean) {
  await sql`update locations set archived_at = ${archived ? event.createdAt : null}, ${touched(event)}
    where id = ${locationIdOf(event.streamId)}`.execute(trx);
}

/** Each handler updates the row, then logs the change (which reads the row as it left it). */
const logged =
  <D>(apply: (event: StoredEvent<D>, trx: Transaction) => Promise<void>) =>
  async (event: StoredEvent<D>, trx: Transaction) => {
    await apply(event, trx);
    await logPlaceChange(trx, event as StoredEvent<PlaceEvent['data']>);
  };

export const sitesProjection: Projection = {
  name: 'sites',
  tables: ['sites', 'locations'],
  handlers: {
    SiteCreated: logged(async (event: StoredEvent<SiteData<'SiteCreated'>>, trx) => {
      const d = event.data;
      // The default location comes with the site's first location (LocationCreated below).
      await sql`insert into sites (id, name, code, address, time_zone, default_location_id, archived_at, version,
          created_at, updated_at)
        values (${d.siteId}, ${d.name}, ${d.code}, ${d.address}, ${d.timeZone}, null, null, ${event.streamVersion},
          ${event.createdAt}, ${event.createdAt})`.execute(trx);
    }),
    SiteUpdated: logged(async (event: StoredEvent<SiteData<'SiteUpdated'>>, trx) => {
      const { name, code, address, timeZone } = event.data.changes;
      await sql`update sites set name = coalesce(${name?.to ?? null}, name), code = coalesce(${code?.to ?? null}, code),
          address = coalesce(${address?.to ?? null}, address), time_zone = coalesce(${timeZone?.to ?? null}, time_zone),
          ${touched(event)}
        where id = ${siteIdOf(event.streamId)}`.execute(trx);
    }),
    SiteDefaultLocationSet: logged(async (event: StoredEvent<SiteData<'SiteDefaultLocationSet'>>, trx) => {
      await sql`update sites set default_location_id = ${event.data.locationId}, ${touched(event)}
        where id = ${siteIdOf(event.streamId)}`.execute(trx);
    }),
    SiteArchived: logged((event, trx) => siteArchived(trx, event, true)),
    SiteRestored: logged((event, trx) => siteArchived(trx, event, false)),

    LocationCreated: logged(async (event: StoredEvent<LocationData<'LocationCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into locations (id, site_id, parent_id, name, code, barcode, archived_at, version, created_at,
          updated_at)
        values (${d.locationId}, ${d.siteId}, ${d.parentId}, ${d.name}, ${d.code}, ${d.barcode}, null,
          ${event.streamVersion}, ${event.createdAt}, ${event.createdAt})`.execute(trx);
      // A site's first location is its default (shared/sites.ts siteWithLocation): no change of the site's own stream.
      await sql`update sites set default_location_id = ${d.locationId}
        where id = ${d.siteId} and default_location_id is null`.execute(trx);
    }),
    LocationUpdated: logged(async (event: StoredEvent<LocationData<'LocationUpdated'>>, trx) => {
      const { name, code, barcode } = event.data.changes;
      await sql`update locations set name = coalesce(${name?.to ?? null}, name), code = coalesce(${code?.to ?? null}, code),
          barcode = case when ${barcode !== undefined} then ${barcode?.to ?? null} else barcode end, ${touched(event)}
        where id = ${locationIdOf(event.streamId)}`.execute(trx);
    }),
    LocationMoved: logged(async (event: StoredEvent<LocationData<'LocationMoved'>>, trx) => {
      await sql`update locations set parent_id = ${event.data.toParentId}, ${touched(event)}
        where id = ${locationIdOf(event.streamId)}`.execute(trx);
    }),
    LocationArchived: logged((event, trx) => locationArchived(trx, event, true)),
    LocationRestored: logged((event, trx) => locationArchived(trx, event, false)),
  },
};
