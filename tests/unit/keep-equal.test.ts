// keepEqual (client/lib/keep-equal.ts): a refetch's answer keeps the objects of what did
// not change, so memoised item cards skip their render, and carries every change.
import { describe, expect, it } from 'vitest';
import { keepEqual } from '../../client/lib/keep-equal';

const page = () => ({
  category: { id: 'c1', name: 'Cellar', description: null },
  page: {
    items: [
      { id: 'a', name: 'Hammer', quantity: 3, tags: ['tool'] },
      { id: 'b', name: 'Wrench', quantity: 5, tags: [] },
    ],
    total: 2,
  },
});

describe('keepEqual', () => {
  it('returns the previous answer itself when nothing changed', () => {
    const before = page();
    expect(keepEqual(before, page())).toBe(before);
  });

  it('keeps unchanged items and carries the changed one', () => {
    const before = page();
    const next = page();
    next.page.items[1]!.quantity = 4;
    const kept = keepEqual(before, next);
    expect(kept).toEqual(next);
    expect(kept).not.toBe(before);
    expect(kept.category).toBe(before.category);
    expect(kept.page.items[0]).toBe(before.page.items[0]);
    expect(kept.page.items[1]).not.toBe(before.page.items[1]);
    expect(kept.page.items[1]!.quantity).toBe(4);
  });

  it('sees added, removed and retyped fields, and shorter lists', () => {
    const before: Record<string, unknown> = { a: 1, b: [1, 2], c: { d: null } };
    expect(keepEqual(before, { a: 1, b: [1, 2] })).toEqual({ a: 1, b: [1, 2] });
    expect(keepEqual(before, { a: 1, b: [1, 2], c: { d: null }, e: undefined })).not.toBe(before);
    expect(keepEqual(before, { a: '1', b: [1, 2], c: { d: null } })).toEqual({ a: '1', b: [1, 2], c: { d: null } });
    expect(keepEqual(before, { a: 1, b: [1], c: { d: null } })).toEqual({ a: 1, b: [1], c: { d: null } });
    expect(keepEqual(null, { a: 1 })).toEqual({ a: 1 });
    expect(keepEqual({ a: 1 }, null)).toBeNull();
  });
});
