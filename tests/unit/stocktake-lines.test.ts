// The stocktake's pure rules: which count of an item applies and when counts disagree (by the
// difference each implies from its own moment's stock), how a scanned code finds its line, and
// the decisions (given the session, when a count or an approval comes, then these events).
import { describe, expect, it } from 'vitest';
import type { StocktakeLine } from '../../shared/stocktake.js';
import { readLine } from '../../server/stocktake/line-status.js';
import { approveLines, countStock, linesApproved, linesForApproveAll } from '../../server/stocktake/decide.js';
import { findLine } from '../../client/features/stocktake/find-line.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
const sam = { uid: 'u-sam', name: 'Sam Staff' };
const mia = { uid: 'u-mia', name: 'Mia Manager' };

describe('readLine', () => {
  it('agrees when two counts differ only by what was sold between them', () => {
    const reading = readLine([
      { id: 'a', counted: 8, countedAt: at(0), expected: 10 },
      { id: 'b', counted: 6, countedAt: at(20), expected: 8 },
    ]);
    expect(reading).toMatchObject({ kind: 'counted', count: { id: 'b' } });
  });

  it('flags counts of one moment with different numbers', () => {
    expect(
      readLine([
        { id: 'a', counted: 8, countedAt: at(0), expected: 10 },
        { id: 'b', counted: 7, countedAt: at(0), expected: 10 },
      ]).kind,
    ).toBe('conflict');
    expect(readLine([]).kind).toBe('uncounted');
  });
});

describe('findLine', () => {
  const line = (itemId: string, sku: string, barcode: string | null) =>
    ({ itemId, sku, barcode, name: sku }) as StocktakeLine;
  const lines = [
    line('6f1c1f0e-0000-4000-8000-000000000001', 'RED-1', '4006381333931'),
    line('6f1c1f0e-0000-4000-8000-000000000002', 'UPC-1', '036000291452'),
  ];

  it('finds by barcode (UPC-A read as EAN-13 too), SKU or item URL', () => {
    expect(findLine(lines, '4006381333931')?.sku).toBe('RED-1');
    expect(findLine(lines, '0036000291452')?.sku).toBe('UPC-1');
    expect(findLine(lines, 'red-1')?.sku).toBe('RED-1');
    expect(findLine(lines, 'https://shop.example/inventory/6f1c1f0e-0000-4000-8000-000000000002')?.sku).toBe('UPC-1');
    expect(findLine(lines, '5901234123457')).toBeNull();
  });
});

describe('stocktake decisions', () => {
  const now = new Date(Date.UTC(2026, 0, 1, 12, 0));
  const MAIN = 'loc-main';
  const lineAt = (itemId: string, approved = false, locationId = MAIN) =>
    [`${itemId}@${locationId}`, { itemId, locationId, approved }] as const;
  const session = (approved = false, status: 'open' | 'closed' = 'open') => ({
    id: 's',
    name: 'Cellar',
    status,
    startedAt: new Date(now.getTime() - 3_600_000),
    siteId: 'site-main',
    locationIds: new Set([MAIN, 'loc-back']),
    homeLocationId: MAIN,
    lines: new Map([lineAt('item-1', approved)]),
  });
  const wine = { itemId: 'item-1', locationId: MAIN, name: 'Red Wine', locationName: 'Main location' };

  it('records a count at its own moment, within the session and not from the future', () => {
    const countedAt = new Date(now.getTime() - 60_000);
    // A count that names no location is at the session's home location.
    expect(countStock({ itemId: 'item-1', counted: 8, countedAt }, session(), now)).toEqual([
      {
        type: 'StockCounted',
        data: { itemId: 'item-1', locationId: MAIN, counted: 8, countedAt: countedAt.toISOString() },
      },
    ]);
    // Found at another location of the place: counted there (the count opens that line).
    expect(countStock({ itemId: 'item-1', locationId: 'loc-back', counted: 2, countedAt }, session(), now)).toEqual([
      {
        type: 'StockCounted',
        data: { itemId: 'item-1', locationId: 'loc-back', counted: 2, countedAt: countedAt.toISOString() },
      },
    ]);
    expect(() =>
      countStock({ itemId: 'item-1', locationId: 'loc-elsewhere', counted: 2, countedAt }, session(), now),
    ).toThrow(/location is not part of this stocktake/);
    // A phone clock a minute ahead is fine; ten minutes is not.
    expect(() =>
      countStock({ itemId: 'item-1', counted: 8, countedAt: new Date(now.getTime() + 60_000) }, session(), now),
    ).not.toThrow();
    expect(() =>
      countStock({ itemId: 'item-1', counted: 8, countedAt: new Date(now.getTime() + 600_000) }, session(), now),
    ).toThrow(/future/);
    expect(() =>
      countStock({ itemId: 'item-1', counted: 8, countedAt: new Date(now.getTime() - 7_200_000) }, session(), now),
    ).toThrow(/before this stocktake/);
    expect(() => countStock({ itemId: 'other', counted: 8, countedAt }, session(), now)).toThrow(
      /not part of this stocktake/,
    );
    expect(() => countStock({ itemId: 'item-1', counted: 8, countedAt }, session(true), now)).toThrow(
      /already approved/,
    );
    expect(() => countStock({ itemId: 'item-1', counted: 8, countedAt }, session(false, 'closed'), now)).toThrow(
      /closed/,
    );
  });

  it('posts counted minus the stock of the moment of counting, and needs a choice when counts disagree', () => {
    const counts = [{ id: 'a', counted: 8, countedAt: at(0), expected: 10, counter: sam }];
    const approved = approveLines([{ ...wine, counts }], session());
    expect(approved).toEqual([
      {
        itemId: 'item-1',
        locationId: MAIN,
        countId: 'a',
        counted: 8,
        countedAt: at(0).toISOString(),
        countedBy: sam,
        expected: 10,
        delta: -2,
      },
    ]);
    const disputed = [...counts, { id: 'b', counted: 7, countedAt: at(1), expected: 10, counter: mia }];
    expect(() => approveLines([{ ...wine, counts: disputed }], session())).toThrow(/choose which count/);
    // Keeping one of two counts posts that count as its counter's, not as the other counter's.
    const kept = approveLines([{ ...wine, counts: disputed, countId: 'a' }], session())[0]!;
    expect(kept).toMatchObject({ delta: -2, countedBy: sam });
    expect(approveLines([{ ...wine, counts: disputed, countId: 'b' }], session())[0]!.delta).toBe(-3);
    expect(() => linesForApproveAll([{ ...wine, counts: disputed }], session())).toThrow(
      /Counted twice with different numbers: Red Wine/,
    );
  });

  it("keeps expected quantities and differences out of the session's event (everyone who counts receives it live)", () => {
    const posted = approveLines(
      [
        {
          ...wine,
          counts: [{ id: 'a', counted: 8, countedAt: at(0), expected: 10, counter: sam }],
        },
        {
          ...wine,
          itemId: 'item-2',
          name: 'Rosé',
          counts: [{ id: 'b', counted: 5, countedAt: at(0), expected: 5, counter: mia }],
        },
      ],
      {
        ...session(),
        lines: new Map([lineAt('item-1'), lineAt('item-2')]),
      },
    );
    const events = linesApproved(posted, new Map([[`item-1@${MAIN}`, 7]]));
    expect(events).toEqual([
      {
        type: 'StocktakeLinesApproved',
        data: {
          lines: [
            {
              itemId: 'item-1',
              locationId: MAIN,
              countId: 'a',
              countedBy: sam,
              counted: 8,
              countedAt: at(0).toISOString(),
              adjustmentVersion: 7,
            },
            {
              itemId: 'item-2',
              locationId: MAIN,
              countId: 'b',
              countedBy: mia,
              counted: 5,
              countedAt: at(0).toISOString(),
              adjustmentVersion: null,
            },
          ],
        },
      },
    ]);
    expect(linesApproved([], new Map())).toEqual([]);
  });
});
