// The outbox's state for React: the signed-in user's waiting changes and conflicts, and
// per item what still waits (for "Pending" marks).
import { useMemo, useSyncExternalStore } from 'react';
import { outbox } from './outbox';
import type { OutboxState } from './outbox-core';
import { pendingByItem, type PendingForItem } from './pending';

export function useOutbox(): OutboxState {
  return useSyncExternalStore(outbox.subscribe, outbox.getState, outbox.getState);
}

/** What still waits for this item, or null. */
export function usePendingItem(itemId: string): PendingForItem | null {
  const { waiting } = useOutbox();
  return useMemo(() => pendingByItem(waiting)[itemId] ?? null, [waiting, itemId]);
}
