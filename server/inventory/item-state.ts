// The state an item's decisions are made on: the item as its events leave it, folded by the
// one fold shared with the client (shared/inventory-fold.ts). Live decisions read the same
// state from the items projection (item-rows.ts rowToState); history, as-of reads, reverts
// and a batch's adjustments fold events with evolveItem.
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { evolveItem as evolve, type FoldedItem } from '../../shared/inventory-fold.js';

/**
 * `levelSites`: the site of each location in `levels`, where the state was read from the
 * projection (item-rows.ts); a fold of events alone does not know them (a location never
 * changes site, so they stay true as the state is carried forward).
 */
export type ItemState = FoldedItem<Date> & { levelSites?: Record<string, string> };

/** The item after one more event of its stream (`streamId` is accepted for callers that have it at hand). */
export function evolveItem(
  state: ItemState | null,
  event: InventoryEvent,
  meta: { version: number; at: Date; streamId?: string },
): ItemState | null {
  return evolve(state, event, meta);
}
