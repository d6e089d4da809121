// Undoing a transfer's step: pure functions from (the transfer, the step's own events, the
// items and places it names) to the events that take it back, on the transfer's stream and on
// each item's, each citing the event it undoes (the service puts `reverts` in their metadata,
// and the reverts table refuses a second undo of the same event).
//
// On the items' streams an undo is the opposite step, with the item event types that exist:
// a shipment is undone by a StockReceived at the location each line left, a receipt by a
// StockShipped from the location it went to, a write-off by a TransitWrittenOff of minus its
// units (a loss taken back, as an adjustment is reverted by the opposite adjustment). So every
// projection of items (stock levels, on hand and in transit, dashboards, history versions, the
// live screens) already handles an undo, with its set-based forms and its handlers agreeing;
// new item event types would have to be taught to each of them. On hand plus in transit stays
// as it was for a shipment's or a receipt's undo; a write-off's undo adds back what it lost.
import type { InventoryEvent } from '../../shared/inventory-events.js';
import {
  transferUnits,
  type FoldedTransferLine,
  type TransferEvent,
  type TransferLineUnits,
} from '../../shared/transfers.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../errors.js';
import { withCrossing } from '../inventory/decide.js';
import type { ItemState } from '../inventory/item-state.js';
import { requireOpen, type StockPlace } from '../inventory/stock-places.js';
import type { TransferFacts, TransferState } from './decide.js';

/** One event of the step being undone, as stored. */
export interface StepEvent {
  eventId: string;
  type: string;
  data: unknown;
}

/** A step as it was written: one command's events on the transfer's stream, and its event on each item's. */
export interface StepToUndo {
  /** A shipment's or a receipt's one event, or a write-off's one per line. */
  transfer: StepEvent[];
  /** The step's event on each item's stream, by item id in lower case. */
  items: Map<string, StepEvent>;
}

/** The undo's events: on the transfer's stream, each command citing the step's event it undoes; likewise per item. */
export interface UndoDecision {
  transfer: Array<{ reverts: string; events: TransferEvent[] }>;
  items: Map<string, { reverts: string; events: InventoryEvent[] }>;
}

/** Which step an event of the transfer's stream is, as people say it. */
export type UndoableStep = 'shipment' | 'receipt' | 'write-off';

export function stepOf(type: string): UndoableStep | null {
  switch (type) {
    case 'TransferShipped':
      return 'shipment';
    case 'TransferReceived':
      return 'receipt';
    case 'TransferLineWrittenOff':
      return 'write-off';
    default:
      return null;
  }
}

const key = (id: string) => id.toLowerCase();
const nameOf = (transfer: TransferState) => `transfer #${transfer.number}`;
const units = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`;
/** Units of a line not received or written off, whatever the status (a received transfer has none). */
const onTheWay = (line: FoldedTransferLine) => line.quantity - line.received - line.writtenOff;

/** The refusal of an undo: 409, saying why, nothing changed. */
const cannot = (why: string, details?: Record<string, unknown>) => new ConflictError(`Cannot undo: ${why}`, details);

function lineOf(transfer: TransferState, itemId: string): FoldedTransferLine {
  const line = transfer.lines.find((l) => key(l.itemId) === key(itemId));
  if (!line) throw new UnprocessableError(`Item ${itemId} is not on ${nameOf(transfer)}`);
  return line;
}

/** The item, there and not deleted. */
function liveItem(facts: TransferFacts, itemId: string): ItemState {
  const item = facts.items.get(key(itemId));
  if (!item || item.deleted) throw cannot('an item of the transfer was deleted since. Restore it first.', { itemId });
  return item;
}

/** The step's event on the item's stream (written with it, in the same transaction). */
function itemEventOf(step: StepToUndo, itemId: string): StepEvent {
  const event = step.items.get(key(itemId));
  if (!event) throw new UnprocessableError(`The step's change to item ${itemId} was not found`);
  return event;
}

function placeOf(facts: TransferFacts, id: string): StockPlace {
  const place = facts.locations.get(key(id));
  if (!place) throw new UnprocessableError('Location not found');
  return place;
}

/**
 * Every line's units back to the location they left, from transit; the transfer a draft again
 * (to ship again or cancel). Only while nothing of it was received or written off.
 */
function undoShipment(transfer: TransferState, step: StepToUndo, facts: TransferFacts): UndoDecision {
  if (transfer.status === 'draft' || transfer.status === 'cancelled')
    throw cannot(`${nameOf(transfer)} has nothing in transit`);
  const settled = transfer.lines.reduce((sum, l) => sum + l.received + l.writtenOff, 0);
  if (settled > 0)
    throw cannot(
      `${units(settled)} of ${nameOf(transfer)} ${settled === 1 ? 'was' : 'were'} received or written off since: undo those first`,
      { settled },
    );
  const from = facts.sites.get(key(transfer.fromSiteId));
  if (!from) throw new UnprocessableError('Site not found');
  if (from.archived) throw cannot(`${from.name} is archived: restore it to put the units back`);
  const items = new Map<string, { reverts: string; events: InventoryEvent[] }>();
  for (const line of transfer.lines) {
    const original = itemEventOf(step, line.itemId);
    const d = original.data as { fromLocationId: string; quantity: number };
    const item = liveItem(facts, line.itemId);
    const place = placeOf(facts, d.fromLocationId);
    try {
      requireOpen(place);
    } catch (error) {
      throw cannot(error instanceof Error ? error.message : String(error), { locationId: place.id });
    }
    const event: InventoryEvent = {
      type: 'StockReceived',
      data: {
        itemId: item.id,
        transferId: transfer.id,
        toLocationId: place.id,
        quantity: d.quantity,
        quantityAfter: item.quantity + d.quantity,
        inTransitAfter: item.inTransit - d.quantity,
      },
    };
    items.set(key(item.id), { reverts: original.eventId, events: withCrossing(item, [event], place) });
  }
  return {
    transfer: [
      {
        reverts: step.transfer[0]!.eventId,
        events: [{ type: 'TransferShipmentUndone', data: { units: transferUnits(transfer.lines) } }],
      },
    ],
    items,
  };
}

/**
 * A receipt's units back into transit from the location they went to: refused while that
 * location no longer holds them (they were moved, sold or shipped on since).
 */
function undoReceipt(transfer: TransferState, step: StepToUndo, facts: TransferFacts): UndoDecision {
  const original = step.transfer[0]!;
  const d = original.data as { toLocationId: string; lines: TransferLineUnits[] };
  const place = placeOf(facts, d.toLocationId);
  const items = new Map<string, { reverts: string; events: InventoryEvent[] }>();
  for (const received of d.lines) {
    const line = lineOf(transfer, received.itemId);
    if (line.received < received.quantity)
      throw cannot(`only ${units(line.received)} of this line of ${nameOf(transfer)} are received now`);
    const item = liveItem(facts, line.itemId);
    const there = item.levels[key(place.id)] ?? 0;
    if (there < received.quantity)
      throw cannot(`${item.name} has ${there} at ${place.name} now; ${received.quantity} to take back into transit`, {
        itemId: item.id,
        locationId: place.id,
        available: there,
      });
    const event: InventoryEvent = {
      type: 'StockShipped',
      data: {
        itemId: item.id,
        transferId: transfer.id,
        fromLocationId: place.id,
        quantity: received.quantity,
        quantityAfter: item.quantity - received.quantity,
        inTransitAfter: item.inTransit + received.quantity,
      },
    };
    items.set(key(item.id), {
      reverts: itemEventOf(step, item.id).eventId,
      events: withCrossing(item, [event], place),
    });
  }
  const back = transferUnits(d.lines);
  const remaining = transfer.lines.reduce((sum, l) => sum + onTheWay(l), 0) + back;
  return {
    transfer: [
      {
        reverts: original.eventId,
        events: [{ type: 'TransferReceiptUndone', data: { toLocationId: place.id, lines: d.lines, remaining } }],
      },
    ],
    items,
  };
}

/** Each written-off line's units in transit again (the loss taken back). */
function undoWriteOff(transfer: TransferState, step: StepToUndo, facts: TransferFacts): UndoDecision {
  let remaining = transfer.lines.reduce((sum, l) => sum + onTheWay(l), 0);
  const commands: UndoDecision['transfer'] = [];
  const items = new Map<string, { reverts: string; events: InventoryEvent[] }>();
  for (const original of step.transfer) {
    const d = original.data as { itemId: string; quantity: number };
    const line = lineOf(transfer, d.itemId);
    if (line.writtenOff < d.quantity)
      throw cannot(`only ${units(line.writtenOff)} of this line of ${nameOf(transfer)} are written off now`);
    const item = liveItem(facts, line.itemId);
    const itemOriginal = itemEventOf(step, item.id);
    const reason = (itemOriginal.data as { reason?: string }).reason ?? '';
    remaining += d.quantity;
    commands.push({
      reverts: original.eventId,
      events: [{ type: 'TransferWriteOffUndone', data: { itemId: line.itemId, quantity: d.quantity, remaining } }],
    });
    const event: InventoryEvent = {
      type: 'TransitWrittenOff',
      data: {
        itemId: item.id,
        transferId: transfer.id,
        quantity: -d.quantity,
        reason,
        inTransitAfter: item.inTransit + d.quantity,
      },
    };
    items.set(key(item.id), { reverts: itemOriginal.eventId, events: withCrossing(item, [event]) });
  }
  return { transfer: commands, items };
}

/** The events that undo `step` on the transfer as it is now; a typed refusal (409, 422) otherwise. */
export function undoTransferStep(current: TransferState | null, step: StepToUndo, facts: TransferFacts): UndoDecision {
  if (!current) throw new NotFoundError('Transfer not found');
  const first = step.transfer[0];
  const kind = first ? stepOf(first.type) : null;
  if (!kind || step.transfer.some((e) => e.type !== first!.type))
    throw new UnprocessableError('Only a shipment, a receipt or a write-off of a transfer can be undone');
  switch (kind) {
    case 'shipment':
      return undoShipment(current, step, facts);
    case 'receipt':
      return undoReceipt(current, step, facts);
    case 'write-off':
      return undoWriteOff(current, step, facts);
  }
}
