// The place a wall display shows, kept in its URL like the rest of a wall's settings:
// ?siteId= for a site, ?locationId= for a location (with the locations inside it); neither
// for the whole store. Also the choices the place picker offers, from the store's sites and
// locations: active ones, each site followed by its locations as a tree.
import type { Location, Site } from '../../../shared/sites';

export type DisplayPlaceQuery = { siteId: string } | { locationId: string } | null;

export function placeOfSearch(search: string): DisplayPlaceQuery {
  const params = new URLSearchParams(search);
  const locationId = params.get('locationId');
  if (locationId) return { locationId };
  const siteId = params.get('siteId');
  return siteId ? { siteId } : null;
}

/** The search string with this place (other settings, such as ?rotate=, kept). */
export function searchWithPlace(search: string, place: DisplayPlaceQuery): string {
  const params = new URLSearchParams(search);
  params.delete('siteId');
  params.delete('locationId');
  if (place && 'siteId' in place) params.set('siteId', place.siteId);
  if (place && 'locationId' in place) params.set('locationId', place.locationId);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A picker value: '' (the whole store), 'site:<id>' or 'location:<id>'. */
export function placeValue(place: DisplayPlaceQuery): string {
  if (!place) return '';
  return 'siteId' in place ? `site:${place.siteId}` : `location:${place.locationId}`;
}

export function placeOfValue(value: string): DisplayPlaceQuery {
  if (value.startsWith('site:')) return { siteId: value.slice(5) };
  if (value.startsWith('location:')) return { locationId: value.slice(9) };
  return null;
}

export interface PlaceChoice {
  value: string;
  label: string;
  /** How deep in its site's tree (0: the site itself). */
  depth: number;
}

/**
 * Active sites by name, each followed by its active locations as a tree (children under their
 * parent, by name). None in a store of one site with one location: each would show the whole store.
 */
export function placeChoices(sites: Site[], locations: Location[]): PlaceChoice[] {
  const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);
  const activeSites = sites.filter((s) => !s.archivedAt);
  const open = new Set(activeSites.map((s) => s.id));
  const active = locations.filter((l) => !l.archivedAt && open.has(l.siteId));
  if (activeSites.length < 2 && active.length < 2) return [];
  const choices: PlaceChoice[] = [];
  const addChildren = (siteId: string, parentId: string | null, depth: number) => {
    for (const location of active.filter((l) => l.siteId === siteId && l.parentId === parentId).sort(byName)) {
      choices.push({ value: `location:${location.id}`, label: location.name, depth });
      addChildren(siteId, location.id, depth + 1);
    }
  };
  for (const site of activeSites.sort(byName)) {
    choices.push({ value: `site:${site.id}`, label: site.name, depth: 0 });
    addChildren(site.id, null, 1);
  }
  return choices;
}
