// The count page's rows at one location of a session of several: that location's lines, and
// a fresh line there for an item of the session scanned or searched for though it had no
// stock there (counting it opens the line on the server).
import { describe, expect, it } from 'vitest';
import type { StocktakeLine } from '../../shared/stocktake.js';
import { countRows, scannedKey } from '../../client/features/stocktake/count-rows.js';

const line = (itemId: string, name: string, locationId: string, status: StocktakeLine['status'] = 'uncounted') =>
  ({
    itemId,
    name,
    sku: name.toUpperCase(),
    barcode: null,
    locationId,
    locationName: locationId,
    status,
    counts: [],
  }) as unknown as StocktakeLine;

describe('count rows at a location', () => {
  const lines = [line('w', 'Wine', 'back', 'counted'), line('w', 'Wine', 'shelf'), line('b', 'Beer', 'shelf')];
  const back = { id: 'back', name: 'Back room' };

  it('shows every line without a place, and the place’s lines with one', () => {
    expect(countRows(lines, '', null).map((l) => `${l.itemId}@${l.locationId}`)).toEqual([
      'w@back',
      'w@shelf',
      'b@shelf',
    ]);
    expect(countRows(lines, '', back).map((l) => `${l.itemId}@${l.locationId}`)).toEqual(['w@back']);
  });

  it('gives an item found at the place without a line there a fresh, uncounted one', () => {
    const searched = countRows(lines, 'beer', back);
    expect(searched).toMatchObject([
      { itemId: 'b', locationId: 'back', locationName: 'Back room', status: 'uncounted' },
    ]);
    expect(countRows(lines, '', back, new Set(['b'])).map((l) => `${l.itemId}@${l.locationId}`)).toEqual([
      'w@back',
      'b@back',
    ]);
    expect(scannedKey(lines[2]!, back)).toBe('b@back');
    expect(scannedKey(lines[2]!, null)).toBe('b@shelf');
  });
});
