// Item history entries with what undo and revert need: each entry's event id, whether it
// reverts an earlier change ("Reverted: {summary}", and why), and whether it was reverted.
// Reverts of an item's events are on its own stream, so the stream alone tells.
import type { HistoryEntry } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { StoredEvent } from '../eventstore/types.js';
import { evolveItem, type ItemState } from './item-state.js';
import { describeChange } from './change-summary.js';

interface RevertMetadata {
  reverts?: string;
  revertReason?: string | null;
}

export function withReverts(
  events: StoredEvent[],
  entryOf: (event: StoredEvent) => HistoryEntry | null,
): HistoryEntry[] {
  const summaries = new Map<string, string>();
  const revertedBy = new Map<string, { name: string; at: string }>();
  let state: ItemState | null = null;
  for (const e of events) {
    // Named as the item was named just before the change (a deleted item keeps its name).
    const name = state?.name ?? (e.data as { name?: string }).name ?? '';
    summaries.set(e.eventId, describeChange(e, name));
    const reverts = (e.metadata as RevertMetadata).reverts;
    if (reverts && !revertedBy.has(reverts))
      revertedBy.set(reverts, { name: e.metadata.actor.name, at: e.createdAt.toISOString() });
    state = evolveItem(state, { type: e.type, data: e.data } as InventoryEvent, {
      version: e.streamVersion,
      at: e.createdAt,
      streamId: e.streamId,
    });
  }
  const entries: HistoryEntry[] = [];
  for (const e of events) {
    const entry = entryOf(e);
    if (!entry) continue;
    const meta = e.metadata as RevertMetadata;
    entries.push({
      ...entry,
      eventId: e.eventId,
      reverts: meta.reverts
        ? { eventId: meta.reverts, summary: summaries.get(meta.reverts) ?? '', reason: meta.revertReason ?? null }
        : null,
      revertedBy: revertedBy.get(e.eventId) ?? null,
    });
  }
  return entries;
}
