// Undoing a transfer's step, decided without a database: given a transfer, the step's own
// events and the items and places as they are now, when undone, then the transfer's events and
// each item's (the opposite step, citing the one it undoes), or a refusal saying why. Folding
// them back leaves the items and the transfer as they were before the step; the log's
// sentences say what was undone.
import { describe, expect, it } from 'vitest';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { evolveTransfer, transferInTransit, type TransferEvent } from '../../shared/transfers.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../server/errors.js';
import type { ItemState } from '../../server/inventory/item-state.js';
import {
  createTransfer,
  receiveTransfer,
  shipTransfer,
  writeOffTransfer,
  type TransferDecision,
  type TransferFacts,
  type TransferState,
} from '../../server/transfers/decide.js';
import { undoTransferStep, type StepToUndo, type UndoDecision } from '../../server/transfers/undo-decide.js';

const WH = 'site-wh';
const SHOP = 'site-shop';
const DOCK = 'loc-dock';
const BAY = 'loc-bay';
const BACK = 'loc-back';

const item = (id: string, levels: Record<string, number>, over: Partial<ItemState> = {}): ItemState => ({
  id,
  name: id === 'i1' ? 'Hose' : 'Tape',
  description: '',
  sku: id.toUpperCase(),
  categoryId: 'c1',
  quantity: Object.values(levels).reduce((a, b) => a + b, 0),
  price: 2,
  threshold: 0,
  imageUrl: null,
  expiryDate: null,
  barcode: null,
  version: 3,
  deleted: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  levels,
  inTransit: 0,
  ...over,
});

const facts = (items: ItemState[], over: { archived?: string[] } = {}): TransferFacts => ({
  sites: new Map(
    [
      { id: WH, name: 'Warehouse' },
      { id: SHOP, name: 'Shop 2' },
    ].map((s) => [s.id, { ...s, archived: over.archived?.includes(s.id) ?? false }]),
  ),
  locations: new Map(
    [
      { id: DOCK, name: 'Dock', siteId: WH },
      { id: BAY, name: 'Bay 7', siteId: WH },
      { id: BACK, name: 'Back room', siteId: SHOP },
    ].map((l) => [l.id, { ...l, archived: over.archived?.includes(l.id) ?? false }]),
  ),
  items: new Map(items.map((i) => [i.id, i])),
});

/** The transfer its events leave. */
function fold(events: TransferEvent[], from: TransferState | null = null): TransferState {
  let state = from;
  for (const event of events)
    state = evolveTransfer(state, event, { version: (state?.version ?? 0) + 1, at: new Date(1) });
  return state!;
}

/** Each item after its events (crossings included). */
function itemsAfter(items: ItemState[], decided: Map<string, InventoryEvent[]>): ItemState[] {
  return items.map((i) => {
    let state: ItemState = i;
    for (const event of decided.get(i.id) ?? [])
      state = evolveItem(state, event, { version: state.version + 1, at: null })!;
    return state;
  });
}

/** A step as the service finds it: its events on the transfer's stream and each item's, with ids. */
function asStep(decision: TransferDecision, name: string): StepToUndo {
  return {
    transfer: decision.transfer.map((e, i) => ({ eventId: `${name}-t${i}`, type: e.type, data: e.data })),
    items: new Map(
      [...decision.items.entries()].map(([id, events]) => [
        id,
        { eventId: `${name}-${id}`, type: events[0]!.type, data: events[0]!.data },
      ]),
    ),
  };
}

/** The refusal `decide` throws: a 409 with its message. */
function conflictOf(decide: () => unknown): string {
  try {
    decide();
  } catch (error) {
    expect(error).toBeInstanceOf(ConflictError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

const undoEvents = (undo: UndoDecision) => undo.transfer.flatMap((c) => c.events);
const itemEvents = (undo: UndoDecision) => new Map([...undo.items.entries()].map(([id, c]) => [id, c.events]));

/** Hose: 6 at the dock; tape: 2 at bay 7 and 1 at the dock, threshold 1. Drafted: 4 hoses, 2 tapes. */
function shippedWorld() {
  const hose = item('i1', { [DOCK]: 6 });
  const tape = item('i2', { [BAY]: 2, [DOCK]: 1 }, { threshold: 1 });
  const draft = fold(
    createTransfer(
      {
        transferId: 't1',
        number: 7,
        fromSiteId: WH,
        toSiteId: SHOP,
        lines: [
          { itemId: 'i1', fromLocationId: DOCK, quantity: 4 },
          { itemId: 'i2', fromLocationId: BAY, quantity: 2 },
        ],
      },
      facts([hose, tape]),
    ),
  );
  const shipping = shipTransfer(draft, facts([hose, tape]));
  return {
    before: [hose, tape],
    draft,
    shipping,
    items: itemsAfter([hose, tape], shipping.items),
    transfer: fold(shipping.transfer, draft),
  };
}

describe('undoing a transfer step', () => {
  it('undoes a shipment: every unit back at the location it left, crossings too; a draft again', () => {
    const { before, draft, shipping, items, transfer } = shippedWorld();
    const undo = undoTransferStep(transfer, asStep(shipping, 'ship'), facts(items));
    expect(undo.transfer).toEqual([
      { reverts: 'ship-t0', events: [{ type: 'TransferShipmentUndone', data: { units: 6 } }] },
    ]);
    expect(undo.items.get('i1')).toEqual({
      reverts: 'ship-i1',
      events: [
        {
          type: 'StockReceived',
          data: {
            itemId: 'i1',
            transferId: 't1',
            toLocationId: DOCK,
            quantity: 4,
            quantityAfter: 6,
            inTransitAfter: 0,
          },
        },
      ],
    });
    // The tape went low when shipped: back above its threshold.
    expect(undo.items.get('i2')!.events.map((e) => e.type)).toEqual(['StockReceived', 'ItemRecovered']);
    const after = itemsAfter(items, itemEvents(undo));
    expect(after.map((i) => [i.quantity, i.inTransit, i.levels])).toEqual(
      before.map((i) => [i.quantity, 0, expect.objectContaining(i.levels)]),
    );
    const again = fold(undoEvents(undo), transfer);
    expect(again).toMatchObject({ status: 'draft', shippedAt: null, closedAt: null, lines: draft.lines });
    // A draft again: it ships again.
    expect(shipTransfer(again, facts(after)).transfer).toEqual([{ type: 'TransferShipped', data: { units: 6 } }]);
  });

  it('refuses to undo a shipment once any of it was received or written off, or back to an archived place', () => {
    const { shipping, items, transfer } = shippedWorld();
    const receipt = receiveTransfer(
      transfer,
      { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 1 }] },
      facts(items),
    );
    const received = fold(receipt.transfer, transfer);
    expect(conflictOf(() => undoTransferStep(received, asStep(shipping, 'ship'), facts(items)))).toBe(
      'Cannot undo: 1 unit of transfer #7 was received or written off since: undo those first',
    );
    expect(() => undoTransferStep(transfer, asStep(shipping, 'ship'), facts(items, { archived: [BAY] }))).toThrow(
      'Cannot undo: Bay 7 is archived: restore it to keep stock there',
    );
    expect(() => undoTransferStep(transfer, asStep(shipping, 'ship'), facts(items, { archived: [WH] }))).toThrow(
      'Cannot undo: Warehouse is archived: restore it to put the units back',
    );
    expect(() => undoTransferStep(null, asStep(shipping, 'ship'), facts(items))).toThrow(NotFoundError);
  });

  it('undoes a receipt: its units back into transit, refused while the location no longer holds them', () => {
    const { items: shipped, transfer } = shippedWorld();
    const receipt = receiveTransfer(
      transfer,
      {
        toLocationId: BACK,
        lines: [
          { itemId: 'i1', quantity: 4 },
          { itemId: 'i2', quantity: 2 },
        ],
      },
      facts(shipped),
    );
    const items = itemsAfter(shipped, receipt.items);
    const received = fold(receipt.transfer, transfer);
    expect(received.status).toBe('received');

    // 3 of the 4 hoses at the back room were sold since.
    const sold = items.map((i) => (i.id === 'i1' ? { ...i, quantity: 3, levels: { ...i.levels, [BACK]: 1 } } : i));
    expect(conflictOf(() => undoTransferStep(received, asStep(receipt, 'recv'), facts(sold)))).toBe(
      'Cannot undo: Hose has 1 at Back room now; 4 to take back into transit',
    );

    const undo = undoTransferStep(received, asStep(receipt, 'recv'), facts(items));
    expect(undoEvents(undo)).toEqual([
      {
        type: 'TransferReceiptUndone',
        data: {
          toLocationId: BACK,
          lines: [
            { itemId: 'i1', quantity: 4 },
            { itemId: 'i2', quantity: 2 },
          ],
          remaining: 6,
        },
      },
    ]);
    expect(undo.items.get('i1')).toEqual({
      reverts: 'recv-i1',
      events: [
        {
          type: 'StockShipped',
          data: {
            itemId: 'i1',
            transferId: 't1',
            fromLocationId: BACK,
            quantity: 4,
            quantityAfter: 2,
            inTransitAfter: 4,
          },
        },
      ],
    });
    const after = itemsAfter(items, itemEvents(undo));
    expect(after.map((i) => [i.quantity, i.inTransit])).toEqual(shipped.map((i) => [i.quantity, i.inTransit]));
    const open = fold(undoEvents(undo), received);
    expect(open).toMatchObject({ status: 'shipped', closedAt: null });
    expect(transferInTransit(open)).toBe(6);
  });

  it('undoes a write-off of two lines: the units in transit again, partly received while a receipt stands', () => {
    const { items: shipped, transfer } = shippedWorld();
    const receipt = receiveTransfer(
      transfer,
      { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 1 }] },
      facts(shipped),
    );
    let items = itemsAfter(shipped, receipt.items);
    const partly = fold(receipt.transfer, transfer);
    const loss = writeOffTransfer(
      partly,
      { reason: 'van stolen', lines: [{ itemId: 'i1' }, { itemId: 'i2' }] },
      facts(items),
    );
    items = itemsAfter(items, loss.items);
    const closed = fold(loss.transfer, partly);
    expect(closed.status).toBe('received');

    const undo = undoTransferStep(closed, asStep(loss, 'loss'), facts(items));
    expect(undo.transfer).toEqual([
      {
        reverts: 'loss-t0',
        events: [{ type: 'TransferWriteOffUndone', data: { itemId: 'i1', quantity: 3, remaining: 3 } }],
      },
      {
        reverts: 'loss-t1',
        events: [{ type: 'TransferWriteOffUndone', data: { itemId: 'i2', quantity: 2, remaining: 5 } }],
      },
    ]);
    expect(undo.items.get('i2')).toEqual({
      reverts: 'loss-i2',
      events: [
        {
          type: 'TransitWrittenOff',
          data: { itemId: 'i2', transferId: 't1', quantity: -2, reason: 'van stolen', inTransitAfter: 2 },
        },
      ],
    });
    // On hand + in transit back to before the loss.
    const after = itemsAfter(items, itemEvents(undo));
    expect(after.map((i) => i.quantity + i.inTransit)).toEqual([6, 3]);
    const open = fold(undoEvents(undo), closed);
    expect(open).toMatchObject({ status: 'partly-received', closedAt: null });
    expect(open.lines.map((l) => [l.received, l.writtenOff])).toEqual([
      [1, 0],
      [0, 0],
    ]);
    // A deleted item's write-off is not taken back.
    const gone = items.map((i) => (i.id === 'i2' ? { ...i, deleted: true } : i));
    expect(() => undoTransferStep(closed, asStep(loss, 'loss'), facts(gone))).toThrow(
      'Cannot undo: an item of the transfer was deleted since. Restore it first.',
    );
  });

  it('refuses to undo what is not a shipment, receipt or write-off', () => {
    const { transfer, items } = shippedWorld();
    const created: StepToUndo = {
      transfer: [{ eventId: 'c', type: 'TransferCreated', data: {} }],
      items: new Map(),
    };
    expect(() => undoTransferStep(transfer, created, facts(items))).toThrow(UnprocessableError);
  });
});

describe('undo sentences', () => {
  const say = (type: string, data: unknown, reason: string | null = null) =>
    sentenceText(
      describeChange(
        {
          type,
          data,
          subject: 'Transfer #7',
          names: { [BACK]: 'Back room', i1: 'Hose' },
          revert: { original: null, reason },
        },
        'Mona',
      ),
    );

  it('says what each undo did, not "Reverted …"', () => {
    expect(say('TransferShipmentUndone', { units: 6 }, 'Undo')).toBe(
      'Undid the shipment of transfer #7: 6 units back on the shelves they left, by Mona, why: Undo',
    );
    expect(
      say('TransferReceiptUndone', { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 4 }], remaining: 6 }),
    ).toBe('Undid the receipt of 4 units of transfer #7 at Back room: back in transit, 6 in all, by Mona');
    expect(say('TransferWriteOffUndone', { itemId: 'i1', quantity: 3, remaining: 3 })).toBe(
      'Undid the write-off of 3 Hose on transfer #7: back in transit, 3 in all, by Mona',
    );
  });
});
