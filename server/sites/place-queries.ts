// Reads of sites and locations, one statement each, from the projection's tables. Lists hold
// archived ones too (a manager restores from them); screens hide what they do not show.
import { sql, type Kysely } from 'kysely';
import type { FoundLocation, Location, Site } from '../../shared/sites.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';
import { locationColumns, siteColumns, toLocation, toSite, type LocationRow, type SiteRow } from './place-rows.js';

/** How a scanned or typed label names a location: its site and code, or its barcode (unique in the store). */
export type LocationKey = { siteId: string; code: string } | { barcode: string };

export class PlaceQueries {
  constructor(private readonly db: Kysely<DB>) {}

  async sites(): Promise<Site[]> {
    const rows = await sql<SiteRow>`select ${sql.raw(siteColumns)} from sites order by lower(name), id`.execute(
      this.db,
    );
    return rows.rows.map(toSite);
  }

  async site(id: string): Promise<Site> {
    const rows = await sql<SiteRow>`select ${sql.raw(siteColumns)} from sites where id = ${id}`.execute(this.db);
    if (!rows.rows[0]) throw new NotFoundError('Site not found');
    return toSite(rows.rows[0]);
  }

  /** A site's locations (every site's without one), by name; 404 for a site that does not exist. */
  async locations(siteId?: string): Promise<Location[]> {
    if (siteId === undefined) {
      const rows = await sql<LocationRow>`select ${sql.raw(locationColumns)} from locations
        order by lower(name), id`.execute(this.db);
      return rows.rows.map(toLocation);
    }
    const rows = await sql<LocationRow & { site_found: boolean }>`select p.*, s.site_found
      from (select exists (select 1 from sites where id = ${siteId}) as site_found) s
      left join lateral (select ${sql.raw(locationColumns)} from locations where site_id = ${siteId}) p on true
      order by lower(p.name), p.id`.execute(this.db);
    if (!rows.rows[0]?.site_found) throw new NotFoundError('Site not found');
    return rows.rows.filter((r) => r.id !== null).map(toLocation);
  }

  async location(id: string): Promise<Location> {
    const rows = await sql<LocationRow>`select ${sql.raw(locationColumns)} from locations where id = ${id}`.execute(
      this.db,
    );
    if (!rows.rows[0]) throw new NotFoundError('Location not found');
    return toLocation(rows.rows[0]);
  }

  /** The location a label names, with the names from its site's top level down to it (archived ones are found too). */
  async find(key: LocationKey): Promise<FoundLocation> {
    const match =
      'barcode' in key
        ? sql`barcode = ${key.barcode.trim()}`
        : sql`site_id = ${key.siteId} and lower(code) = lower(${key.code.trim()})`;
    const rows = await sql<LocationRow & { path: string[] }>`with recursive found as (
        select ${sql.raw(locationColumns)} from locations where ${match} limit 1
      ), up (id, parent_id, name, depth) as (
        select id, parent_id, name, 0 from locations where id = (select id::uuid from found)
        union all select l.id, l.parent_id, l.name, u.depth + 1 from locations l join up u on l.id = u.parent_id
          where u.depth < 10000
      )
      select f.*, (select array_agg(name order by depth desc) from up) as path from found f`.execute(this.db);
    const row = rows.rows[0];
    if (!row) throw new NotFoundError('Location not found');
    return { ...toLocation(row), path: row.path ?? [row.name] };
  }
}
