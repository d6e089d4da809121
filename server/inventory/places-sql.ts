// Loading what stock decisions need of places (stock-places.ts) with the statement that
// loads the items: one column, `places`, holding the named locations and the default
// location of each caller's site, so a batch of commands costs no statement of its own for
// them. Also the caller's site, in one place: where a command that names no location puts
// its stock.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { MAIN_SITE_ID } from '../../shared/places.js';
import type { Principal } from '../auth/principal.js';
import { homeSite } from '../auth/site-access.js';
import { NO_PLACES, type Places, type StockPlace } from './stock-places.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The site a caller works at: its default location takes their stock changes that name no
 * location. Main store for those who work at every site; else their home site (the first
 * site they were given where they may update stock: auth/site-access.ts).
 */
export function siteOfCaller(principal?: Principal | null): string {
  return principal ? homeSite(principal) : MAIN_SITE_ID;
}

const uuids = (ids: Iterable<string | undefined>) =>
  [...new Set([...ids].filter((id): id is string => !!id && UUID.test(id)).map((id) => id.toLowerCase()))].map(
    (id) => sql`${id}::uuid`,
  );

/**
 * The `places` column: these locations and the sites' default locations, as JSON (what
 * placesOf reads). Ids that are no uuid name no location (the decision refuses them).
 */
export function placesColumn(
  locationIds: Iterable<string | undefined>,
  siteIds: Iterable<string>,
): RawBuilder<unknown> {
  const locations = uuids(locationIds);
  const sites = uuids(siteIds);
  const wanted = [
    ...(locations.length ? [sql`l.id in (${sql.join(locations)})`] : []),
    ...(sites.length ? [sql`l.id in (select default_location_id from sites where id in (${sql.join(sites)}))`] : []),
  ];
  // Locked for key share, each location's site before it (a join's rows are locked in the
  // order of its FROM list), sites in id order: the order the tree's changes lock them in
  // (sites/place-locks.ts), so the two queue and never deadlock. An archive holds the site's
  // or the location's row for update from before it counts the stock there until it commits:
  // a command that reads a place open while an archive runs has it locked, so the archive
  // waits for the command's stock and refuses; one that comes during the archive waits for
  // it, and reads the row as the archive left it (a lock returns a row's newest version).
  // Key share conflicts with nothing but those locks (not with an UPDATE of other columns,
  // nor with itself), so commands never wait on each other for it.
  const found = wanted.length
    ? sql`(select json_object_agg(p.id, json_build_object('id', p.id, 'name', p.name, 'siteId', p.site_id,
          'archived', p.archived, 'siteName', p.site_name, 'siteArchived', p.site_archived))
        from (select l.id, l.name, l.site_id, l.archived_at is not null as archived, s.name as site_name,
            s.archived_at is not null as site_archived
          from sites s join locations l on l.site_id = s.id where ${sql.join(wanted, sql` or `)}
          order by s.id, l.id for key share) p)`
    : sql`null`;
  const defaults = sites.length
    ? sql`(select json_object_agg(s.id, s.default_location_id) from sites s where s.id in (${sql.join(sites)}))`
    : sql`null`;
  return sql`json_build_object('locations', coalesce(${found}, '{}'::json), 'defaults', coalesce(${defaults}, '{}'::json)) as places`;
}

const parsed = new WeakMap<object, Places>();

/** The places a row's `places` column holds (parsed once per row). */
export function placesIn(row: { places?: unknown }): Places {
  const known = parsed.get(row);
  if (known) return known;
  const raw = typeof row.places === 'string' ? JSON.parse(row.places) : row.places;
  const places: Places = raw
    ? {
        locations: Object.fromEntries(
          Object.entries(raw.locations as Record<string, StockPlace>).map(([id, p]) => [id.toLowerCase(), p]),
        ),
        defaults: Object.fromEntries(
          Object.entries(raw.defaults as Record<string, string | null>).map(([id, l]) => [id.toLowerCase(), l]),
        ),
      }
    : NO_PLACES;
  parsed.set(row, places);
  return places;
}

/** The places some commands need, read on their own (commands that load no item row in one statement). */
export async function loadPlaces(
  db: Kysely<any>,
  locationIds: Iterable<string | undefined>,
  siteIds: Iterable<string>,
): Promise<Places> {
  const rows = await sql<{ places: unknown }>`select ${placesColumn(locationIds, siteIds)}`.execute(db);
  return placesIn(rows.rows[0]!);
}
