// The item page's live data: the item and its history, patched by pushed events, with the
// Adjust stock dialog's write (a delta with a reason and note).
import type { AdjustReason, Item } from '../../../shared/inventory';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { withUndo } from '../../components/undo';
import { orQueued } from '../../offline/outbox';
import { inventoryApi } from './api';
import { adjustChange } from './undo-labels';
import { itemDetailConcerns, reduceItemDetail, type ItemDetailData } from './live-reducers';

export interface ItemDetailWrite {
  kind: 'adjust';
  /** The item's name, for the Undo button ("Undo +3 Spirit Level (restock)"). */
  name: string;
  delta: number;
  reason: AdjustReason;
  note: string;
}

export const itemDetailMachine = createLiveQueryMachine<ItemDetailData, { id: string }, ItemDetailWrite>({
  id: 'itemDetail',
  load: async ({ id }) => {
    const [item, history, categories] = await Promise.all([
      inventoryApi.item(id),
      inventoryApi.history(id),
      inventoryApi.categories(),
    ]);
    return { item, history, categoryNames: Object.fromEntries(categories.map((c) => [c.id, c.name])) };
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
            { delta: write.delta, reason: write.reason, ...(write.note.trim() ? { note: write.note.trim() } : {}) },
            `Stock ${write.delta > 0 ? '+' : ''}${write.delta} (${write.reason})`,
            key,
          ),
        () => 'Stock updated',
        adjustChange(write.name, write.delta, write.reason),
      ),
    ),
  applyWrite: (draft, _write, result) => {
    if (!result) return 'ignored';
    const updated = result as Item;
    if (updated.version > draft.item.version) Object.assign(draft.item, updated);
    return 'refetch'; // the history gains an entry
  },
  // The dialog shows the failure in its own red box.
  loadErrorMessage: 'Failed to load inventory data',
});
