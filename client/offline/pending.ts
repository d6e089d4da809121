// What the waiting changes mean for the screens: per item, the stock delta still on its
// way (adjustments and counts carry a `delta`) and the fields of waiting edits, so a page
// can show the value the user expects, marked "Pending", until the server confirms it.
import type { OutboxEntry } from './outbox-db';

export interface PendingForItem {
  /** Sum of the waiting stock deltas. */
  delta: number;
  /** The waiting edits' fields, later ones over earlier ones. */
  fields: Record<string, unknown>;
  /** How many changes wait for this item. */
  count: number;
}

export function pendingByItem(waiting: readonly OutboxEntry[]): Record<string, PendingForItem> {
  const byItem: Record<string, PendingForItem> = {};
  for (const entry of waiting) {
    if (!entry.itemId) continue;
    const body = (entry.body ?? {}) as Record<string, unknown>;
    // A stocktake count changes no stock until a manager approves it: nothing to mark.
    if (entry.kind === 'count' && typeof body.delta !== 'number') continue;
    const pending = (byItem[entry.itemId] ??= { delta: 0, fields: {}, count: 0 });
    pending.count += 1;
    if (entry.kind === 'edit') Object.assign(pending.fields, body);
    else if (typeof body.delta === 'number') pending.delta += body.delta;
  }
  return byItem;
}
