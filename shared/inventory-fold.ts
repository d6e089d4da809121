// What each item and category event does to its item or category, said once: the server's
// decisions, its history and revert folds, and the client's live screens all fold events
// with these (a screen maps its own row shape onto them, it does not restate a rule). The
// SQL projections keep their own forms, checked against their handlers by property tests.
import type { CategoryEvent, CategoryFields, InventoryEvent, ItemFields } from './inventory-events.js';

/** Where the event sits: its stream version and its time (`At`: Date on the server, ISO text on a screen). */
export interface FoldMeta<At> {
  version: number;
  at: At | null;
}

/** An item as its events leave it; `deleted` once deleted (a revert may create it again). */
export interface FoldedItem<At = Date> extends ItemFields {
  id: string;
  version: number;
  deleted: boolean;
  createdAt: At | null;
  updatedAt: At | null;
}

/** A category as its events leave it. */
export interface FoldedCategory<At = Date> extends CategoryFields {
  id: string;
  version: number;
  deleted: boolean;
  createdAt: At | null;
  updatedAt: At | null;
}

const changedTo = <T>(changes: { [K in keyof T]?: { to: T[K] } }): Partial<T> =>
  Object.fromEntries(
    Object.entries(changes).map(([field, change]) => [field, (change as { to: unknown }).to]),
  ) as Partial<T>;

/** The item fields an event sets: none for a low-stock crossing or a delete. */
export function itemFieldsSetBy(event: InventoryEvent): Partial<ItemFields> {
  switch (event.type) {
    case 'ItemCreated': {
      const { itemId: _id, ...fields } = event.data;
      // Events from before barcodes existed have none.
      return { ...fields, barcode: fields.barcode ?? null };
    }
    case 'ItemUpdated':
      return changedTo<Omit<ItemFields, 'quantity'>>(event.data.changes);
    case 'StockAdjusted':
      return { quantity: event.data.quantity };
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'ItemDeleted':
      return {};
  }
}

/**
 * The item after one more event of its stream. Every event moves the version and the time
 * it was last changed (a crossing is written with the change that caused it, so at the same
 * time); events after a delete change nothing until a creation starts it again.
 */
export function evolveItem<At>(
  state: FoldedItem<At> | null,
  event: InventoryEvent,
  meta: FoldMeta<At>,
): FoldedItem<At> | null {
  const touched = { version: meta.version, updatedAt: meta.at };
  switch (event.type) {
    case 'ItemCreated':
      return {
        ...(itemFieldsSetBy(event) as ItemFields),
        id: event.data.itemId,
        deleted: false,
        createdAt: meta.at,
        ...touched,
      };
    case 'ItemUpdated':
    case 'StockAdjusted':
    case 'ItemWentLow':
    case 'ItemRecovered':
      return state && { ...state, ...itemFieldsSetBy(event), ...touched };
    case 'ItemDeleted':
      return state && { ...state, deleted: true, ...touched };
  }
}

/** The category fields an event sets: none for a delete. */
export function categoryFieldsSetBy(event: CategoryEvent): Partial<CategoryFields> {
  switch (event.type) {
    case 'CategoryCreated':
      return { name: event.data.name, description: event.data.description };
    case 'CategoryUpdated':
      return changedTo<CategoryFields>(event.data.changes);
    case 'CategoryDeleted':
      return {};
  }
}

/** The category after one more event of its stream (a revert may create a deleted one again). */
export function evolveCategory<At>(
  state: FoldedCategory<At> | null,
  event: CategoryEvent,
  meta: FoldMeta<At>,
): FoldedCategory<At> | null {
  const touched = { version: meta.version, updatedAt: meta.at };
  switch (event.type) {
    case 'CategoryCreated':
      return {
        ...(categoryFieldsSetBy(event) as CategoryFields),
        id: event.data.categoryId,
        deleted: false,
        createdAt: meta.at,
        ...touched,
      };
    case 'CategoryUpdated':
      return state && { ...state, ...categoryFieldsSetBy(event), ...touched };
    case 'CategoryDeleted':
      return state && { ...state, deleted: true, ...touched };
  }
}
