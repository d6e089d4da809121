// Sites (stores, warehouses) and their locations (areas, shelves, bins): the events, past-tense
// facts with data only, and what each does to its site or location, said once. The server's
// decisions and the client's live screens fold events with these; the SQL projection keeps
// its own form (server/sites/projection.ts), checked against replays by projections:verify.
// Streams are `site-{id}` and `location-{id}`. Nothing is ever deleted: a site or location
// is archived (kept, with its history and its code reserved) and can be restored.
import type { Changes } from './inventory-events.js';

export interface SiteFields {
  name: string;
  /** Short, unique in the store (case-insensitive): what labels and lists show. */
  code: string;
  address: string;
  /** An IANA time zone (isTimeZone): the site's own day for its reports. */
  timeZone: string;
}

export interface LocationFields {
  name: string;
  /** Unique within the site (case-insensitive). */
  code: string;
  /** What a printed shelf label encodes (shared/barcode.ts), unique in the store; null: none. */
  barcode: string | null;
}

export type SiteEvent =
  | { type: 'SiteCreated'; data: SiteFields & { siteId: string } }
  | { type: 'SiteUpdated'; data: { changes: Changes<SiteFields> } }
  /** Where stock goes at the site when nobody names a location. A site's first location is its default without it. */
  | { type: 'SiteDefaultLocationSet'; data: { locationId: string } }
  | { type: 'SiteArchived'; data: Record<string, never> }
  | { type: 'SiteRestored'; data: Record<string, never> };

export type LocationEvent =
  | {
      type: 'LocationCreated';
      data: LocationFields & { locationId: string; siteId: string; parentId: string | null };
    }
  | { type: 'LocationUpdated'; data: { changes: Changes<LocationFields> } }
  /** Within its own site only: a location never changes site. null: the site's top level. */
  | { type: 'LocationMoved'; data: { fromParentId: string | null; toParentId: string | null } }
  | { type: 'LocationArchived'; data: Record<string, never> }
  | { type: 'LocationRestored'; data: Record<string, never> };

export type PlaceEvent = SiteEvent | LocationEvent;

export const SITE_EVENT_TYPES: readonly SiteEvent['type'][] = [
  'SiteCreated',
  'SiteUpdated',
  'SiteDefaultLocationSet',
  'SiteArchived',
  'SiteRestored',
];
export const LOCATION_EVENT_TYPES: readonly LocationEvent['type'][] = [
  'LocationCreated',
  'LocationUpdated',
  'LocationMoved',
  'LocationArchived',
  'LocationRestored',
];

export const siteStream = (id: string) => ({ id: `site-${id}`, type: 'site' });
export const locationStream = (id: string) => ({ id: `location-${id}`, type: 'location' });

/** A site as its events leave it (`At`: Date on the server, ISO text on a screen). The API's site is this with text times. */
export interface FoldedSite<At = Date> extends SiteFields {
  id: string;
  defaultLocationId: string | null;
  archivedAt: At | null;
  version: number;
  createdAt: At | null;
  updatedAt: At | null;
}

/** A location as its events leave it. The API's location is this with text times. */
export interface FoldedLocation<At = Date> extends LocationFields {
  id: string;
  siteId: string;
  parentId: string | null;
  archivedAt: At | null;
  version: number;
  createdAt: At | null;
  updatedAt: At | null;
}

export type Site = FoldedSite<string>;
export type Location = FoldedLocation<string>;

/** A location found by its code or its label's barcode, with the names from its site's top level down to it. */
export interface FoundLocation extends Location {
  path: string[];
}

/** Where the event sits: its stream version and its time. */
export interface PlaceFoldMeta<At> {
  version: number;
  at: At | null;
}

const changedTo = <T>(changes: { [K in keyof T]?: { to: T[K] } }): Partial<T> =>
  Object.fromEntries(
    Object.entries(changes).map(([field, change]) => [field, (change as { to: unknown }).to]),
  ) as Partial<T>;

export function evolveSite<At>(
  state: FoldedSite<At> | null,
  event: SiteEvent,
  meta: PlaceFoldMeta<At>,
): FoldedSite<At> | null {
  const touched = { version: meta.version, updatedAt: meta.at };
  switch (event.type) {
    case 'SiteCreated': {
      const { siteId, name, code, address, timeZone } = event.data;
      return {
        id: siteId,
        name,
        code,
        address,
        timeZone,
        defaultLocationId: null,
        archivedAt: null,
        createdAt: meta.at,
        ...touched,
      };
    }
    case 'SiteUpdated':
      return state && { ...state, ...changedTo<SiteFields>(event.data.changes), ...touched };
    case 'SiteDefaultLocationSet':
      return state && { ...state, defaultLocationId: event.data.locationId, ...touched };
    case 'SiteArchived':
      return state && { ...state, archivedAt: meta.at, ...touched };
    case 'SiteRestored':
      return state && { ...state, archivedAt: null, ...touched };
  }
}

/**
 * The site after one of its locations was created: a site's first location becomes its
 * default. Not a change of the site's own stream: its version and times stay.
 */
export function siteWithLocation<At>(
  site: FoldedSite<At>,
  event: Extract<LocationEvent, { type: 'LocationCreated' }>,
): FoldedSite<At> {
  return site.id === event.data.siteId && site.defaultLocationId === null
    ? { ...site, defaultLocationId: event.data.locationId }
    : site;
}

export function evolveLocation<At>(
  state: FoldedLocation<At> | null,
  event: LocationEvent,
  meta: PlaceFoldMeta<At>,
): FoldedLocation<At> | null {
  const touched = { version: meta.version, updatedAt: meta.at };
  switch (event.type) {
    case 'LocationCreated': {
      const { locationId, siteId, parentId, name, code, barcode } = event.data;
      return {
        id: locationId,
        siteId,
        parentId,
        name,
        code,
        barcode,
        archivedAt: null,
        createdAt: meta.at,
        ...touched,
      };
    }
    case 'LocationUpdated':
      return state && { ...state, ...changedTo<LocationFields>(event.data.changes), ...touched };
    case 'LocationMoved':
      return state && { ...state, parentId: event.data.toParentId, ...touched };
    case 'LocationArchived':
      return state && { ...state, archivedAt: meta.at, ...touched };
    case 'LocationRestored':
      return state && { ...state, archivedAt: null, ...touched };
  }
}

/** At most this long: codes go on labels and in narrow lists. */
export const PLACE_CODE_MAX = 32;

/** A code as typed, checked: letters, digits and `.-_`, starting with a letter or digit. */
export function checkPlaceCode(input: string): { ok: true; code: string } | { ok: false; error: string } {
  const code = input.trim();
  if (!code) return { ok: false, error: 'Code is required' };
  if (code.length > PLACE_CODE_MAX) return { ok: false, error: `Code can have at most ${PLACE_CODE_MAX} characters` };
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(code))
    return { ok: false, error: 'Code can only hold letters, digits, dots, dashes and underscores' };
  return { ok: true, code };
}

/**
 * The IANA time zone named (in its canonical spelling: "europe/paris" is "Europe/Paris"), or
 * null when there is none of that name. Intl knows the zones of the runtime's ICU data;
 * offsets such as "+02:00" are not zones (they ignore summer time) and are refused.
 */
export function canonicalTimeZone(input: string): string | null {
  const name = input.trim();
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isTimeZone = (input: string) => canonicalTimeZone(input) !== null;

/** The places an event names by id besides its own (a parent, its site, a new default): its sentence names them. */
export function placesNamedBy(type: string, data: unknown): string[] {
  const d = (data ?? {}) as Record<string, unknown>;
  const ids = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string');
  switch (type) {
    case 'LocationCreated':
      return ids(d.parentId, d.siteId);
    case 'LocationMoved':
      return ids(d.fromParentId, d.toParentId);
    case 'SiteDefaultLocationSet':
      return ids(d.locationId);
    default:
      return [];
  }
}

/** Whether a stream is a site's or a location's. */
export const isPlaceStream = (streamId: string) => streamId.startsWith('site-') || streamId.startsWith('location-');

/**
 * What a location's printed label encodes (its QR code, and the Code 128 beside it): the
 * label barcode when the location has one (unique in the store: `GET /api/locations/by-code?barcode=`
 * finds it from anywhere), else its code (unique at its site: `?siteId=&code=` at the site
 * being scanned). Plain text, nothing around it, so any scanner reads what the shelf says.
 */
export const locationLabelText = (location: Pick<LocationFields, 'code' | 'barcode'>): string =>
  location.barcode || location.code;
