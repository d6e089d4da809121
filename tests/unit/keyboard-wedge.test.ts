// The hardware-scanner (keyboard wedge) detector: a fast burst ending in Enter is a scan;
// a person typing, a short burst, a slow Enter or a shortcut is not.
import { describe, expect, it } from 'vitest';
import { createWedgeDetector, WEDGE_MAX_GAP_MS } from '../../client/lib/keyboard-wedge.js';

/** Feeds the text key by key, `gap` ms apart, then Enter after `enterGap` ms; returns what the detector reported. */
function type(
  text: string,
  gap: number,
  enterGap = gap,
  detector = createWedgeDetector(),
  start = 1000,
): (string | null)[] {
  const results: (string | null)[] = [];
  let time = start;
  for (const key of text) {
    results.push(detector.feed({ key, time }));
    time += gap;
  }
  results.push(detector.feed({ key: 'Enter', time: time - gap + enterGap }));
  return results;
}

describe('keyboard wedge detector', () => {
  it('reports a fast burst of at least 4 characters ended by Enter, once, on the Enter', () => {
    const results = type('4006381333931', 8);
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toBe('4006381333931');
  });

  it('ignores a person typing (gaps over 50 ms), even a long code', () => {
    expect(type('4006381333931', 120).at(-1)).toBeNull();
    expect(type('4006381333931', WEDGE_MAX_GAP_MS + 1).at(-1)).toBeNull();
  });

  it('accepts gaps of exactly the limit', () => {
    expect(type('ABCD', WEDGE_MAX_GAP_MS).at(-1)).toBe('ABCD');
  });

  it('ignores bursts shorter than 4 characters', () => {
    expect(type('123', 5).at(-1)).toBeNull();
  });

  it('ignores an Enter that comes long after the burst', () => {
    expect(type('4006381333931', 5, 400).at(-1)).toBeNull();
  });

  it('keeps only the fast tail when a person typed before the scanner fired', () => {
    const detector = createWedgeDetector();
    detector.feed({ key: 'x', time: 0 });
    detector.feed({ key: 'y', time: 300 });
    expect(type('SKU-42', 10, 10, detector, 900).at(-1)).toBe('SKU-42');
  });

  it('lets Shift through (scanners shift capital letters) but a shortcut or named key breaks the burst', () => {
    const detector = createWedgeDetector();
    let time = 0;
    for (const key of ['Shift', 'A', 'B', 'Shift', 'C', '-', '1']) detector.feed({ key, time: (time += 5) });
    expect(detector.pending()).toBe('ABC-1');
    expect(detector.feed({ key: 'Enter', time: time + 5 })).toBe('ABC-1');

    for (const key of 'ABCD') detector.feed({ key, time: (time += 5) });
    detector.feed({ key: 'v', time: (time += 5), withModifier: true });
    expect(detector.feed({ key: 'Enter', time: (time += 5) })).toBeNull();

    for (const key of 'ABCD') detector.feed({ key, time: (time += 5) });
    detector.feed({ key: 'ArrowLeft', time: (time += 5) });
    expect(detector.feed({ key: 'Enter', time: (time += 5) })).toBeNull();
  });

  it('starts afresh after each scan, so two scans in a row both count', () => {
    const detector = createWedgeDetector();
    expect(type('11112222', 5, 5, detector, 0).at(-1)).toBe('11112222');
    expect(type('33334444', 5, 5, detector, 100).at(-1)).toBe('33334444');
  });
});
