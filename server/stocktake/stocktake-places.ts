// Where a new stocktake counts: the place a start request names, resolved to the locations
// counts may name, and where each item to count has stock there. A location is counted
// with the locations inside it (a back room with its shelves); a site with all of its
// active locations. Archived places are not counted: they hold nothing.
import { sql } from 'kysely';
import type { StartStocktakeBody } from '../../shared/stocktake.js';
import { ConflictError, UnprocessableError, ValidationError } from '../errors.js';
import type { Transaction } from '../eventstore/types.js';
import type { StartPlace } from './decide.js';

export interface ResolvedPlace {
  place: StartPlace;
  label: {
    /** The site's name (for a refusal at it). */
    site: string;
    /** The place the request named, for the session's default name; null when it named none. */
    named: string | null;
  };
}

interface SiteRow {
  id: string;
  name: string;
  default_location_id: string | null;
  archived_at: Date | null;
}

async function siteRow(trx: Transaction, id: string): Promise<SiteRow | null> {
  const rows = await sql<SiteRow>`select id, name, default_location_id, archived_at from sites
    where id = ${id}`.execute(trx);
  return rows.rows[0] ?? null;
}

/** The place a start request names (its location, else its site, else the caller's site). */
export async function resolvePlace(
  trx: Transaction,
  body: Pick<StartStocktakeBody, 'siteId' | 'locationId'>,
  callerSiteId: string,
): Promise<ResolvedPlace> {
  if (body.locationId) {
    const found = await sql<{ id: string; name: string; site_id: string; archived_at: Date | null }>`
      select id, name, site_id, archived_at from locations where id = ${body.locationId}`.execute(trx);
    const location = found.rows[0];
    if (!location) throw new ValidationError('locationId: Location not found');
    if (body.siteId && body.siteId.toLowerCase() !== location.site_id)
      throw new UnprocessableError(`${location.name} is not at this site`, 'locationId');
    if (location.archived_at) throw new ConflictError(`${location.name} is archived: restore it to count there`);
    const site = (await siteRow(trx, location.site_id))!;
    // The location and every active location inside it, the location first.
    const tree = await sql<{ id: string }>`with recursive tree as (
        select id, 0 as depth from locations where id = ${location.id}
        union all
        select l.id, t.depth + 1 from locations l join tree t on l.parent_id = t.id where l.archived_at is null
      ) select id from tree order by depth, id`.execute(trx);
    return {
      place: {
        siteId: location.site_id,
        locationId: location.id,
        locationIds: tree.rows.map((r) => r.id),
        homeLocationId: location.id,
      },
      label: { site: site.name, named: location.name },
    };
  }
  const site = await siteRow(trx, body.siteId ?? callerSiteId);
  if (!site) throw new ValidationError('siteId: Site not found');
  if (site.archived_at) throw new ConflictError(`${site.name} is archived: restore it to count there`);
  if (!site.default_location_id)
    throw new UnprocessableError(`${site.name} has no locations yet: add one first`, 'siteId');
  const locations = await sql<{ id: string }>`select id from locations where site_id = ${site.id}
    and archived_at is null order by id = ${site.default_location_id} desc, id`.execute(trx);
  return {
    place: {
      siteId: site.id,
      locationId: null,
      locationIds: locations.rows.map((r) => r.id),
      homeLocationId: site.default_location_id,
    },
    label: { site: site.name, named: body.siteId ? site.name : null },
  };
}

/** For each item, the place's locations where it has a stock row (units, or 0 where it belongs). */
export async function stockAtPlace(
  trx: Transaction,
  itemIds: string[],
  place: StartPlace,
): Promise<Map<string, string[]>> {
  const at = new Map<string, string[]>();
  if (itemIds.length === 0) return at;
  const rows = await sql<{ item_id: string; location_id: string }>`select s.item_id, s.location_id from stock_levels s
    join locations l on l.id = s.location_id
    where s.location_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(place.locationIds)}::jsonb))
      and s.item_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(itemIds)}::jsonb))
    order by s.item_id, lower(l.name), l.id`.execute(trx);
  for (const r of rows.rows) at.set(r.item_id, [...(at.get(r.item_id) ?? []), r.location_id]);
  return at;
}
