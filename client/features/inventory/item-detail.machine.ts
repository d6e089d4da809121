// The item page's live data: the item, its history, where its stock is (by site and location,
// and in transit), the sites and the locations of the site this browser works at, patched by
// pushed events, with the Adjust stock dialog's write (a delta with a reason and note, at a
// location).
import type { AdjustReason } from '../../../shared/inventory';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { withUndo } from '../../components/undo';
import { orQueued } from '../../offline/outbox';
import { inventoryApi } from './api';
import { adjustChange } from './undo-labels';
import { itemDetailConcerns, reduceItemDetail, type ItemDetailData } from './live-reducers';

export interface ItemDetailParams {
  id: string;
  /** The site this browser works at (null: All sites): its locations are read too. */
  siteId: string | null;
}

export interface ItemDetailWrite {
  kind: 'adjust';
  /** The item's name, for the Undo button ("Undo +3 Spirit Level (restock)"). */
  name: string;
  delta: number;
  reason: AdjustReason;
  note: string;
  /** Where; absent: the server's default location for the caller. */
  locationId?: string;
}

export const itemDetailMachine = createLiveQueryMachine<ItemDetailData, ItemDetailParams, ItemDetailWrite>({
  id: 'itemDetail',
  load: async ({ id, siteId }) => {
    const [item, history, categories, places, sites, siteLocations] = await Promise.all([
      inventoryApi.item(id),
      inventoryApi.history(id),
      inventoryApi.categories(),
      inventoryApi.itemLocations(id),
      inventoryApi.sites(),
      siteId ? inventoryApi.siteLocations(siteId).catch(() => []) : Promise.resolve([]),
    ]);
    return {
      item,
      history,
      categoryNames: Object.fromEntries(categories.map((c) => [c.id, c.name])),
      places,
      sites,
      siteLocations,
    };
  },
  reduce: (draft, event, params) => reduceItemDetail(draft, event, params.id),
  concerns: (event, params, data) => itemDetailConcerns(event, params.id, data),
  // The toast's Undo reverts this adjustment, whatever else happened to the item since.
  // Offline, the adjustment waits in the outbox and the page marks it pending.
  runWrite: (write, params) =>
    orQueued(() =>
      withUndo(
        (key) =>
          inventoryApi.adjustOrQueue(
            params.id,
            {
              delta: write.delta,
              reason: write.reason,
              ...(write.note.trim() ? { note: write.note.trim() } : {}),
              ...(write.locationId ? { locationId: write.locationId } : {}),
            },
            `Stock ${write.delta > 0 ? '+' : ''}${write.delta} (${write.reason})`,
            key,
          ),
        () => 'Stock updated',
        adjustChange(write.name, write.delta, write.reason),
      ),
    ),
  // Not patched from the answer (which says the total, not where): the feed's event patches
  // the item and where it is together, and the read that follows brings the history's entry.
  applyWrite: (_draft, _write, result) => (result ? 'refetch' : 'ignored'),
  // The dialog shows the failure in its own red box.
  loadErrorMessage: 'Failed to load inventory data',
});
