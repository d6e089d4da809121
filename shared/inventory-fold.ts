// What each item and category event does to its item or category, said once: the server's
// decisions, its history and revert folds, and the client's live screens all fold events
// with these (a screen maps its own row shape onto them, it does not restate a rule). The
// SQL projections keep their own forms, checked against their handlers by property tests.
import type { CategoryEvent, CategoryFields, InventoryEvent, ItemFields, StockLevels } from './inventory-events.js';
import { MAIN_LOCATION_ID } from './places.js';

/** Where the event sits: its stream version and its time (`At`: Date on the server, ISO text on a screen). */
export interface FoldMeta<At> {
  version: number;
  at: At | null;
}

/**
 * An item as its events leave it; `deleted` once deleted (a revert may create it again).
 * `quantity` is what it has on hand, the sum of `levels`: where it is, by location (a
 * location it was ever at stays, at 0); `inTransit` what a transfer shipped and nobody has
 * received or written off yet. A screen that holds no levels folds from `{}` and reads only
 * the total.
 */
export interface FoldedItem<At = Date> extends ItemFields {
  id: string;
  version: number;
  deleted: boolean;
  createdAt: At | null;
  updatedAt: At | null;
  levels: StockLevels;
  inTransit: number;
  /**
   * Its own low-stock thresholds by site id (SiteThresholdSet); a site without one uses
   * `threshold`. Absent where nothing was read or folded of them (a row read without them).
   */
  siteThresholds?: Record<string, number>;
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
      // Where its stock is goes to the levels (levelsAfter), not to the item's fields.
      const { itemId: _id, locationId: _at, levels: _levels, ...fields } = event.data;
      // Events from before barcodes existed have none.
      return { ...fields, barcode: fields.barcode ?? null };
    }
    case 'ItemUpdated':
      return changedTo<Omit<ItemFields, 'quantity'>>(event.data.changes);
    case 'StockAdjusted':
      return { quantity: event.data.quantity };
    case 'StockShipped':
    case 'StockReceived':
      return { quantity: event.data.quantityAfter };
    case 'StockMoved':
    case 'TransitWrittenOff':
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'SiteThresholdSet':
    case 'SiteWentLow':
    case 'SiteRecovered':
    case 'ItemDeleted':
      return {};
  }
}

/** The thresholds by site a SiteThresholdSet leaves (null clears the site's own). */
export function siteThresholdsAfter(
  thresholds: Record<string, number> | undefined,
  data: { siteId: string; threshold: number | null },
): Record<string, number> {
  const { [data.siteId.toLowerCase()]: _old, ...rest } = thresholds ?? {};
  return data.threshold === null ? rest : { ...rest, [data.siteId.toLowerCase()]: data.threshold };
}

/** Where an adjustment happened: events from before places name no location, and were at Main. */
export const adjustedAt = (data: { locationId?: string }): string => data.locationId ?? MAIN_LOCATION_ID;

/** Where a created item's stock is, by location. */
export function createdLevels(data: { quantity: number; locationId?: string; levels?: StockLevels }): StockLevels {
  return data.levels ? { ...data.levels } : { [adjustedAt(data)]: data.quantity };
}

const add = (levels: StockLevels, locationId: string, units: number): StockLevels => ({
  ...levels,
  [locationId]: (levels[locationId] ?? 0) + units,
});

/** The levels an event leaves: what adjustments, moves and transfers do to an item's locations. */
export function levelsAfter(levels: StockLevels, event: InventoryEvent): StockLevels {
  switch (event.type) {
    case 'ItemCreated':
      return createdLevels(event.data);
    case 'StockAdjusted':
      return add(levels, adjustedAt(event.data), event.data.delta);
    case 'StockMoved':
      return add(
        add(levels, event.data.fromLocationId, -event.data.quantity),
        event.data.toLocationId,
        event.data.quantity,
      );
    case 'StockShipped':
      return add(levels, event.data.fromLocationId, -event.data.quantity);
    case 'StockReceived':
      return add(levels, event.data.toLocationId, event.data.quantity);
    case 'TransitWrittenOff':
    case 'ItemUpdated':
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'SiteThresholdSet':
    case 'SiteWentLow':
    case 'SiteRecovered':
    case 'ItemDeleted':
      return levels;
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
        levels: createdLevels(event.data),
        inTransit: 0,
        siteThresholds: {},
        ...touched,
      };
    case 'StockAdjusted':
    case 'StockMoved':
      return state && { ...state, ...itemFieldsSetBy(event), levels: levelsAfter(state.levels, event), ...touched };
    case 'StockShipped':
    case 'StockReceived':
    case 'TransitWrittenOff':
      return (
        state && {
          ...state,
          ...itemFieldsSetBy(event),
          levels: levelsAfter(state.levels, event),
          inTransit: event.data.inTransitAfter,
          ...touched,
        }
      );
    case 'ItemUpdated':
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'SiteWentLow':
    case 'SiteRecovered':
      return state && { ...state, ...itemFieldsSetBy(event), ...touched };
    case 'SiteThresholdSet':
      return state && { ...state, siteThresholds: siteThresholdsAfter(state.siteThresholds, event.data), ...touched };
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
