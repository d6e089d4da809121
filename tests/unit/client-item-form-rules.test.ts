// The item form's number rules and defaults: a price with more than two decimals gets its
// own message, and a new item starts at the store's default threshold, following changes
// to it that arrive on the Inventory page's live data.
import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../shared/realtime.js';
import { firstProblem, EMPTY_DRAFT, MESSAGES, startingThreshold } from '../../client/features/inventory/item-draft.js';
import { reduceOverview, overviewConcerns } from '../../client/features/inventory/live-reducers.js';

describe('item form numbers and defaults', () => {
  const complete = {
    ...EMPTY_DRAFT,
    name: 'Tea',
    sku: 'T-1',
    categoryId: 'c1',
    price: '4.5',
    quantity: '3',
    threshold: '2',
  };
  const problem = (price: string) => firstProblem({ ...complete, price }, ['c1'])?.message ?? null;

  it("refuses more than two decimals with its own message, never 'must be a number of 0 or more'", () => {
    expect(MESSAGES.priceCents).toBe('Price can have at most 2 decimals');
    expect(problem('1.999')).toBe('Price can have at most 2 decimals');
    expect(problem('0.001')).toBe('Price can have at most 2 decimals');
    expect(problem('-1')).toBe('Price cannot be negative');
    expect(problem('abc')).toBe('Price must be a number of 0 or more');
    for (const ok of ['4.5', '4.50', '4.500', '.99', '0', '19.99', '1e3']) expect(problem(ok)).toBeNull();
  });

  it('starts a new item at the store default threshold when there is one', () => {
    expect(startingThreshold(7)).toBe('7');
    expect(startingThreshold(0)).toBe('0');
    expect(startingThreshold(null)).toBe('');
    expect(startingThreshold(undefined)).toBe('');
    expect(startingThreshold(-1)).toBe('');
  });

  it("follows a change of the store default on the Inventory page's live data", () => {
    const event = {
      streamType: 'settings',
      stream: 'settings',
      type: 'SettingsChanged',
      version: 3,
      data: { changes: { lowStockThreshold: 9 } },
    } as unknown as FeedEvent;
    const draft = { categories: [], defaultThreshold: 7 };
    expect(overviewConcerns(event)).toBe(true);
    expect(reduceOverview(draft, event)).toBe('applied');
    expect(draft.defaultThreshold).toBe(9);
    const other = { ...event, data: { changes: { storeName: 'X' } } } as unknown as FeedEvent;
    expect(overviewConcerns(other)).toBe(false);
  });
});
