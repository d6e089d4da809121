// Which sites an event belongs to, for those whose role holds at some sites only
// (roles per site): the live feed, an item's history and a webhook's site filter give them
// the events of the sites they may see, and every event tied to no site (the activity log
// reads the same rule's place_ids, migration 029). The rule reads what an event
// names rather than a list of types, so events added later (transfers, stocktake scopes)
// follow it: a site (`siteId`, `fromSiteId`, `toSiteId`),
// or a location (`locationId`, `fromLocationId`, `toLocationId`, the keys of `levels`),
// whose site is looked up; a site's or a location's own stream names its site. Stock events
// from before places named no location and were at Main store.
import { sql, type Kysely } from 'kysely';
import { MAIN_SITE_ID } from '../../shared/places.js';
import type { StoredEvent } from '../eventstore/types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SITE_FIELDS = ['siteId', 'fromSiteId', 'toSiteId'] as const;
const LOCATION_FIELDS = ['locationId', 'fromLocationId', 'toLocationId'] as const;

/** Item events that put or take stock: from before places, with no location, they were at Main store. */
const STOCK_AT_MAIN = new Set(['ItemCreated', 'StockAdjusted']);

/**
 * Item events about the store's total (a low-stock crossing of it): nothing someone who sees
 * some sites only may learn. Alerts per site are their own events.
 */
export const STORE_TOTAL_EVENTS = new Set(['ItemWentLow', 'ItemRecovered']);

/** Where an event's places are: sites by id, and locations whose sites are to be looked up. */
interface Named {
  sites: string[];
  locations: string[];
}

const lower = (values: unknown[]) =>
  values.filter((v): v is string => typeof v === 'string' && UUID.test(v)).map((v) => v.toLowerCase());

function namedBy(event: StoredEvent): Named | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const sites = lower(SITE_FIELDS.map((f) => data[f]));
  const locations = lower(LOCATION_FIELDS.map((f) => data[f]));
  if (data.levels && typeof data.levels === 'object') locations.push(...lower(Object.keys(data.levels)));
  if (event.streamType === 'site') sites.push(...lower([event.streamId.slice('site-'.length)]));
  if (event.streamType === 'location') locations.push(...lower([event.streamId.slice('location-'.length)]));
  if (sites.length === 0 && locations.length === 0) {
    if (event.streamType === 'item' && STOCK_AT_MAIN.has(event.type)) return { sites: [MAIN_SITE_ID], locations: [] };
    return null;
  }
  return { sites, locations };
}

/** Looks up the sites of locations (a location never changes site, so answers are kept). */
export type LocationSites = (locationIds: string[]) => Promise<Map<string, string>>;

export function createLocationSites(db: Kysely<any>): LocationSites {
  const known = new Map<string, string>();
  return async (locationIds) => {
    const missing = [...new Set(locationIds.filter((id) => !known.has(id)))];
    if (missing.length) {
      const rows = await sql<{ id: string; site_id: string }>`select id::text as id, site_id::text as site_id
        from locations where id in (${sql.join(missing.map((id) => sql`${id}::uuid`))})`.execute(db);
      for (const row of rows.rows) known.set(row.id.toLowerCase(), row.site_id.toLowerCase());
      // Keep the process's memory bounded on a store with very many locations.
      if (known.size > 100_000) known.clear();
    }
    return new Map(locationIds.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])));
  };
}

/** Each event's sites (null: tied to no site), in the events' order: one lookup for the batch. */
export async function sitesOfEvents(
  events: StoredEvent[],
  locationSites: LocationSites,
): Promise<Array<string[] | null>> {
  const named = events.map(namedBy);
  const locations = [...new Set(named.flatMap((n) => n?.locations ?? []))];
  const siteOf = locations.length ? await locationSites(locations) : new Map<string, string>();
  return named.map((n) => {
    if (!n) return null;
    // A location not found (not projected yet, or another instance's very newest) is kept
    // from those limited to some sites rather than shown: it names no site they may see.
    const sites = [...n.sites, ...n.locations.map((l) => siteOf.get(l) ?? `unknown-location:${l}`)];
    return [...new Set(sites)];
  });
}

/** Per item and site, its units now (for the quantities of stock events shown per site). */
export type SiteUnits = Map<string, Map<string, number>>;

export async function unitsBySite(db: Kysely<any>, itemIds: string[]): Promise<SiteUnits> {
  const units: SiteUnits = new Map();
  const ids = [...new Set(itemIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return units;
  const rows = await sql<{ item_id: string; site_id: string; units: number }>`select item_id::text as item_id,
      site_id::text as site_id, sum(quantity)::int as units from stock_levels
    where item_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))}) group by item_id, site_id`.execute(db);
  for (const row of rows.rows) {
    const item = row.item_id.toLowerCase();
    if (!units.has(item)) units.set(item, new Map());
    units.get(item)!.set(row.site_id.toLowerCase(), Number(row.units));
  }
  return units;
}
