// The review's order: by size of variance, in units (the difference) or in money (its value),
// largest first unless the manager turns it round. Size means distance from zero: −6 is a
// bigger variance than +2. Lines with no figure (an item deleted since) go last; ties keep
// the session's own order.
import type { StocktakeLine } from '../../../../shared/stocktake';

export type VarianceSortKey = 'difference' | 'value';
export interface VarianceSort {
  key: VarianceSortKey;
  direction: 'largest' | 'smallest';
}

export const DEFAULT_VARIANCE_SORT: VarianceSort = { key: 'difference', direction: 'largest' };

export function sortByVariance(lines: readonly StocktakeLine[], sort: VarianceSort): StocktakeLine[] {
  const size = (line: StocktakeLine) => {
    const n = line[sort.key];
    return n === null ? null : Math.abs(n);
  };
  return lines
    .map((line, index) => ({ line, index, size: size(line) }))
    .sort((a, b) => {
      if (a.size === null || b.size === null) return a.size === b.size ? a.index - b.index : a.size === null ? 1 : -1;
      const by = sort.direction === 'largest' ? b.size - a.size : a.size - b.size;
      return by !== 0 ? by : a.index - b.index;
    })
    .map((x) => x.line);
}

/** A header click: the same column turns the order round; another column starts largest first. */
export function nextVarianceSort(current: VarianceSort, key: VarianceSortKey): VarianceSort {
  if (current.key !== key) return { key, direction: 'largest' };
  return { key, direction: current.direction === 'largest' ? 'smallest' : 'largest' };
}
