// Locations as stock decisions see them: loaded with the command (places-sql.ts), so the
// decisions stay pure. A command names a location, or names none and takes the default
// location of the caller's site (the site's `default_location_id`); these say which, or why
// there is none to take: an unknown location is 422, an archived one 409.
import { ConflictError, UnprocessableError } from '../errors.js';

export interface StockPlace {
  id: string;
  name: string;
  siteId: string;
  archived: boolean;
  /** Its site's name, and whether the site is archived (absent: not known to be). */
  siteName?: string;
  siteArchived?: boolean;
}

/**
 * Whether the caller may change stock at a site: the route hands the decision this check
 * (auth/site-access.ts asked for the request's principal as confirmed when the command is
 * decided); it throws the refusal. Absent: no such check (tests, the system's own writes).
 */
export type SiteCheck = (siteId: string, siteName: string) => void;

/** The place, after the caller's check at its site. */
export function checkedAt(place: StockPlace, check: SiteCheck | undefined): StockPlace {
  check?.(place.siteId, place.siteName ?? 'this site');
  return place;
}

/** The locations a batch of commands names, and the default location of each caller's site. */
export interface Places {
  locations: Record<string, StockPlace>;
  /** Site id -> its default location's id (null: the site has none). */
  defaults: Record<string, string | null>;
}

export const NO_PLACES: Places = { locations: {}, defaults: {} };

/** The location with this id; 422 naming `field` when there is none. */
export function placeNamed(places: Places, id: string, field: string): StockPlace {
  const place = places.locations[id.toLowerCase()];
  if (!place) throw new UnprocessableError('Location not found', field);
  return place;
}

/** Where a command's stock goes: the location it names, else its site's default location. */
export function placeOf(places: Places, locationId: string | undefined, siteId: string, field: string): StockPlace {
  if (locationId !== undefined) return placeNamed(places, locationId, field);
  const fallback = places.defaults[siteId.toLowerCase()];
  if (!fallback) throw new UnprocessableError('This site has no default location: name a location', field);
  return placeNamed(places, fallback, field);
}

/**
 * An archived location takes no stock and gives none (it holds none: archiving waits until it
 * is empty), nor does any location of an archived site (the same: its site held none).
 */
export function requireOpen(place: StockPlace): StockPlace {
  if (place.archived) throw new ConflictError(`${place.name} is archived: restore it to keep stock there`);
  if (place.siteArchived)
    throw new ConflictError(`${place.siteName ?? 'Its site'} is archived: restore it to keep stock at ${place.name}`);
  return place;
}

/** The refusal of taking more than a location holds. */
export function insufficientAt(place: { id: string; name: string }, there: number, total: number): ConflictError {
  return new ConflictError(`Insufficient stock at ${place.name}: ${there} there`, {
    quantity: total,
    available: there,
    locationId: place.id,
  });
}
