// Item decisions: pure functions from (command, current state) to events. They throw typed
// domain errors; ids, the current state and the time (`now`) come in, nothing is read from
// the outside.
import { ADJUST_MAX_AGE_MS, isLowStock, type AdjustReason } from '../../shared/inventory.js';
import type { Changes, InventoryEvent, ItemFields } from '../../shared/inventory-events.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { checkField, checkFields } from './item-rules.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import type { ItemState } from './item-state.js';

export interface CreateItem {
  itemId: string;
  fields: ItemFields;
}
export interface UpdateItem {
  changes: Partial<ItemFields>;
}
export interface AdjustStock {
  delta: number;
  reason: AdjustReason;
  note?: string | null;
  /**
   * When it was made, if before it is recorded: as sent (the device's clock) until
   * recordAdjustment checks it; null: when recorded.
   */
  occurredAt?: Date | null;
}

type Level = { quantity: number; threshold: number } | null;

/** The low-stock crossing, as its own event, so alerts come straight from the stream. */
function lowStockTransition(before: Level, after: Level): InventoryEvent[] {
  const wasLow = before ? isLowStock(before) : false;
  const isLow = after ? isLowStock(after) : false;
  if (!wasLow && isLow)
    return [{ type: 'ItemWentLow', data: { quantity: after!.quantity, threshold: after!.threshold } }];
  if (wasLow && !isLow && after) {
    return [{ type: 'ItemRecovered', data: { quantity: after.quantity, threshold: after.threshold } }];
  }
  return [];
}

/**
 * The events, followed by the low-stock crossing they cause, if any: the state they leave is
 * folded by the same fold that every reader of the stream uses.
 */
function withCrossing(before: ItemState | null, events: InventoryEvent[]): InventoryEvent[] {
  // Decisions read no clock: the time of the state after does not matter here.
  let after = before;
  for (const [k, event] of events.entries())
    after = evolveItem(after, event, { version: (before?.version ?? 0) + k + 1, at: null });
  return [...events, ...lowStockTransition(before, after)];
}

function live(state: ItemState | null): ItemState {
  if (!state || state.deleted) throw new NotFoundError('Item not found');
  return state;
}

export function createItem(command: CreateItem, state: ItemState | null): InventoryEvent[] {
  if (state) throw new ConflictError('Item already exists');
  const fields = checkFields(command.fields);
  return withCrossing(null, [{ type: 'ItemCreated', data: { itemId: command.itemId, ...fields } }]);
}

/**
 * The moment an adjustment sent later was made (`occurredAt` of the body), checked against the
 * server's clock: refused when older than a week; null when it is not before `now` (then it
 * happened when recorded, as any adjustment), also when a device clock runs ahead: a sale
 * must never be refused for a phone's wrong clock, it only loses its earlier moment. Only
 * stocktakes read it; the stock itself is the sum of deltas whatever their moments.
 */
export function adjustmentMoment(at: Date | undefined, now: Date): Date | null {
  if (at === undefined) return null;
  if (Number.isNaN(at.getTime())) throw new ValidationError('occurredAt must be a date-time');
  if (at.getTime() < now.getTime() - ADJUST_MAX_AGE_MS)
    throw new UnprocessableError('occurredAt is more than 7 days ago');
  return at.getTime() < now.getTime() ? at : null;
}

/**
 * A stock adjustment recorded at `now` (the app's clock). One made earlier and sent later (its
 * `occurredAt`, by the device's clock) keeps that moment if it checks out (adjustmentMoment).
 */
export function recordAdjustment(command: AdjustStock, current: ItemState | null, now: Date): InventoryEvent[] {
  return adjustStock({ ...command, occurredAt: adjustmentMoment(command.occurredAt ?? undefined, now) }, current);
}

export function adjustStock(command: AdjustStock, current: ItemState | null): InventoryEvent[] {
  const state = live(current);
  if (!Number.isInteger(command.delta) || command.delta === 0)
    throw new ValidationError('delta must be a non-zero whole number');
  const quantity = state.quantity + command.delta;
  if (quantity < 0) throw new ConflictError('Insufficient stock', { quantity: state.quantity });
  const occurredAt = command.occurredAt ? { occurredAt: command.occurredAt.toISOString() } : {};
  return withCrossing(state, [
    {
      type: 'StockAdjusted',
      data: { delta: command.delta, reason: command.reason, note: command.note ?? null, quantity, ...occurredAt },
    },
  ]);
}

/**
 * An edit: changed fields become one ItemUpdated with their previous values; a changed
 * quantity is a stock count (StockAdjusted, reason `count`), so stock history stays whole.
 */
export function updateItem(command: UpdateItem, current: ItemState | null): InventoryEvent[] {
  const state = live(current);
  const changes: Changes<Omit<ItemFields, 'quantity'>> = {};
  for (const [key, raw] of Object.entries(command.changes) as [keyof ItemFields, ItemFields[keyof ItemFields]][]) {
    if (raw === undefined || key === 'quantity') continue;
    const value = checkField(key, raw);
    if (value !== state[key]) (changes as any)[key] = { from: state[key], to: value };
  }
  const events: InventoryEvent[] = [];
  if (Object.keys(changes).length > 0) events.push({ type: 'ItemUpdated', data: { changes } });
  if (command.changes.quantity !== undefined) {
    const counted = checkField('quantity', command.changes.quantity);
    if (counted !== state.quantity) {
      events.push({
        type: 'StockAdjusted',
        data: { delta: counted - state.quantity, reason: 'count', note: null, quantity: counted },
      });
    }
  }
  return withCrossing(state, events);
}

export function deleteItem(current: ItemState | null): InventoryEvent[] {
  const state = live(current);
  return [{ type: 'ItemDeleted', data: { name: state.name, sku: state.sku } }];
}
