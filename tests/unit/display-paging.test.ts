// The wall display's paging arithmetic: how many whole rows fit a list's box (never a
// partial one, never none), and the rotation interval a wall's URL may set.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROTATE_SECONDS, rotationMs } from '../../client/features/display/rotation.js';
import { rowsThatFit } from '../../client/features/display/use-fitted-pages.js';

describe('rows that fit a wall list', () => {
  it('counts whole rows with the gaps between them, never a partial row', () => {
    // 7 rows of 74 with 6 gaps of 10 = 578.
    expect(rowsThatFit(578, 74, 10)).toBe(7);
    expect(rowsThatFit(577, 74, 10)).toBe(6);
    // Sub-pixel boxes: 577.6 is 578 on screen.
    expect(rowsThatFit(577.6, 74, 10)).toBe(7);
    expect(rowsThatFit(2000, 74, 0)).toBe(27);
  });

  it('shows at least one row, and one row when nothing was measured', () => {
    expect(rowsThatFit(20, 74, 10)).toBe(1);
    expect(rowsThatFit(500, 0, 10)).toBe(1);
    expect(rowsThatFit(500, Number.NaN, 10)).toBe(1);
  });
});

describe('rotation interval', () => {
  it('reads ?rotate=<seconds> from the display URL', () => {
    expect(rotationMs('?rotate=15')).toBe(15_000);
    expect(rotationMs('?rotate=1.5')).toBe(1_500);
    expect(rotationMs('?theme=dark&rotate=3')).toBe(3_000);
  });

  it('falls back to the default for missing, unreadable or out-of-range values', () => {
    for (const search of [
      '',
      '?rotate=',
      '?rotate=abc',
      '?rotate=0',
      '?rotate=-4',
      '?rotate=0.2',
      '?rotate=100000',
      '?rotate=Infinity',
    ]) {
      expect(rotationMs(search), search).toBe(DEFAULT_ROTATE_SECONDS * 1000);
    }
  });
});
