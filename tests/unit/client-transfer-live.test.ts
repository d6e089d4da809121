// A transfer's page kept live: the undo of a step arriving on the feed (made from the toast,
// the log or another screen) takes the page back with it: a shipment undone leaves a draft
// with nothing in transit, a receipt undone puts its units back in transit on their lines.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../shared/realtime';
import type { Transfer } from '../../shared/transfers';
import { applyTransferEvent } from '../../client/features/transfers/transfer-live';

const AT = '2026-03-02T10:00:00.000Z';

const shipped: Transfer = {
  id: 't1',
  number: 3,
  fromSiteId: 'wh',
  fromSiteName: 'Warehouse',
  toSiteId: 'shop',
  toSiteName: 'Main store',
  note: null,
  status: 'partly-received',
  lineCount: 2,
  units: 10,
  received: 4,
  writtenOff: 0,
  inTransit: 6,
  createdBy: 'Sid Staff',
  createdAt: AT,
  updatedAt: AT,
  shippedAt: AT,
  closedAt: null,
  version: 3,
  lines: [
    {
      itemId: 'hose',
      itemName: 'Hose',
      sku: 'H',
      fromLocationId: 'dock',
      fromLocationName: 'Dock',
      quantity: 6,
      received: 4,
      writtenOff: 0,
      inTransit: 2,
    },
    {
      itemId: 'tape',
      itemName: 'Tape',
      sku: 'T',
      fromLocationId: 'dock',
      fromLocationName: 'Dock',
      quantity: 4,
      received: 0,
      writtenOff: 0,
      inTransit: 4,
    },
  ],
};

const event = (type: string, data: unknown, version: number): FeedEvent => ({
  type,
  stream: 'transfer-t1',
  streamType: 'transfer',
  version,
  data,
  actor: { uid: 'u1', name: 'Sid Staff' },
  time: AT,
});

describe('a transfer page following undos live', () => {
  it('puts a receipt undone back in transit, then a shipment undone makes a draft', () => {
    const reopened = produce(shipped, (draft) => {
      expect(
        applyTransferEvent(
          draft,
          event(
            'TransferReceiptUndone',
            { toLocationId: 'back', lines: [{ itemId: 'hose', quantity: 4 }], remaining: 10 },
            4,
          ),
        ),
      ).toBe('applied');
    });
    expect(reopened).toMatchObject({ status: 'shipped', received: 0, inTransit: 10, version: 4 });
    expect(reopened.lines.map((l) => [l.received, l.inTransit])).toEqual([
      [0, 6],
      [0, 4],
    ]);
    const drafted = produce(reopened, (draft) => {
      applyTransferEvent(draft, event('TransferShipmentUndone', { units: 10 }, 5));
    });
    expect(drafted).toMatchObject({ status: 'draft', inTransit: 0, shippedAt: null, version: 5 });
    expect(drafted.lines.map((l) => l.inTransit)).toEqual([0, 0]);
  });

  it('puts a write-off undone back in transit, reopening a received transfer', () => {
    const closed: Transfer = {
      ...shipped,
      status: 'received',
      received: 4,
      writtenOff: 6,
      inTransit: 0,
      closedAt: AT,
      lines: [
        { ...shipped.lines[0]!, writtenOff: 2, inTransit: 0 },
        { ...shipped.lines[1]!, writtenOff: 4, inTransit: 0 },
      ],
    };
    const after = produce(closed, (draft) => {
      applyTransferEvent(draft, event('TransferWriteOffUndone', { itemId: 'tape', quantity: 4, remaining: 4 }, 4));
    });
    expect(after).toMatchObject({ status: 'partly-received', writtenOff: 2, inTransit: 4, closedAt: null });
  });
});
