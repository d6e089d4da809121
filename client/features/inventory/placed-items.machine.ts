// The Inventory page's list at a site or location (?siteId=&locationId=): the items placed
// there with their quantity here, newest first, and the site's locations (which the filter's
// location menu offers and the live reducer needs), kept current by the feed
// (placed-items-live.ts). "Show more" reads a longer first page (so a refetch keeps what was
// shown). Its +/- buttons adjust at the filter's location, or the site's default location.
import type { Item } from '../../../shared/inventory';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { withUndo } from '../../components/undo';
import { orQueued } from '../../offline/outbox';
import { inventoryApi, type PlaceFilter } from './api';
import { placedItemsConcerns, reducePlacedItems, type PlacedItemsData } from './placed-items-live';
import { adjustChange } from './undo-labels';

export const PLACED_PAGE = 50;
/** The most one read answers (the API's limit): a longer list is narrowed by a location or a search. */
export const PLACED_MAX = 500;

/** The filter (null: All sites, when the list holds nothing and reads nothing) and how many to show. */
export interface PlacedItemsParams {
  filter: PlaceFilter | null;
  limit: number;
}

/** Which filter data was read for: a list shows none of another filter's rows while it reads its own. */
export const filterKey = (filter: PlaceFilter | null) => (filter ? `${filter.siteId}/${filter.locationId ?? ''}` : '');

const NOTHING: PlacedItemsData = { filterKey: '', items: [], nextCursor: null, locations: [] };

export interface PlacedItemsWrite {
  kind: 'adjust';
  itemId: string;
  name: string;
  delta: 1 | -1;
  /** Where: the filter's location or the site's default (the page knows which). */
  locationId: string;
  locationName: string;
}

export const placedItemsMachine = createLiveQueryMachine<PlacedItemsData, PlacedItemsParams, PlacedItemsWrite>({
  id: 'placedItems',
  load: async ({ filter, limit }) => {
    if (!filter) return NOTHING;
    const [page, locations] = await Promise.all([
      inventoryApi.placedItems(filter, Math.min(limit, PLACED_MAX)),
      inventoryApi.siteLocations(filter.siteId),
    ]);
    return { filterKey: filterKey(filter), items: page.items, nextCursor: page.nextCursor, locations };
  },
  initial: ({ filter }) => (filter ? null : NOTHING),
  reduce: (draft, event, { filter }) => (filter ? reducePlacedItems(draft, event, filter) : 'ignored'),
  concerns: (event, { filter }, data) => filter !== null && placedItemsConcerns(event, filter, data),
  runWrite: (write) =>
    orQueued(() =>
      withUndo(
        (key) =>
          inventoryApi.adjustOrQueue(
            write.itemId,
            { delta: write.delta, reason: 'correction', locationId: write.locationId },
            `${write.name} at ${write.locationName}: ${write.delta > 0 ? '+' : ''}${write.delta}`,
            key,
          ),
        (item) => `Stock of "${write.name}" now ${item.quantity} (${write.locationName})`,
        adjustChange(write.name, write.delta),
      ),
    ),
  // The feed's StockAdjusted moves the quantity here; the answer only brings it sooner.
  applyWrite: (draft, write, result) => {
    if (!result) return 'ignored'; // queued offline: the outbox shows it as pending
    const updated = result as Item;
    const item = draft.items.find((i) => i.id === write.itemId);
    if (!item || updated.version <= item.version) return 'ignored';
    // Changes between the two versions would be missed here: read the list again.
    if (updated.version !== item.version + 1) return 'refetch';
    const here = item.quantityHere ?? 0;
    Object.assign(item, updated, { quantityHere: here + write.delta });
    return 'applied';
  },
  onWriteFailed: (_write, message) => toast.error(`Failed to update inventory item: ${message}`),
  loadErrorMessage: 'Failed to load inventory data',
});
