// Where the item page's Adjust stock puts or takes stock. At the site this browser works at:
// its default location, or, when the item is kept at other locations there too, any of them
// (a picker). With All sites: the item's locations anywhere, or the server's default for the
// caller when it is at none. Pure: the dialog shows what this says.
import type { ItemLocations } from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';

export interface AdjustPlace {
  id: string;
  /** "Back room", or with All sites "Back room (Main store)". */
  label: string;
  /** The item's units there. */
  quantity: number;
}

export interface AdjustChoice {
  /** The locations offered: a picker when there are several. */
  places: AdjustPlace[];
  /** The one chosen to start with; null: none named (the server's default). */
  initial: string | null;
}

const byLabel = (a: AdjustPlace, b: AdjustPlace) => a.label.localeCompare(b.label);

export function adjustChoice(
  item: ItemLocations,
  sites: readonly Site[],
  siteLocations: readonly Location[],
  chosenSiteId: string | null,
): AdjustChoice {
  const site = chosenSiteId ? sites.find((s) => s.id === chosenSiteId) : undefined;
  const stocked = item.locations.filter((l) => l.quantity > 0 && (!site || l.siteId === site.id));
  if (!site) {
    const places = stocked.map((l) => ({
      id: l.locationId,
      label: `${l.locationName} (${l.siteName})`,
      quantity: l.quantity,
    }));
    places.sort(byLabel);
    // Where most of it is, to start with.
    const most = [...places].sort((a, b) => b.quantity - a.quantity)[0];
    return { places, initial: most?.id ?? null };
  }
  const places = stocked.map((l) => ({ id: l.locationId, label: l.locationName, quantity: l.quantity })).sort(byLabel);
  const defaultId = site.defaultLocationId;
  if (defaultId && !places.some((p) => p.id === defaultId)) {
    const known = siteLocations.find((l) => l.id === defaultId);
    const placed = item.locations.find((l) => l.locationId === defaultId);
    const name = known?.name ?? placed?.locationName;
    // Its name unread (the site's locations failed to load): the server's default, unnamed.
    if (!name) return { places, initial: places.length === 1 ? places[0]!.id : null };
    places.unshift({ id: defaultId, label: name, quantity: placed?.quantity ?? 0 });
  } else if (defaultId) {
    // The default first: where stock goes unless someone says otherwise.
    places.sort((a, b) => (a.id === defaultId ? -1 : b.id === defaultId ? 1 : 0));
  }
  return { places, initial: defaultId ?? places[0]?.id ?? null };
}
