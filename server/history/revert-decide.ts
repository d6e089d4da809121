// Revert decisions: pure functions from (the change to revert, the stream as it stands) to
// compensating events. Nothing is read or deleted here: the events they return are appended
// with `reverts: <eventId>` in their metadata, and the reverts table refuses a second one.
import type { CategoryEvent, InventoryEvent, ItemFields } from '../../shared/inventory-events.js';
import type { RevertField, RevertKind } from '../../shared/inventory-history.js';
import { ConflictError, ValidationError } from '../errors.js';
import { adjustStock, createItem, deleteItem, moveStock, updateItem } from '../inventory/decide.js';
import type { ItemState } from '../inventory/item-state.js';
import { placeNamed, requireOpen, type Places, type StockPlace } from '../inventory/stock-places.js';
import { adjustedAt } from '../../shared/inventory-fold.js';
import type { StoredEvent } from '../eventstore/types.js';
import { signed } from '../inventory/change-summary.js';
import { deleteCategory, updateCategory, type CategoryState } from '../categories/decide.js';

const EDITABLE = [
  'name',
  'description',
  'sku',
  'categoryId',
  'price',
  'threshold',
  'imageUrl',
  'expiryDate',
  'barcode',
] as const;

export function revertKind(type: string): RevertKind {
  switch (type) {
    case 'StockAdjusted':
      return 'adjust';
    case 'StockMoved':
      return 'move';
    case 'ItemUpdated':
      return 'edit';
    case 'ItemCreated':
      return 'create';
    case 'ItemDeleted':
      return 'delete';
    case 'CategoryCreated':
      return 'category-create';
    case 'CategoryUpdated':
      return 'category-edit';
    case 'CategoryDeleted':
      return 'category-delete';
    case 'StockShipped':
    case 'StockReceived':
    case 'TransitWrittenOff':
      throw new ValidationError(
        "This is a step of a transfer between sites: it is undone as a whole step, from the transfer's entry in the activity log",
      );
    default:
      throw new ValidationError(
        'This entry follows from a stock change and cannot be reverted on its own: revert that change',
      );
  }
}

/** Each field an edit changed: what a revert restores, and whether a later edit changed it again. */
export function fieldsOfEdit(
  original: StoredEvent,
  current: Record<string, unknown> | null,
  later: StoredEvent[],
): RevertField[] {
  const changes = (original.data as { changes: Record<string, { from: unknown; to: unknown }> }).changes;
  return Object.entries(changes)
    .map(([field, change]): RevertField => {
      const edits = later.filter((e) => e.type === original.type && (e.data as any).changes?.[field] !== undefined);
      const last = edits.at(-1);
      const now = current ? current[field] : undefined;
      const changedSince =
        last && now !== change.to ? { by: last.metadata.actor.name, at: last.createdAt.toISOString() } : null;
      return { field, restore: change.from, edited: change.to, current: now ?? null, changedSince };
    })
    .sort((a, b) => a.field.localeCompare(b.field));
}

/** The fields a revert of an edit restores: those chosen, else those not changed since. */
export function fieldsToRestore(fields: RevertField[], chosen: string[] | undefined): RevertField[] {
  if (chosen) {
    const unknown = chosen.filter((f) => !fields.some((x) => x.field === f));
    if (unknown.length) throw new ValidationError(`fields: this change did not edit ${unknown.join(', ')}`);
    return fields.filter((f) => chosen.includes(f.field));
  }
  const free = fields.filter((f) => !f.changedSince);
  if (free.length === 0) {
    const list = fields
      .map((f) => `${f.field} (changed since by ${f.changedSince!.by} on ${f.changedSince!.at})`)
      .join(', ');
    throw new ConflictError(
      `Every field of this change was changed since: ${list}. Pick the fields to restore anyway.`,
    );
  }
  return free;
}

/**
 * A location an event names, as the revert's decisions take it: from the places loaded for
 * the revert (checked: it must be there, and open to stock), or, without them, by id alone.
 */
function placeFor(places: Places | undefined, id: string): StockPlace {
  if (!places) return { id, name: 'its location', siteId: '', archived: false };
  try {
    return requireOpen(placeNamed(places, id, 'locationId'));
  } catch (error) {
    throw new ConflictError(`Cannot revert: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The compensating events of one item event, decided on the item's current state (null:
 * never created; `deleted`: deleted). Stock deltas always revert, at the location they
 * happened, but never below 0 there; a move moves back. `places`: the locations the events
 * name (the revert service loads them; without, locations are taken by id, unchecked).
 */
export function revertItemEvent(
  original: StoredEvent,
  state: ItemState | null,
  later: StoredEvent[],
  chosenFields?: string[],
  places?: Places,
): InventoryEvent[] {
  const live = state && !state.deleted ? state : null;
  switch (original.type) {
    case 'StockAdjusted': {
      const data = original.data as { delta: number; locationId?: string };
      const delta = -data.delta;
      if (!live) throw new ConflictError('Cannot revert: the item was deleted since. Restore it first.');
      const at = data.locationId === undefined ? undefined : placeFor(places, data.locationId);
      const where = adjustedAt(data);
      const there = live.levels[where] ?? 0;
      const after = there + delta;
      if (after < 0) {
        // Where the item has stock at one location only, that location goes without saying.
        const elsewhere = Object.keys(live.levels).some((id) => id !== where && (live.levels[id] ?? 0) > 0);
        throw new ConflictError(
          `Cannot revert: ${live.name} has ${there} in stock${elsewhere && at ? ` at ${at.name}` : ''} now; taking back ${signed(-delta)} would leave ${after}, below 0`,
          { quantity: live.quantity },
        );
      }
      return adjustStock({ delta, reason: 'correction', note: null, locationId: at?.id }, live, at);
    }
    case 'StockMoved': {
      const data = original.data as { fromLocationId: string; toLocationId: string; quantity: number };
      if (!live) throw new ConflictError('Cannot revert: the item was deleted since. Restore it first.');
      const there = live.levels[data.toLocationId] ?? 0;
      const to = placeFor(places, data.toLocationId);
      const from = placeFor(places, data.fromLocationId);
      if (there < data.quantity) {
        throw new ConflictError(
          `Cannot revert: ${live.name} has ${there} at ${to.name} now; moving ${data.quantity} back needs ${data.quantity} there`,
          { quantity: live.quantity },
        );
      }
      return moveStock(
        { fromLocationId: to.id, toLocationId: from.id, quantity: data.quantity, note: null },
        live,
        to,
        from,
      );
    }
    case 'ItemUpdated': {
      if (!live) throw new ConflictError('Cannot revert: the item was deleted since. Restore it first.');
      const fields = fieldsToRestore(
        fieldsOfEdit(original, live as unknown as Record<string, unknown>, later),
        chosenFields,
      );
      const changes: Partial<ItemFields> = {};
      for (const f of fields) (changes as Record<string, unknown>)[f.field] = f.restore;
      const events = updateItem({ changes }, live);
      if (events.length === 0) throw new ConflictError('Nothing to revert: every field already has its old value');
      return events;
    }
    case 'ItemCreated': {
      if (!live) throw new ConflictError('Cannot revert: the item is already deleted');
      return deleteItem(live);
    }
    case 'ItemDeleted': {
      if (!state) throw new ConflictError('Cannot revert: the item has no history');
      if (!state.deleted) throw new ConflictError('Cannot revert: the item is not deleted (it was restored since)');
      const fields: ItemFields = {} as ItemFields;
      for (const key of [...EDITABLE, 'quantity'] as const)
        (fields as unknown as Record<string, unknown>)[key] = state[key];
      // It comes back where its stock was, each location still open to it.
      for (const [id, units] of Object.entries(state.levels)) if (units > 0) placeFor(places, id);
      fields.quantity = Object.values(state.levels).reduce((sum, units) => sum + units, 0);
      // The same stream carries on: decided as a create on no state, so it is checked as one.
      return createItem({ itemId: state.id, fields, levels: state.levels }, null);
    }
    default:
      revertKind(original.type);
      throw new ValidationError(`${original.type} is not an item change`);
  }
}

/** A category folded from its stream: its last fields, also once deleted. */
export type CategoryFold = CategoryState & { deleted: boolean };

/** The compensating events of one category event, on the category's folded state. */
export function revertCategoryEvent(
  original: StoredEvent,
  folded: CategoryFold,
  later: StoredEvent[],
  chosenFields?: string[],
): CategoryEvent[] {
  const state = folded.deleted ? null : folded;
  switch (original.type) {
    case 'CategoryUpdated': {
      if (!state) throw new ConflictError('Cannot revert: the category was deleted since');
      const fields = fieldsToRestore(
        fieldsOfEdit(original, state as unknown as Record<string, unknown>, later),
        chosenFields,
      );
      const changes: Record<string, unknown> = {};
      for (const f of fields) changes[f.field] = f.restore;
      const events = updateCategory(changes, state);
      if (events.length === 0) throw new ConflictError('Nothing to revert: every field already has its old value');
      return events;
    }
    case 'CategoryCreated':
      if (!state) throw new ConflictError('Cannot revert: the category is already deleted');
      if (state.itemCount > 0)
        throw new ConflictError(
          `Cannot revert: the category still has ${state.itemCount} item(s); move or delete them first`,
        );
      return deleteCategory(state);
    case 'CategoryDeleted': {
      if (state) throw new ConflictError('Cannot revert: the category exists (it was restored since)');
      return [
        {
          type: 'CategoryCreated',
          data: { categoryId: folded.id, name: folded.name, description: folded.description },
        },
      ];
    }
    default:
      revertKind(original.type);
      throw new ValidationError(`${original.type} is not a category change`);
  }
}
