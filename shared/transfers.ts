// Transfers of stock between two sites: the events of a transfer's stream (`transfer-{id}`),
// past-tense facts with data only, and what each does to the transfer, said once. The
// server's decisions (server/transfers/decide.ts) and the client's live screens fold events
// with these; the SQL projection keeps its own form (server/transfers/projection.ts),
// checked against replays by projections:verify.
//
// A transfer is drafted with its lines (an item, the location of the source site it leaves
// from, how many), then shipped: each line's units leave that location and are in transit
// (StockShipped on the item's stream, in the same transaction). Units in transit are
// received at a location of the destination site, all at once or in several receipts, or
// written off with a reason when they will never arrive. Once nothing is in transit the
// transfer is received. Only a draft can be cancelled: shipped stock comes back by being
// received or written off.
//
// Each step can be undone (server/transfers/undo-decide.ts), once: a shipment while nothing
// of it was received or written off (the transfer is a draft again), a receipt (its units go
// back into transit), a write-off (its units are in transit again). The undo's events cite
// the step's (`reverts` in their metadata), on the transfer's stream and on each item's.

/** One line of a transfer as drafted: an item appears on one line only. */
export interface TransferLine {
  itemId: string;
  /** A location of the source site, where the units are taken from when the transfer ships. */
  fromLocationId: string;
  quantity: number;
}

/** Units of one line, received or written off at once. */
export interface TransferLineUnits {
  itemId: string;
  quantity: number;
}

export type TransferEvent =
  | {
      type: 'TransferCreated';
      /** number: the store's running number for transfers (#1, #2…), what people call it by. */
      data: {
        transferId: string;
        number: number;
        fromSiteId: string;
        toSiteId: string;
        note: string | null;
        lines: TransferLine[];
      };
    }
  /** Every line's units left their location: `units` of them are now in transit. */
  | { type: 'TransferShipped'; data: { units: number } }
  /** Units of some lines arrived at one location of the destination site; `remaining` are still in transit. */
  | { type: 'TransferReceived'; data: { toLocationId: string; lines: TransferLineUnits[]; remaining: number } }
  /** Units of a line that will never arrive, with why; `remaining` are still in transit. */
  | { type: 'TransferLineWrittenOff'; data: { itemId: string; quantity: number; reason: string; remaining: number } }
  /** A draft given up before anything was shipped. */
  | { type: 'TransferCancelled'; data: { reason: string | null } }
  /** The shipment undone: its `units` went back to the locations they left; a draft again. */
  | { type: 'TransferShipmentUndone'; data: { units: number } }
  /** A receipt undone: its units left `toLocationId` back into transit; `remaining` are in transit after. */
  | { type: 'TransferReceiptUndone'; data: { toLocationId: string; lines: TransferLineUnits[]; remaining: number } }
  /** A line's write-off undone: its units are in transit again; `remaining` are in transit after. */
  | { type: 'TransferWriteOffUndone'; data: { itemId: string; quantity: number; remaining: number } };

export const TRANSFER_EVENT_TYPES: readonly TransferEvent['type'][] = [
  'TransferCreated',
  'TransferShipped',
  'TransferReceived',
  'TransferLineWrittenOff',
  'TransferCancelled',
  'TransferShipmentUndone',
  'TransferReceiptUndone',
  'TransferWriteOffUndone',
];

/** The steps that can be undone, and the events of their undoing. */
export const UNDOABLE_TRANSFER_STEPS: readonly TransferEvent['type'][] = [
  'TransferShipped',
  'TransferReceived',
  'TransferLineWrittenOff',
];
export const TRANSFER_UNDO_TYPES: readonly TransferEvent['type'][] = [
  'TransferShipmentUndone',
  'TransferReceiptUndone',
  'TransferWriteOffUndone',
];

export const transferStream = (id: string) => ({ id: `transfer-${id}`, type: 'transfer' });

/**
 * draft: made, nothing left yet; shipped: every unit in transit; partly-received: some
 * received or written off, some still in transit; received: nothing in transit any more
 * (whatever was not received was written off); cancelled: given up as a draft.
 */
export type TransferStatus = 'draft' | 'shipped' | 'partly-received' | 'received' | 'cancelled';

export const TRANSFER_STATUSES: readonly TransferStatus[] = [
  'draft',
  'shipped',
  'partly-received',
  'received',
  'cancelled',
];

/** How a status reads on a screen. */
export const TRANSFER_STATUS_LABELS: Record<TransferStatus, string> = {
  draft: 'Draft',
  shipped: 'In transit',
  'partly-received': 'Partly received',
  received: 'Received',
  cancelled: 'Cancelled',
};

/** Most lines one transfer may have (a pallet's worth of items; the benchmark ships this many). */
export const MAX_TRANSFER_LINES = 1000;

export interface FoldedTransferLine extends TransferLine {
  received: number;
  writtenOff: number;
}

/** A transfer as its events leave it (`At`: Date on the server, ISO text on a screen). */
export interface FoldedTransfer<At = Date> {
  id: string;
  number: number;
  fromSiteId: string;
  toSiteId: string;
  note: string | null;
  status: TransferStatus;
  lines: FoldedTransferLine[];
  version: number;
  createdAt: At | null;
  updatedAt: At | null;
  shippedAt: At | null;
  /** When nothing was left in transit, or when it was cancelled. */
  closedAt: At | null;
}

export interface TransferFoldMeta<At> {
  version: number;
  at: At | null;
}

/** Whether the transfer's units left their locations and not all have arrived or been written off. */
export const isUnderway = (status: TransferStatus) => status === 'shipped' || status === 'partly-received';

/** A line's units still in transit: none before shipping or after cancelling. */
export function lineInTransit(line: FoldedTransferLine, status: TransferStatus): number {
  return isUnderway(status) ? line.quantity - line.received - line.writtenOff : 0;
}

/** The whole transfer's units in transit. */
export function transferInTransit(transfer: Pick<FoldedTransfer<unknown>, 'lines' | 'status'>): number {
  return transfer.lines.reduce((sum, line) => sum + lineInTransit(line, transfer.status), 0);
}

export const transferUnits = (lines: readonly { quantity: number }[]) => lines.reduce((sum, l) => sum + l.quantity, 0);

/** After a receipt or a write-off: received once nothing is in transit, else partly received. */
function settled<At>(transfer: FoldedTransfer<At>, at: At | null): Pick<FoldedTransfer<At>, 'status' | 'closedAt'> {
  const left = transfer.lines.some((l) => l.quantity - l.received - l.writtenOff > 0);
  return left ? { status: 'partly-received', closedAt: null } : { status: 'received', closedAt: at };
}

/**
 * After a receipt or a write-off is undone: units are in transit again, so the transfer is
 * open; partly received while any unit was received or written off, else just shipped.
 */
function reopened<At>(transfer: FoldedTransfer<At>): Pick<FoldedTransfer<At>, 'status' | 'closedAt'> {
  const settledAny = transfer.lines.some((l) => l.received + l.writtenOff > 0);
  return { status: settledAny ? 'partly-received' : 'shipped', closedAt: null };
}

/** Each line of `units` added to the matching line's `field`. */
function addToLines(
  lines: readonly FoldedTransferLine[],
  units: readonly TransferLineUnits[],
  field: 'received' | 'writtenOff',
  sign: 1 | -1 = 1,
): FoldedTransferLine[] {
  const byItem = new Map(units.map((u) => [u.itemId.toLowerCase(), u.quantity]));
  return lines.map((line) => {
    const added = byItem.get(line.itemId.toLowerCase());
    return added === undefined ? line : { ...line, [field]: line[field] + sign * added };
  });
}

/** The transfer after one more event of its stream. */
export function evolveTransfer<At>(
  state: FoldedTransfer<At> | null,
  event: TransferEvent,
  meta: TransferFoldMeta<At>,
): FoldedTransfer<At> | null {
  const touched = { version: meta.version, updatedAt: meta.at };
  switch (event.type) {
    case 'TransferCreated': {
      const d = event.data;
      return {
        id: d.transferId,
        number: d.number,
        fromSiteId: d.fromSiteId,
        toSiteId: d.toSiteId,
        note: d.note,
        status: 'draft',
        lines: d.lines.map((l) => ({ ...l, received: 0, writtenOff: 0 })),
        createdAt: meta.at,
        shippedAt: null,
        closedAt: null,
        ...touched,
      };
    }
    case 'TransferShipped':
      return state && { ...state, status: 'shipped', shippedAt: meta.at, ...touched };
    case 'TransferReceived': {
      if (!state) return null;
      const next = { ...state, lines: addToLines(state.lines, event.data.lines, 'received'), ...touched };
      return { ...next, ...settled(next, meta.at) };
    }
    case 'TransferLineWrittenOff': {
      if (!state) return null;
      const next = { ...state, lines: addToLines(state.lines, [event.data], 'writtenOff'), ...touched };
      return { ...next, ...settled(next, meta.at) };
    }
    case 'TransferCancelled':
      return state && { ...state, status: 'cancelled', closedAt: meta.at, ...touched };
    case 'TransferShipmentUndone':
      return state && { ...state, status: 'draft', shippedAt: null, closedAt: null, ...touched };
    case 'TransferReceiptUndone': {
      if (!state) return null;
      const next = { ...state, lines: addToLines(state.lines, event.data.lines, 'received', -1), ...touched };
      return { ...next, ...reopened(next) };
    }
    case 'TransferWriteOffUndone': {
      if (!state) return null;
      const next = { ...state, lines: addToLines(state.lines, [event.data], 'writtenOff', -1), ...touched };
      return { ...next, ...reopened(next) };
    }
  }
}

/** The sites and locations a transfer event names by id (what its sentence names). */
export function transferPlacesNamedBy(type: string, data: unknown): string[] {
  const d = (data ?? {}) as Record<string, unknown>;
  const ids =
    type === 'TransferCreated'
      ? [d.fromSiteId, d.toSiteId]
      : type === 'TransferReceived' || type === 'TransferReceiptUndone'
        ? [d.toLocationId]
        : [];
  return ids.filter((id): id is string => typeof id === 'string');
}

/** The items a transfer event names by id in its sentence: a written-off line's (and its undoing's). */
export function transferItemsNamedBy(type: string, data: unknown): string[] {
  const d = (data ?? {}) as Record<string, unknown>;
  return (type === 'TransferLineWrittenOff' || type === 'TransferWriteOffUndone') && typeof d.itemId === 'string'
    ? [d.itemId]
    : [];
}

// The API's shapes.

/** A line as the API shows it: the item and the location named as they are now. */
export interface TransferLineView extends FoldedTransferLine {
  itemName: string;
  sku: string;
  fromLocationName: string;
  inTransit: number;
}

/** A transfer in a list: no lines, their counts. */
export interface TransferSummary {
  id: string;
  number: number;
  fromSiteId: string;
  fromSiteName: string;
  toSiteId: string;
  toSiteName: string;
  note: string | null;
  status: TransferStatus;
  lineCount: number;
  units: number;
  received: number;
  writtenOff: number;
  inTransit: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  shippedAt: string | null;
  closedAt: string | null;
  version: number;
}

/** GET /api/transfers/{id}: the summary with its lines, in the order they were drafted. */
export interface Transfer extends TransferSummary {
  lines: TransferLineView[];
}

/** Body of POST /api/transfers. */
export interface CreateTransferBody {
  fromSiteId: string;
  toSiteId: string;
  note?: string;
  lines: TransferLine[];
}

/** Body of POST /api/transfers/{id}/receive: units of some lines, all put at one location of the destination site. */
export interface ReceiveTransferBody {
  toLocationId: string;
  lines: TransferLineUnits[];
}

/** Body of POST /api/transfers/{id}/write-off: units of some lines (a line without quantity: all it has in transit). */
export interface WriteOffTransferBody {
  reason: string;
  lines: Array<{ itemId: string; quantity?: number }>;
}
