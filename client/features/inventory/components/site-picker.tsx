// The Inventory page's place filter: All sites or one site (remembered by this browser, and
// in the URL), and within a site All locations or one location, each by its path in the
// site's tree ("Back room › Shelf 2").
import { useId } from 'react';
import type { Location, Site } from '../../../../shared/sites';
import { Icon } from '../../../components/icons';
import type { PlaceFilter } from '../api';
import { locationOptions, pickableSites } from '../place-filter';

export function SitePicker({
  sites,
  locations,
  filter,
  onChange,
}: {
  sites: readonly Site[];
  /** The chosen site's locations (none until read). */
  locations: readonly Location[];
  filter: PlaceFilter | null;
  onChange: (filter: PlaceFilter | null) => void;
}) {
  const siteId = useId();
  const locationId = useId();
  const options = filter ? locationOptions(locations, filter.siteId) : [];
  // A location chosen in the URL that the list does not offer (archived since) stays shown.
  const missing = filter?.locationId && !options.some((o) => o.id === filter.locationId);
  return (
    <div className="place-filter" role="group" aria-label="Where">
      <div className="place-filter-field">
        <label htmlFor={siteId}>
          <Icon name="map-pin" size={15} /> Site
        </label>
        <select
          id={siteId}
          className="input"
          value={filter?.siteId ?? ''}
          onChange={(e) => onChange(e.target.value ? { siteId: e.target.value, locationId: null } : null)}
        >
          <option value="">All sites</option>
          {pickableSites(sites, filter?.siteId ?? null).map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
        </select>
      </div>
      {filter ? (
        <div className="place-filter-field">
          <label htmlFor={locationId}>Location</label>
          <select
            id={locationId}
            className="input"
            value={filter.locationId ?? ''}
            onChange={(e) => onChange({ siteId: filter.siteId, locationId: e.target.value || null })}
          >
            <option value="">All locations</option>
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
            {missing ? <option value={filter.locationId!}>This location</option> : null}
          </select>
        </div>
      ) : null}
    </div>
  );
}
