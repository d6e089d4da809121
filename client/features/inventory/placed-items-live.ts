// How pushed events change the Inventory page's list at a site or location (a location with
// the locations inside it, as the server counts): each row keeps its total (the shared fold,
// as every list) and its `quantityHere`, moved by what the event does at the filter's
// locations, read off the shared fold's levelsAfter (so a move, and any stock event the fold
// knows, counts at both of its ends without being listed here). An item that arrives at the
// filter, a location moved into or out of the chosen one, or a change no fold explains, asks
// for a refetch.
import type { Draft } from 'immer';
import type { Item } from '../../../shared/inventory';
import type { InventoryEvent, StockLevels } from '../../../shared/inventory-events';
import { levelsAfter } from '../../../shared/inventory-fold';
import type { FeedEvent } from '../../../shared/realtime';
import { evolveLocation, type Location, type LocationEvent } from '../../../shared/sites';
import type { FeedEffect } from '../../lib/live-query.machine';
import { subtreeIds } from '../../lib/place-tree';
import type { PlaceFilter } from './api';
import { applyToItem, itemIdOf } from './live-reducers';

export interface PlacedItemsData {
  /** The filter it was read for (placed-items.machine.ts filterKey). */
  filterKey: string;
  items: Item[];
  nextCursor: string | null;
  /** The site's locations: which location ids are at the site (the rest are elsewhere). */
  locations: Location[];
}

/** What an item event does at the filter's locations: the units it puts there (taken: negative), and whether it names any. */
export interface ChangeHere {
  units: number;
  touched: boolean;
}

/** The filter's locations: the site's, or the chosen location with the locations inside it (as the server counts). */
function filterLocations(filter: PlaceFilter, locations: readonly Location[]): Set<string> {
  if (filter.locationId) return subtreeIds(locations, filter.locationId);
  return new Set(locations.filter((l) => l.siteId === filter.siteId).map((l) => l.id));
}

/** What an item event does at the filter's locations; null when no fold knows the event (a type newer than this screen). */
export function changeHere(event: FeedEvent, filter: PlaceFilter, locations: readonly Location[]): ChangeHere | null {
  const change = levelsAfter({}, { type: event.type, data: event.data } as InventoryEvent) as StockLevels | undefined;
  if (!change) return null;
  const here = { units: 0, touched: false };
  const counted = filterLocations(filter, locations);
  for (const [locationId, delta] of Object.entries(change)) {
    const id = locationId.toLowerCase();
    if (!counted.has(id)) continue;
    here.units += delta;
    here.touched = true;
  }
  return here;
}

function reduceLocation(draft: Draft<PlacedItemsData>, event: FeedEvent, filter: PlaceFilter): FeedEffect {
  const id = event.stream.slice('location-'.length);
  const e = { type: event.type, data: event.data } as LocationEvent;
  const at = draft.locations.findIndex((l) => l.id === id);
  if (e.type === 'LocationCreated') {
    if (at >= 0 || e.data.siteId !== filter.siteId) return 'ignored';
    draft.locations.push(evolveLocation<string>(null, e, { version: event.version, at: event.time })!);
    return 'applied';
  }
  const current = at >= 0 ? (draft.locations[at] as Location) : null;
  if (!current || event.version <= current.version) return 'ignored';
  // Out of order (a missed event): read the list again.
  if (event.version !== current.version + 1) return 'refetch';
  const next = evolveLocation(current, e, { version: event.version, at: event.time });
  if (!next) return 'refetch';
  const inside = (list: readonly Location[]) =>
    !!filter.locationId && id !== filter.locationId && subtreeIds(list, filter.locationId).has(id);
  const wasInside = inside(draft.locations as Location[]);
  draft.locations[at] = next;
  // A location moved into or out of the chosen one brings its stock with it: the server sums it anew.
  if (e.type === 'LocationMoved' && (wasInside || inside(draft.locations as Location[]))) return 'refetch';
  return 'applied';
}

export function reducePlacedItems(draft: Draft<PlacedItemsData>, event: FeedEvent, filter: PlaceFilter): FeedEffect {
  if (event.streamType === 'location') return reduceLocation(draft, event, filter);
  const itemId = itemIdOf(event);
  if (!itemId) return 'ignored';
  const here = changeHere(event, filter, draft.locations as Location[]);
  const item = draft.items.find((i) => i.id === itemId);
  // An item that comes to the filter joins the list (its place in the order is the server's).
  if (!item) return here === null || here.touched ? 'refetch' : 'ignored';
  if (event.version <= item.version) return 'ignored';
  const effect = applyToItem(item, event);
  if (effect === 'gone') return 'refetch'; // a deleted item leaves the list
  if (here === null) return 'refetch';
  item.quantityHere = (item.quantityHere ?? 0) + here.units;
  return effect;
}

export function placedItemsConcerns(event: FeedEvent, filter: PlaceFilter, data: PlacedItemsData | null): boolean {
  if (event.streamType === 'location') return true;
  const itemId = itemIdOf(event);
  if (!itemId) return false;
  if (data === null || data.items.some((i) => i.id === itemId)) return true;
  const here = changeHere(event, filter, data.locations);
  return here === null || here.touched;
}
