// The item page's "where it is" table, live: a pushed event of the item moves its levels and
// what is in transit by the shared fold (evolveItem: the one place that says what an
// adjustment, a move or a transfer step does to them), so the table changes the moment the
// event arrives. A location the table does not list yet (its name unknown here), or an event
// no fold knows, asks for the table to be read again.
import type { Draft } from 'immer';
import type { ItemLocations } from '../../../shared/inventory';
import type { InventoryEvent } from '../../../shared/inventory-events';
import { evolveItem, type FoldedItem } from '../../../shared/inventory-fold';
import type { FeedEvent } from '../../../shared/realtime';
import type { FeedEffect } from '../../lib/live-query.machine';

/**
 * Applies one event of the item's stream (at a version after `itemVersion`, the one the page
 * holds) to its places. Only the levels and in transit are read from the fold.
 */
export function applyToPlaces(places: Draft<ItemLocations>, event: FeedEvent, itemVersion: number): FeedEffect {
  if (event.version <= itemVersion) return 'ignored';
  const levels = Object.fromEntries(places.locations.map((l) => [l.locationId, l.quantity]));
  const before = {
    levels,
    inTransit: places.inTransit,
    deleted: false,
    version: itemVersion,
  } as unknown as FoldedItem<string>;
  let after: FoldedItem<string> | null | undefined;
  try {
    after = evolveItem(before, { type: event.type, data: event.data } as InventoryEvent, {
      version: event.version,
      at: event.time,
    });
  } catch {
    after = undefined;
  }
  if (!after || after.deleted) return after?.deleted ? 'applied' : 'refetch';
  let known = true;
  for (const [locationId, quantity] of Object.entries(after.levels)) {
    const row = places.locations.find((l) => l.locationId === locationId.toLowerCase());
    if (row) row.quantity = quantity;
    else if (quantity !== 0) known = false;
  }
  // The total is the item's (its own row on the page, patched by the same event).
  places.inTransit = after.inTransit ?? places.inTransit;
  return known ? 'applied' : 'refetch';
}
