// The review's order: by size of variance in units or money, largest first
// at first; and the start dialog's rules: nothing is chosen at first, and what each choice
// sends to the server.
import { describe, expect, it } from 'vitest';
import type { Category, Item } from '../../shared/inventory.js';
import type { Location } from '../../shared/sites.js';
import type { StocktakeLine } from '../../shared/stocktake.js';
import {
  DEFAULT_VARIANCE_SORT,
  nextVarianceSort,
  sortByVariance,
} from '../../client/features/stocktake/components/variance-sort.js';
import {
  choiceReady,
  insideCount,
  itemsToCount,
  locationOptions,
  startBody,
  type StartContext,
} from '../../client/features/stocktake/start.machine.js';

const line = (name: string, difference: number | null, value: number | null) =>
  ({ name, difference, value }) as StocktakeLine;

describe('sortByVariance', () => {
  const lines = [line('A', 1, 50), line('B', -6, -3), line('C', null, null), line('D', 3, -12), line('E', -1, 2)];
  const names = (sorted: StocktakeLine[]) => sorted.map((l) => l.name).join('');

  it('puts the largest difference first, a shortfall as large as a surplus, lines with no figure last', () => {
    expect(names(sortByVariance(lines, DEFAULT_VARIANCE_SORT))).toBe('BDAEC');
    expect(names(sortByVariance(lines, { key: 'difference', direction: 'smallest' }))).toBe('AEDBC');
  });

  it('sorts by value in money the same way', () => {
    expect(names(sortByVariance(lines, { key: 'value', direction: 'largest' }))).toBe('ADBEC');
  });

  it('starts another column largest first and turns the same one round', () => {
    expect(nextVarianceSort(DEFAULT_VARIANCE_SORT, 'value')).toEqual({ key: 'value', direction: 'largest' });
    expect(nextVarianceSort(DEFAULT_VARIANCE_SORT, 'difference')).toEqual({ key: 'difference', direction: 'smallest' });
  });
});

describe('the start dialog', () => {
  const category = (id: string, itemCount: number) => ({ id, name: id, itemCount }) as Category;
  const base: StartContext = {
    choice: null,
    categories: [category('cellar', 3), category('bar', 2)],
    categoryIds: [],
    lowStock: 4,
    query: '',
    found: [],
    picked: [],
    name: '',
    sites: [],
    locations: [],
    siteId: null,
    locationId: null,
    error: null,
  };

  it('has nothing chosen at first and cannot start until a choice is complete', () => {
    expect(choiceReady(base)).toBe(false);
    expect(choiceReady({ ...base, choice: 'categories' })).toBe(false);
    expect(choiceReady({ ...base, choice: 'categories', categoryIds: ['bar'] })).toBe(true);
    expect(choiceReady({ ...base, choice: 'items' })).toBe(false);
    expect(choiceReady({ ...base, choice: 'low-stock', lowStock: 0 })).toBe(false);
    expect(choiceReady({ ...base, choice: 'low-stock' })).toBe(true);
    expect(choiceReady({ ...base, choice: 'store' })).toBe(true);
  });

  it('sends the scope of the choice, with how many items it lists', () => {
    expect(startBody({ ...base, choice: 'categories', categoryIds: ['bar'] })).toEqual({
      scope: 'category',
      categoryId: 'bar',
    });
    const both = { ...base, choice: 'categories' as const, categoryIds: ['bar', 'cellar'], name: ' Monday ' };
    expect(startBody(both)).toEqual({ scope: 'categories', categoryIds: ['bar', 'cellar'], name: 'Monday' });
    expect(itemsToCount(both)).toBe(5);
    expect(startBody({ ...base, choice: 'low-stock' })).toEqual({ scope: 'low-stock' });
    expect(startBody({ ...base, choice: 'items', picked: [{ id: 'i1' } as Item] })).toEqual({
      scope: 'items',
      itemIds: ['i1'],
    });
    expect(startBody({ ...base, choice: 'store' })).toEqual({ scope: 'store' });
    expect(itemsToCount({ ...base, choice: 'store' })).toBe(5);
  });

  it('counts at the site chosen, or at one of its locations', () => {
    expect(startBody({ ...base, choice: 'store', siteId: 'shop' })).toEqual({ scope: 'store', siteId: 'shop' });
    expect(startBody({ ...base, choice: 'store', siteId: 'shop', locationId: 'back' })).toEqual({
      scope: 'store',
      locationId: 'back',
    });
  });

  it("lists a site's locations as a tree, each under its parent", () => {
    const at = (id: string, parentId: string | null, siteId = 'shop') =>
      ({ id, name: id, parentId, siteId }) as Location;
    const tree = locationOptions(
      [at('shelf', 'back'), at('back', null), at('aisle', null), at('dock', null, 'warehouse'), at('bin', 'shelf')],
      'shop',
    );
    expect(tree.map((o) => `${o.depth}:${o.location.id}`)).toEqual(['0:aisle', '0:back', '1:shelf', '2:bin']);
    // Counting the back room counts the shelf and the bin in it too.
    expect([0, 1, 2, 3].map((i) => insideCount(tree, i))).toEqual([0, 2, 1, 0]);
  });
});
