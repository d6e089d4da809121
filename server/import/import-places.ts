// Where an imported row's quantity goes: its Site and Location cells, each a code or a name
// (case ignored; a code wins over a name), looked up in the store's sites and locations.
// Only a site: its default location. Only a location: found across the sites, if it names
// one. A place that is unknown, archived, ambiguous or where the importer may not change
// stock rejects the row, saying which cell and why. Pure: the places come in loaded.
import { sql } from 'kysely';
import type { ImportField } from '../../shared/import.js';
import type { Transaction } from '../eventstore/types.js';
import type { StockPlace } from '../inventory/stock-places.js';

export interface ImportSite {
  id: string;
  name: string;
  code: string;
  archived: boolean;
  defaultLocationId: string | null;
}

export interface ImportLocation extends StockPlace {
  code: string;
}

/** The store's sites and locations, as the rows look them up. */
export interface PlaceDirectory {
  sites: ImportSite[];
  locations: ImportLocation[];
}

export type PlaceLookup =
  | { kind: 'none' }
  | { kind: 'place'; place: ImportLocation; site: ImportSite }
  | { kind: 'problem'; column: ImportField; message: string };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The entries whose code is the text, else those whose name is. */
function byCodeOrName<T extends { code: string; name: string }>(entries: T[], text: string): T[] {
  const byCode = entries.filter((e) => same(e.code, text));
  return byCode.length ? byCode : entries.filter((e) => same(e.name, text));
}

/**
 * The place a row's cells name, if any. `mayAt` says whether the importer may change stock
 * at a site (server/auth/site-access.ts).
 */
export function lookUpPlace(
  cells: { site?: string; location?: string },
  places: PlaceDirectory,
  mayAt: (siteId: string) => boolean,
): PlaceLookup {
  const siteText = cells.site?.trim() ?? '';
  const locationText = cells.location?.trim() ?? '';
  if (!siteText && !locationText) return { kind: 'none' };
  const problem = (column: ImportField, message: string): PlaceLookup => ({ kind: 'problem', column, message });
  let site: ImportSite | undefined;
  if (siteText) {
    const found = byCodeOrName(places.sites, siteText);
    if (found.length === 0) return problem('site', `Site "${siteText}" does not exist: use a site's code or name`);
    if (found.length > 1) return problem('site', `Several sites are named "${siteText}": use the site's code`);
    site = found[0]!;
    if (site.archived) return problem('site', `${site.name} is archived: restore it to keep stock there`);
  }
  let location: ImportLocation | undefined;
  if (locationText) {
    const candidates = site ? places.locations.filter((l) => l.siteId === site!.id) : places.locations;
    const found = byCodeOrName(candidates, locationText);
    if (found.length === 0)
      return problem(
        'location',
        site
          ? `Location "${locationText}" does not exist at ${site.name}`
          : `Location "${locationText}" does not exist`,
      );
    if (found.length > 1)
      return problem(
        'location',
        site
          ? `Several locations at ${site.name} are named "${locationText}": use the location's code`
          : `Several locations are named "${locationText}": fill in the Site column or use the location's code`,
      );
    location = found[0]!;
  } else {
    const home = places.locations.find((l) => l.id === site!.defaultLocationId);
    if (!home) return problem('site', `${site!.name} has no locations yet: add one first`);
    location = home;
  }
  const at = site ?? places.sites.find((s) => s.id === location!.siteId);
  if (!at) return problem('location', `Location "${locationText}" does not exist`);
  if (location.archived) return problem('location', `${location.name} is archived: restore it to keep stock there`);
  if (!mayAt(at.id)) return problem('site', `You don't have permission to change stock at ${at.name}`);
  return { kind: 'place', place: location, site: at };
}

/** Every site and location of the store (a few hundred at most: one statement each). */
export async function loadPlaceDirectory(db: Transaction): Promise<PlaceDirectory> {
  const [sites, locations] = await Promise.all([
    sql<{ id: string; name: string; code: string; archived: boolean; default_location_id: string | null }>`
      select id, name, code, archived_at is not null as archived, default_location_id from sites`.execute(db),
    sql<ImportLocation>`select id, name, code, site_id as "siteId", archived_at is not null as archived
      from locations`.execute(db),
  ]);
  return {
    sites: sites.rows.map((s) => ({
      id: s.id,
      name: s.name,
      code: s.code,
      archived: Boolean(s.archived),
      defaultLocationId: s.default_location_id,
    })),
    locations: locations.rows.map((l) => ({ ...l, archived: Boolean(l.archived) })),
  };
}
