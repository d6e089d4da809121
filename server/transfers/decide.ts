// Transfer decisions: pure functions from (command, the transfer, the items and places it
// names) to events, for the transfer's stream and for each item's stream, appended in one
// transaction (transfer-service.ts). They throw typed domain errors; the service loads the
// state with the rows locked and passes it in, nothing here reads the database or the clock.
import type { InventoryEvent } from '../../shared/inventory-events.js';
import {
  isUnderway,
  lineInTransit,
  transferInTransit,
  transferUnits,
  type FoldedTransfer,
  type FoldedTransferLine,
  type TransferEvent,
  type TransferLine,
  type TransferLineUnits,
} from '../../shared/transfers.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { withCrossing } from '../inventory/decide.js';
import type { ItemState } from '../inventory/item-state.js';
import { requireOpen, type StockPlace } from '../inventory/stock-places.js';

export type TransferState = FoldedTransfer<Date>;

/** A site as a transfer decision sees it. */
export interface TransferSite {
  id: string;
  name: string;
  archived: boolean;
}

/** What a decision reads besides the transfer: its sites, the locations and items it names. */
export interface TransferFacts {
  sites: Map<string, TransferSite>;
  locations: Map<string, StockPlace>;
  /** The items named, locked (null or absent: no such item, or deleted). */
  items: Map<string, ItemState | null>;
}

/** A decision's events: the transfer's own, and each item's (in the order of the transfer's lines). */
export interface TransferDecision {
  transfer: TransferEvent[];
  items: Map<string, InventoryEvent[]>;
}

export interface CreateTransfer {
  transferId: string;
  number: number;
  fromSiteId: string;
  toSiteId: string;
  note?: string | null;
  lines: TransferLine[];
}

export interface ReceiveTransfer {
  toLocationId: string;
  lines: TransferLineUnits[];
}

export interface WriteOffTransfer {
  reason: string;
  lines: Array<{ itemId: string; quantity?: number }>;
}

const key = (id: string) => id.toLowerCase();
const units = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`;
const nameOf = (transfer: TransferState) => `Transfer #${transfer.number}`;

function siteNamed(facts: TransferFacts, id: string, field: string): TransferSite {
  const site = facts.sites.get(key(id));
  if (!site) throw new UnprocessableError('Site not found', field);
  return site;
}

function openSite(site: TransferSite): TransferSite {
  if (site.archived) throw new ConflictError(`${site.name} is archived: restore it to send or receive stock there`);
  return site;
}

/** A location of `site`, not archived; 422 naming `field` for an unknown one or one of another site. */
function locationAt(facts: TransferFacts, id: string, site: TransferSite, field: string): StockPlace {
  const place = facts.locations.get(key(id));
  if (!place) throw new UnprocessableError('Location not found', field);
  if (key(place.siteId) !== key(site.id)) throw new UnprocessableError(`${place.name} is not at ${site.name}`, field);
  return requireOpen(place);
}

/** The item of a line, there and not deleted. */
function itemOf(facts: TransferFacts, itemId: string, field: string): ItemState {
  const item = facts.items.get(key(itemId));
  if (!item || item.deleted) throw new UnprocessableError(`Item not found: ${itemId}`, field);
  return item;
}

function requireFound(transfer: TransferState | null): TransferState {
  if (!transfer) throw new NotFoundError('Transfer not found');
  return transfer;
}

/** Refuses a transfer whose units are not (or no longer) in transit. */
function requireUnderway(transfer: TransferState): void {
  if (isUnderway(transfer.status)) return;
  if (transfer.status === 'draft') throw new ConflictError(`${nameOf(transfer)} has not been shipped yet`);
  if (transfer.status === 'cancelled') throw new ConflictError(`${nameOf(transfer)} was cancelled`);
  throw new ConflictError(`${nameOf(transfer)} has nothing left in transit`);
}

/** Each item once: an item is on one line of a transfer, and named once per receipt or write-off. */
function requireDistinct(itemIds: string[], facts: TransferFacts | null, field: string): void {
  const seen = new Set<string>();
  for (const id of itemIds) {
    if (seen.has(key(id))) {
      const name = facts?.items.get(key(id))?.name ?? id;
      throw new ValidationError(`${name} is on more than one line: put all its units on one`, field);
    }
    seen.add(key(id));
  }
}

function lineOf(transfer: TransferState, itemId: string, field: string): FoldedTransferLine {
  const line = transfer.lines.find((l) => key(l.itemId) === key(itemId));
  if (!line) throw new UnprocessableError(`Item ${itemId} is not on ${nameOf(transfer)}`, field);
  return line;
}

function checkQuantity(quantity: number, field: string): number {
  if (!Number.isInteger(quantity) || quantity <= 0)
    throw new ValidationError('quantity must be a positive whole number', field);
  return quantity;
}

function noteOf(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export function createTransfer(command: CreateTransfer, facts: TransferFacts): TransferEvent[] {
  const from = openSite(siteNamed(facts, command.fromSiteId, 'fromSiteId'));
  const to = openSite(siteNamed(facts, command.toSiteId, 'toSiteId'));
  if (key(from.id) === key(to.id))
    throw new ValidationError('A transfer goes between two sites: within a site, move the stock instead', 'toSiteId');
  if (command.lines.length === 0) throw new ValidationError('A transfer needs at least one line', 'lines');
  requireDistinct(
    command.lines.map((l) => l.itemId),
    facts,
    'lines',
  );
  const lines = command.lines.map((line, i): TransferLine => {
    const item = itemOf(facts, line.itemId, `lines[${i}].itemId`);
    const place = locationAt(facts, line.fromLocationId, from, `lines[${i}].fromLocationId`);
    return {
      itemId: item.id,
      fromLocationId: place.id,
      quantity: checkQuantity(line.quantity, `lines[${i}].quantity`),
    };
  });
  return [
    {
      type: 'TransferCreated',
      data: {
        transferId: command.transferId,
        number: command.number,
        fromSiteId: from.id,
        toSiteId: to.id,
        note: noteOf(command.note),
        lines,
      },
    },
  ];
}

/** Each line's units leave their location for transit: refused as a whole if any line cannot. */
export function shipTransfer(current: TransferState | null, facts: TransferFacts): TransferDecision {
  const transfer = requireFound(current);
  if (transfer.status !== 'draft')
    throw new ConflictError(
      transfer.status === 'cancelled' ? `${nameOf(transfer)} was cancelled` : `${nameOf(transfer)} was already shipped`,
    );
  const from = openSite(siteNamed(facts, transfer.fromSiteId, 'fromSiteId'));
  openSite(siteNamed(facts, transfer.toSiteId, 'toSiteId'));
  const items = new Map<string, InventoryEvent[]>();
  for (const line of transfer.lines) {
    const item = facts.items.get(key(line.itemId));
    if (!item || item.deleted)
      throw new ConflictError(`An item of ${nameOf(transfer)} was deleted: cancel it and draft another`, {
        itemId: line.itemId,
      });
    const place = locationAt(facts, line.fromLocationId, from, 'fromLocationId');
    const there = item.levels[key(place.id)] ?? 0;
    if (there < line.quantity)
      throw new ConflictError(
        `Insufficient stock of ${item.name} at ${place.name}: ${there} there, ${line.quantity} to ship`,
        { itemId: item.id, locationId: place.id, available: there },
      );
    items.set(
      key(item.id),
      withCrossing(
        item,
        [
          {
            type: 'StockShipped',
            data: {
              itemId: item.id,
              transferId: transfer.id,
              fromLocationId: place.id,
              quantity: line.quantity,
              quantityAfter: item.quantity - line.quantity,
              inTransitAfter: item.inTransit + line.quantity,
            },
          },
        ],
        place,
      ),
    );
  }
  return { transfer: [{ type: 'TransferShipped', data: { units: transferUnits(transfer.lines) } }], items };
}

/** Units of some lines arrive at one location of the destination site. */
export function receiveTransfer(
  current: TransferState | null,
  command: ReceiveTransfer,
  facts: TransferFacts,
): TransferDecision {
  const transfer = requireFound(current);
  requireUnderway(transfer);
  openSite(siteNamed(facts, transfer.fromSiteId, 'fromSiteId'));
  const to = openSite(siteNamed(facts, transfer.toSiteId, 'toSiteId'));
  const place = locationAt(facts, command.toLocationId, to, 'toLocationId');
  if (command.lines.length === 0) throw new ValidationError('Name at least one line to receive', 'lines');
  requireDistinct(
    command.lines.map((l) => l.itemId),
    facts,
    'lines',
  );
  let remaining = transferInTransit(transfer);
  const items = new Map<string, InventoryEvent[]>();
  const received: TransferLineUnits[] = [];
  command.lines.forEach((asked, i) => {
    const line = lineOf(transfer, asked.itemId, `lines[${i}].itemId`);
    const quantity = checkQuantity(asked.quantity, `lines[${i}].quantity`);
    const item = itemOf(facts, line.itemId, `lines[${i}].itemId`);
    const inTransit = lineInTransit(line, transfer.status);
    if (quantity > inTransit)
      throw new ConflictError(
        `Only ${units(inTransit)} of ${item.name} ${inTransit === 1 ? 'is' : 'are'} in transit on ${nameOf(transfer)}`,
        { itemId: item.id, inTransit },
      );
    remaining -= quantity;
    received.push({ itemId: line.itemId, quantity });
    items.set(
      key(item.id),
      withCrossing(
        item,
        [
          {
            type: 'StockReceived',
            data: {
              itemId: item.id,
              transferId: transfer.id,
              toLocationId: place.id,
              quantity,
              quantityAfter: item.quantity + quantity,
              inTransitAfter: item.inTransit - quantity,
            },
          },
        ],
        place,
      ),
    );
  });
  return {
    transfer: [{ type: 'TransferReceived', data: { toLocationId: place.id, lines: received, remaining } }],
    items,
  };
}

/** Units in transit that will never arrive: each line's, written off with the reason. */
export function writeOffTransfer(
  current: TransferState | null,
  command: WriteOffTransfer,
  facts: TransferFacts,
): TransferDecision {
  const transfer = requireFound(current);
  requireUnderway(transfer);
  const reason = command.reason.trim();
  if (!reason) throw new ValidationError('Say why the units are written off', 'reason');
  if (command.lines.length === 0) throw new ValidationError('Name at least one line to write off', 'lines');
  requireDistinct(
    command.lines.map((l) => l.itemId),
    facts,
    'lines',
  );
  let remaining = transferInTransit(transfer);
  const events: TransferEvent[] = [];
  const items = new Map<string, InventoryEvent[]>();
  command.lines.forEach((asked, i) => {
    const line = lineOf(transfer, asked.itemId, `lines[${i}].itemId`);
    const item = itemOf(facts, line.itemId, `lines[${i}].itemId`);
    const inTransit = lineInTransit(line, transfer.status);
    if (inTransit === 0)
      throw new ConflictError(`Nothing of ${item.name} is in transit on ${nameOf(transfer)}`, {
        itemId: item.id,
        inTransit,
      });
    const quantity = asked.quantity === undefined ? inTransit : checkQuantity(asked.quantity, `lines[${i}].quantity`);
    if (quantity > inTransit)
      throw new ConflictError(
        `Only ${units(inTransit)} of ${item.name} ${inTransit === 1 ? 'is' : 'are'} in transit on ${nameOf(transfer)}`,
        { itemId: item.id, inTransit },
      );
    remaining -= quantity;
    events.push({ type: 'TransferLineWrittenOff', data: { itemId: line.itemId, quantity, reason, remaining } });
    items.set(
      key(item.id),
      withCrossing(item, [
        {
          type: 'TransitWrittenOff',
          data: {
            itemId: item.id,
            transferId: transfer.id,
            quantity,
            reason,
            inTransitAfter: item.inTransit - quantity,
          },
        },
      ]),
    );
  });
  return { transfer: events, items };
}

/** A draft given up: nothing left its location, so nothing comes back. */
export function cancelTransfer(current: TransferState | null, reason?: string | null): TransferEvent[] {
  const transfer = requireFound(current);
  if (transfer.status === 'cancelled') throw new ConflictError(`${nameOf(transfer)} was already cancelled`);
  if (transfer.status !== 'draft')
    throw new ConflictError(
      `${nameOf(transfer)} was shipped: receive its units or write them off instead of cancelling`,
    );
  return [{ type: 'TransferCancelled', data: { reason: noteOf(reason) } }];
}
