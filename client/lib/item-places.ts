// Where an item's stock is, for screens: the rows of GET /api/inventory/{id}/locations grouped
// by site (sites by name, locations by their paths, as the server orders them), with each
// site's total, and each location named by its path.
// The item page's table and the "Where is it" popover both show it this way.
import type { ItemLocations } from '../../shared/inventory';

export type ItemPlace = ItemLocations['locations'][number];

export interface SiteStock {
  siteId: string;
  siteName: string;
  /** The units at the site's locations. */
  total: number;
  locations: ItemPlace[];
}

/**
 * The item's locations by site. Without `withEmpty`, locations it left (0 there) are left
 * out, and so is a site with none left; archived locations show only while they hold stock.
 */
export function stockBySite(locations: readonly ItemPlace[], withEmpty = false): SiteStock[] {
  const sites: SiteStock[] = [];
  for (const place of locations) {
    if (!withEmpty && place.quantity === 0) continue;
    if (place.archived && place.quantity === 0) continue;
    let site = sites.find((s) => s.siteId === place.siteId);
    if (!site) {
      site = { siteId: place.siteId, siteName: place.siteName, total: 0, locations: [] };
      sites.push(site);
    }
    site.total += place.quantity;
    site.locations.push(place);
  }
  return sites;
}

/** Where a location is, from its site's top level: "Back room › Shelf 2 › Bin 14" (its name when no path came). */
export const placePathText = (place: Pick<ItemPlace, 'locationName' | 'locationPath'>): string =>
  place.locationPath?.length ? place.locationPath.join(' › ') : place.locationName;
