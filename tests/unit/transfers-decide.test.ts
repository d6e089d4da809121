// Transfer decisions and fold: given a transfer and the items and places it names, when a
// step, then the transfer's events and each item's (no database); the fold's status and
// units in transit after each; the log's sentences for each step.
import { describe, expect, it } from 'vitest';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { evolveTransfer, transferInTransit, type TransferEvent } from '../../shared/transfers.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../server/errors.js';
import type { ItemState } from '../../server/inventory/item-state.js';
import {
  cancelTransfer,
  createTransfer,
  receiveTransfer,
  shipTransfer,
  writeOffTransfer,
  type TransferFacts,
  type TransferState,
} from '../../server/transfers/decide.js';

const WH = 'site-wh';
const SHOP = 'site-shop';
const DOCK = 'loc-dock';
const BAY = 'loc-bay';
const BACK = 'loc-back';

const item = (id: string, levels: Record<string, number>, over: Partial<ItemState> = {}): ItemState => ({
  id,
  name: `Item ${id}`,
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

/** The transfer its events leave (versions from 1). */
function fold(events: TransferEvent[], from: TransferState | null = null): TransferState {
  let state = from;
  for (const event of events)
    state = evolveTransfer(state, event, { version: (state?.version ?? 0) + 1, at: new Date(1) });
  return state!;
}

const drafted = (items: ItemState[], quantities: number[] = [4, 2]) =>
  fold(
    createTransfer(
      {
        transferId: 't1',
        number: 7,
        fromSiteId: WH,
        toSiteId: SHOP,
        note: '  for the window ',
        lines: items.map((i, k) => ({ itemId: i.id, fromLocationId: k === 0 ? DOCK : BAY, quantity: quantities[k]! })),
      },
      facts(items),
    ),
  );

/** Each item after its events. */
function itemsAfter(items: ItemState[], decided: Map<string, InventoryEvent[]>): ItemState[] {
  return items.map((i) => {
    let state: ItemState = i;
    for (const event of decided.get(i.id) ?? [])
      state = evolveItem(state, event, { version: state.version + 1, at: null })!;
    return state;
  });
}

describe('transfer decisions', () => {
  const hose = item('i1', { [DOCK]: 6 });
  const tape = item('i2', { [BAY]: 2, [DOCK]: 1 }, { threshold: 1 });

  it('drafts a transfer: nothing moves, the note trimmed', () => {
    const t = drafted([hose, tape]);
    expect(t).toMatchObject({ number: 7, status: 'draft', note: 'for the window', fromSiteId: WH, toSiteId: SHOP });
    expect(t.lines).toEqual([
      { itemId: 'i1', fromLocationId: DOCK, quantity: 4, received: 0, writtenOff: 0 },
      { itemId: 'i2', fromLocationId: BAY, quantity: 2, received: 0, writtenOff: 0 },
    ]);
    expect(transferInTransit(t)).toBe(0);
  });

  it('refuses a draft between one site and itself, unknown items, places of the wrong site or archived', () => {
    const command = {
      transferId: 't2',
      number: 8,
      fromSiteId: WH,
      toSiteId: SHOP,
      lines: [{ itemId: 'i1', fromLocationId: DOCK, quantity: 1 }],
    };
    const refusal =
      (over: object, f = facts([hose])) =>
      () =>
        createTransfer({ ...command, ...over }, f);
    expect(refusal({ toSiteId: WH })).toThrow(ValidationError);
    expect(refusal({ lines: [{ itemId: 'nope', fromLocationId: DOCK, quantity: 1 }] })).toThrow(
      new UnprocessableError('Item not found: nope', 'lines[0].itemId'),
    );
    expect(refusal({ lines: [{ itemId: 'i1', fromLocationId: BACK, quantity: 1 }] })).toThrow(
      'Back room is not at Warehouse',
    );
    expect(refusal({}, facts([hose], { archived: [DOCK] }))).toThrow(ConflictError);
    expect(refusal({}, facts([hose], { archived: [SHOP] }))).toThrow(
      'Shop 2 is archived: restore it to send or receive stock there',
    );
    expect(
      refusal({
        lines: [
          { itemId: 'i1', fromLocationId: DOCK, quantity: 1 },
          { itemId: 'i1', fromLocationId: BAY, quantity: 1 },
        ],
      }),
    ).toThrow('Item i1 is on more than one line: put all its units on one');
  });

  it('ships every line into transit, one event per item with its crossing; quantity + in transit unchanged', () => {
    const t = drafted([hose, tape]);
    const shipped = shipTransfer(t, facts([hose, tape]));
    expect(shipped.transfer).toEqual([{ type: 'TransferShipped', data: { units: 6 } }]);
    expect(shipped.items.get('i1')).toEqual([
      {
        type: 'StockShipped',
        data: {
          itemId: 'i1',
          transferId: 't1',
          fromLocationId: DOCK,
          quantity: 4,
          quantityAfter: 2,
          inTransitAfter: 4,
        },
      },
    ]);
    // Tape: 3 on hand, 2 shipped, 1 left at its threshold: low.
    expect(shipped.items.get('i2')!.map((e) => e.type)).toEqual(['StockShipped', 'ItemWentLow']);
    const [h, tp] = itemsAfter([hose, tape], shipped.items);
    expect(h).toMatchObject({ quantity: 2, inTransit: 4, levels: { [DOCK]: 2 } });
    expect(tp).toMatchObject({ quantity: 1, inTransit: 2, levels: { [BAY]: 0, [DOCK]: 1 } });
    const after = fold(shipped.transfer, t);
    expect(after.status).toBe('shipped');
    expect(transferInTransit(after)).toBe(6);
  });

  it('refuses to ship more than the source location holds (other locations do not count), twice, or a cancelled one', () => {
    const t = drafted([hose, tape], [4, 3]);
    expect(() => shipTransfer(t, facts([hose, tape]))).toThrow(
      'Insufficient stock of Item i2 at Bay 7: 2 there, 3 to ship',
    );
    const shipped = fold(shipTransfer(drafted([hose]), facts([hose])).transfer, drafted([hose]));
    expect(() => shipTransfer(shipped, facts([hose]))).toThrow('Transfer #7 was already shipped');
    const cancelled = fold(cancelTransfer(drafted([hose])), drafted([hose]));
    expect(() => shipTransfer(cancelled, facts([hose]))).toThrow('Transfer #7 was cancelled');
    expect(() => shipTransfer(null, facts([]))).toThrow(NotFoundError);
    expect(() => shipTransfer(drafted([hose]), facts([]))).toThrow('An item of Transfer #7 was deleted');
  });

  it('receives in parts at the destination, then writes off the rest: received once nothing is in transit', () => {
    const t0 = drafted([hose, tape]);
    const shipping = shipTransfer(t0, facts([hose, tape]));
    let items = itemsAfter([hose, tape], shipping.items);
    let t = fold(shipping.transfer, t0);

    const receipt = receiveTransfer(t, { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 3 }] }, facts(items));
    expect(receipt.transfer).toEqual([
      { type: 'TransferReceived', data: { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 3 }], remaining: 3 } },
    ]);
    items = itemsAfter(items, receipt.items);
    expect(items[0]).toMatchObject({ quantity: 5, inTransit: 1, levels: { [DOCK]: 2, [BACK]: 3 } });
    t = fold(receipt.transfer, t);
    expect(t.status).toBe('partly-received');

    expect(() =>
      receiveTransfer(t, { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 2 }] }, facts(items)),
    ).toThrow('Only 1 unit of Item i1 is in transit on Transfer #7');
    expect(() =>
      receiveTransfer(t, { toLocationId: DOCK, lines: [{ itemId: 'i1', quantity: 1 }] }, facts(items)),
    ).toThrow('Dock is not at Shop 2');
    expect(() =>
      receiveTransfer(
        t,
        { toLocationId: BACK, lines: [{ itemId: 'i1', quantity: 1 }] },
        facts(items, { archived: [BACK] }),
      ),
    ).toThrow('Back room is archived');
    expect(() =>
      receiveTransfer(t, { toLocationId: BACK, lines: [{ itemId: 'i9', quantity: 1 }] }, facts(items)),
    ).toThrow('Item i9 is not on Transfer #7');
    expect(() => cancelTransfer(t)).toThrow(
      'Transfer #7 was shipped: receive its units or write them off instead of cancelling',
    );

    expect(() => writeOffTransfer(t, { reason: '  ', lines: [{ itemId: 'i1' }] }, facts(items))).toThrow(
      ValidationError,
    );
    const loss = writeOffTransfer(
      t,
      { reason: ' dropped ', lines: [{ itemId: 'i1' }, { itemId: 'i2', quantity: 2 }] },
      facts(items),
    );
    expect(loss.transfer).toEqual([
      { type: 'TransferLineWrittenOff', data: { itemId: 'i1', quantity: 1, reason: 'dropped', remaining: 2 } },
      { type: 'TransferLineWrittenOff', data: { itemId: 'i2', quantity: 2, reason: 'dropped', remaining: 0 } },
    ]);
    items = itemsAfter(items, loss.items);
    // On hand stays; in transit goes: the loss.
    expect(items[0]).toMatchObject({ quantity: 5, inTransit: 0 });
    expect(items[1]).toMatchObject({ quantity: 1, inTransit: 0 });
    t = fold(loss.transfer, t);
    expect(t.status).toBe('received');
    expect(t.closedAt).not.toBeNull();
    expect(() => writeOffTransfer(t, { reason: 'x', lines: [{ itemId: 'i1' }] }, facts(items))).toThrow(
      'Transfer #7 has nothing left in transit',
    );
  });

  it('cancels a draft only', () => {
    expect(cancelTransfer(drafted([hose]), '  ')).toEqual([{ type: 'TransferCancelled', data: { reason: null } }]);
    const cancelled = fold(cancelTransfer(drafted([hose])), drafted([hose]));
    expect(() => cancelTransfer(cancelled)).toThrow('Transfer #7 was already cancelled');
  });
});

describe('transfer sentences', () => {
  const say = (type: string, data: unknown, names: Record<string, string> = {}) =>
    sentenceText(describeChange({ type, data, subject: 'Transfer #7', names }, 'Mona'));

  it('says each step as the activity log shows it', () => {
    const names = { [WH]: 'Warehouse', [SHOP]: 'Shop 2', [BACK]: 'Back room', i1: 'Hose' };
    expect(
      say(
        'TransferCreated',
        { fromSiteId: WH, toSiteId: SHOP, note: 'spring', lines: [{ quantity: 4 }, { quantity: 1 }] },
        names,
      ),
    ).toBe('Created transfer #7 from Warehouse to Shop 2: 2 lines, 5 units, by Mona, note: spring');
    expect(say('TransferShipped', { units: 1 })).toBe('Shipped transfer #7: 1 unit in transit, by Mona');
    expect(say('TransferReceived', { toLocationId: BACK, lines: [{ quantity: 3 }], remaining: 2 }, names)).toBe(
      'Received 3 units of transfer #7 at Back room, 2 still in transit, by Mona',
    );
    expect(say('TransferLineWrittenOff', { itemId: 'i1', quantity: 2, reason: 'dropped', remaining: 0 }, names)).toBe(
      'Wrote off 2 Hose in transit on transfer #7, by Mona, reason: dropped',
    );
    expect(say('TransferCancelled', { reason: null })).toBe('Cancelled transfer #7, by Mona');
  });
});
