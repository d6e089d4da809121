// The place a wall display shows (?siteId= or ?locationId=), and SQL for "at that place": the
// stock levels there (a site's, or a location's and those of the locations inside it) and
// the open alerts about it, with the units there.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DisplayPlace } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';

/** What a display request names: a site or a location, or neither (the whole store). */
export interface PlaceQuery {
  siteId?: string;
  locationId?: string;
}

/** A place as the display queries read it: the named place, its site, and its location ids (a location's subtree). */
export interface ResolvedPlace extends DisplayPlace {
  siteId: string;
}

/** The place named, or null for the whole store; 404 when it does not exist. */
export async function resolvePlace(db: Kysely<DB>, query: PlaceQuery): Promise<ResolvedPlace | null> {
  if (query.locationId) {
    const rows = await sql<{ id: string; name: string; site_id: string; site_name: string }>`select l.id::text as id,
        l.name, l.site_id::text as site_id, s.name as site_name
      from locations l join sites s on s.id = l.site_id where l.id = ${query.locationId}`.execute(db);
    const row = rows.rows[0];
    if (!row) throw new NotFoundError('Location not found');
    return { kind: 'location', id: row.id, name: row.name, siteId: row.site_id, siteName: row.site_name };
  }
  if (query.siteId) {
    const rows = await sql<{ id: string; name: string }>`select id::text as id, name from sites
      where id = ${query.siteId}`.execute(db);
    const row = rows.rows[0];
    if (!row) throw new NotFoundError('Site not found');
    return { kind: 'site', id: row.id, name: row.name, siteId: row.id, siteName: row.name };
  }
  return null;
}

/** The ids (text[]) an activity entry at the place names: the site and its locations, or the location and those inside it. */
export function placeIdsAt(place: ResolvedPlace): RawBuilder<unknown> {
  if (place.kind === 'site')
    return sql`(select array_append(coalesce(array_agg(l.id::text), '{}'), ${place.siteId}::text)
      from locations l where l.site_id = ${place.siteId}::uuid)`;
  return sql`(with recursive inside (id) as (
      select ${place.id}::uuid
      union all
      select c.id from locations c join inside p on c.parent_id = p.id)
    select array_agg(id::text) from inside)`;
}

/** The stock_levels rows (alias `l`) at the place: a condition on `l`. */
export function levelsAt(place: ResolvedPlace): RawBuilder<unknown> {
  if (place.kind === 'site') return sql`l.site_id = ${place.siteId}::uuid`;
  return sql`l.location_id in (with recursive inside (id) as (
      select ${place.id}::uuid
      union all
      select c.id from locations c join inside p on c.parent_id = p.id)
    select id from inside)`;
}
