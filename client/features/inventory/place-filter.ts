// The Inventory page's place filter, read from and written to the URL (?siteId=&locationId=,
// like every other filter, so a link or a reload shows the same list), with the site this
// browser remembers (client/lib/chosen-site.ts) filling in a URL that names none. Pure: the
// page reads the URL and the remembered site and calls these.
import type { Location, Site } from '../../../shared/sites';
import type { PlaceFilter } from './api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idIn = (value: string | null) => (value && UUID.test(value) ? value.toLowerCase() : null);

/**
 * What the URL asks for: a site (and maybe a location in it), or null for All sites. A URL
 * naming no site takes the remembered one; a location without a site names nothing.
 */
export function placeFilterOf(params: URLSearchParams, remembered: string | null): PlaceFilter | null {
  const siteId = idIn(params.get('siteId')) ?? (params.has('siteId') ? null : remembered);
  if (!siteId) return null;
  return { siteId, locationId: params.has('siteId') ? idIn(params.get('locationId')) : null };
}

/** The URL's query with this filter in it (and the other parameters kept). */
export function withPlaceFilter(params: URLSearchParams, filter: PlaceFilter | null): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('siteId');
  next.delete('locationId');
  if (filter) {
    next.set('siteId', filter.siteId);
    if (filter.locationId) next.set('locationId', filter.locationId);
  }
  return next;
}

/** The sites a picker offers: the active ones by name, and the one chosen even if archived since. */
export function pickableSites(sites: readonly Site[], chosen: string | null): Site[] {
  return sites.filter((s) => !s.archivedAt || s.id === chosen).sort((a, b) => a.name.localeCompare(b.name));
}

export interface LocationOption {
  id: string;
  /** Its names from the site's top level: "Back room › Shelf 2". */
  label: string;
  depth: number;
}

const byName = (a: Location, b: Location) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/**
 * A site's active locations depth first, each under its parent and siblings by name, with
 * their paths (a location whose parent is not listed shows at the top, so none is lost).
 */
export function locationOptions(locations: readonly Location[], siteId: string): LocationOption[] {
  const here = locations.filter((l) => l.siteId === siteId && !l.archivedAt);
  const ids = new Set(here.map((l) => l.id));
  const children = new Map<string | null, Location[]>();
  for (const location of here) {
    const parent = location.parentId !== null && ids.has(location.parentId) ? location.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), location]);
  }
  const options: LocationOption[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, path: string[]) => {
    for (const location of (children.get(parent) ?? []).sort(byName)) {
      if (seen.has(location.id)) continue;
      seen.add(location.id);
      const names = [...path, location.name];
      options.push({ id: location.id, label: names.join(' › '), depth: path.length });
      walk(location.id, names);
    }
  };
  walk(null, []);
  return options;
}
