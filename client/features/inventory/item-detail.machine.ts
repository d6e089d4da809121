// The item page's live data: the item and its history, patched by pushed events, with the
// Adjust stock dialog's write (a delta with a reason and note).
import type { AdjustReason, Item } from '../../../shared/inventory';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { inventoryApi } from './api';
import { itemDetailConcerns, reduceItemDetail, type ItemDetailData } from './live-reducers';

export interface ItemDetailWrite {
  kind: 'adjust';
  delta: number;
  reason: AdjustReason;
  note: string;
}

export const itemDetailMachine = createLiveQueryMachine<ItemDetailData, { id: string }, ItemDetailWrite>({
  id: 'itemDetail',
  load: async ({ id }) => {
    const [item, history, categories] = await Promise.all([inventoryApi.item(id), inventoryApi.history(id), inventoryApi.categories()]);
    return { item, history, categoryNames: Object.fromEntries(categories.map((c) => [c.id, c.name])) };
  },
  reduce: (draft, event, params) => reduceItemDetail(draft, event, params.id),
  concerns: (event, params, data) => itemDetailConcerns(event, params.id, data),
  runWrite: (write, params) =>
    inventoryApi.adjust(params.id, { delta: write.delta, reason: write.reason, ...(write.note.trim() ? { note: write.note.trim() } : {}) }),
  applyWrite: (draft, _write, result) => {
    const updated = result as Item;
    if (updated.version > draft.item.version) Object.assign(draft.item, updated);
    return 'refetch'; // the history gains an entry
  },
  // The dialog shows the failure in its own red box.
  loadErrorMessage: 'Failed to load inventory data',
});
