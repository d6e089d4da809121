// Picking a place: every site, or a site, or one of its locations (listed as the site's tree,
// indented by depth). The activity log's filter and the store as of a moment use it; a store
// with one site and one location has nothing to pick, so nothing is drawn there. Archived
// places stay pickable (their history is still there), marked as such.
import { useEffect, useState } from 'react';
import type { Location, Site } from '../../shared/sites';
import { api } from '../lib/api-client';
import { treeRows } from '../lib/place-tree';

/** The place picked: none (everywhere), a site, or a location at a site. */
export interface PlaceChoice {
  siteId?: string;
  locationId?: string;
}

export interface PlaceList {
  sites: Site[];
  locations: Location[];
}

/** The store's sites and locations, read once when the picker shows; null until then (or if they could not be read). */
export function usePlaceList(): PlaceList | null {
  const [list, setList] = useState<PlaceList | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api.get<Site[]>('/sites'), api.get<Location[]>('/locations')]).then(
      ([sites, locations]) => live && setList({ sites, locations }),
      () => undefined, // without the list the picker is not drawn; the screen works without it
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/** The name of the choice, for a heading: "Back room (Main store)", or `short`, "Back room". */
export function choiceName(list: PlaceList | null, choice: PlaceChoice, { short = false } = {}): string | null {
  if (!list) return null;
  if (choice.locationId) {
    const location = list.locations.find((l) => l.id === choice.locationId);
    const site = location && !short && list.sites.find((s) => s.id === location.siteId);
    return location ? `${location.name}${site ? ` (${site.name})` : ''}` : null;
  }
  if (choice.siteId) return list.sites.find((s) => s.id === choice.siteId)?.name ?? null;
  return null;
}

const archivedMark = (place: { archivedAt: string | null }) => (place.archivedAt ? ' (archived)' : '');
const bySiteName = (a: Site, b: Site) =>
  Number(Boolean(a.archivedAt)) - Number(Boolean(b.archivedAt)) || a.name.localeCompare(b.name);

/**
 * Two selects: the site (or every site), then, once a site is picked, one of its locations
 * (or all of it). Picking another site starts at all of it.
 */
export function PlaceSelects({
  list,
  value,
  onChange,
  purpose,
  className = 'input',
}: {
  list: PlaceList | null;
  value: PlaceChoice;
  onChange: (choice: PlaceChoice) => void;
  /** What the choice does, for the selects' labels: "Filter by" gives "Filter by site", "Filter by location". */
  purpose: string;
  className?: string;
}) {
  if (!list || (list.sites.length <= 1 && list.locations.length <= 1)) return null;
  const siteId =
    value.siteId ??
    (value.locationId ? list.locations.find((l) => l.id === value.locationId)?.siteId : undefined) ??
    '';
  // Indented with no-break spaces: a <select> keeps no other indentation.
  const indent = (depth: number) => '\u00a0\u00a0\u00a0'.repeat(depth);
  return (
    <>
      <select
        className={className}
        aria-label={`${purpose} site`}
        value={siteId}
        onChange={(event) => onChange(event.target.value ? { siteId: event.target.value } : {})}
      >
        <option value="">All sites</option>
        {[...list.sites].sort(bySiteName).map((site) => (
          <option key={site.id} value={site.id}>
            {`${site.name}${archivedMark(site)}`}
          </option>
        ))}
      </select>
      {siteId ? (
        <select
          className={className}
          aria-label={`${purpose} location`}
          value={value.locationId ?? ''}
          onChange={(event) => onChange(event.target.value ? { siteId, locationId: event.target.value } : { siteId })}
        >
          <option value="">All locations</option>
          {treeRows(list.locations, siteId, true).map(({ location, depth }) => (
            <option key={location.id} value={location.id}>
              {`${indent(depth)}${location.name} · ${location.code}${archivedMark(location)}`}
            </option>
          ))}
        </select>
      ) : null}
    </>
  );
}
