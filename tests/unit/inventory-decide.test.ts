// Item and category decisions: given state, when command, then events (no database).
import { describe, expect, it } from 'vitest';
import { adjustStock, createItem, deleteItem, updateItem } from '../../server/inventory/decide.js';
import { createCategory, deleteCategory, updateCategory } from '../../server/categories/decide.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { ConflictError, NotFoundError, ValidationError } from '../../server/errors.js';
import type { ItemFields } from '../../shared/inventory-events.js';
import { MAIN_LOCATION_ID } from '../../shared/places.js';

const fields: ItemFields = {
  name: 'Widget',
  description: 'A widget',
  sku: 'W-1',
  categoryId: 'c1',
  quantity: 20,
  price: 9.99,
  threshold: 5,
  imageUrl: null,
  expiryDate: null,
  barcode: null,
};
const state = (over: Partial<ItemState> = {}): ItemState => ({
  ...fields,
  id: 'i1',
  version: 1,
  deleted: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  // All of its stock where stock was before places: what these decisions take from without one.
  levels: { [MAIN_LOCATION_ID]: over.quantity ?? fields.quantity },
  inTransit: 0,
  ...over,
});

describe('item decisions', () => {
  it('creates an item, and marks it low at once when it starts at or below threshold', () => {
    expect(createItem({ itemId: 'i1', fields }, null)).toEqual([
      { type: 'ItemCreated', data: { itemId: 'i1', ...fields } },
    ]);
    const low = createItem({ itemId: 'i2', fields: { ...fields, quantity: 5 } }, null);
    expect(low.map((e) => e.type)).toEqual(['ItemCreated', 'ItemWentLow']);
  });

  it.each([
    [{ name: '  ' }, 'name is required', 'name'],
    [{ sku: '' }, 'sku is required', 'sku'],
    [{ price: -1 }, 'price cannot be negative', 'price'],
    [{ price: 1.005 }, 'price must have at most 2 decimals', 'price'],
    [{ quantity: 1.5 }, 'quantity must be a whole number', 'quantity'],
    [{ quantity: -1 }, 'quantity cannot be negative', 'quantity'],
    [{ threshold: -2 }, 'threshold cannot be negative', 'threshold'],
    [{ imageUrl: 'javascript:alert(1)' }, 'image_url must be an https URL', 'image_url'],
    [{ imageUrl: 'http://tracker.example/pixel.gif' }, 'image_url must be an https URL', 'image_url'],
    [{ expiryDate: '2026-02-30' }, 'expiry_date must be a date (YYYY-MM-DD)', 'expiry_date'],
    [{ barcode: '4006381333932' }, 'Barcode check digit is wrong (EAN-13, expected 1)', 'barcode'],
  ])('refuses %o with "%s", naming the body field (a form marks that input)', (bad, message, field) => {
    expect(() => createItem({ itemId: 'x', fields: { ...fields, ...bad } as ItemFields }, null)).toThrow(
      new ValidationError(message, field),
    );
  });

  it('adjusts stock and refuses to go below zero', () => {
    expect(adjustStock({ delta: -3, reason: 'sale', note: null }, state())).toEqual([
      { type: 'StockAdjusted', data: { delta: -3, reason: 'sale', note: null, quantity: 17 } },
    ]);
    expect(() => adjustStock({ delta: -21, reason: 'sale', note: null }, state())).toThrow(ConflictError);
    expect(() => adjustStock({ delta: -21, reason: 'sale', note: null }, state())).toThrow('Insufficient stock');
    expect(() => adjustStock({ delta: 1, reason: 'sale', note: null }, null)).toThrow(NotFoundError);
  });

  it('emits ItemWentLow when crossing to the threshold and ItemRecovered when back above', () => {
    const low = adjustStock({ delta: -15, reason: 'sale', note: null }, state());
    expect(low.map((e) => e.type)).toEqual(['StockAdjusted', 'ItemWentLow']);
    expect(low[1]!.data).toEqual({ quantity: 5, threshold: 5 });
    const stillLow = adjustStock({ delta: -1, reason: 'sale', note: null }, state({ quantity: 5 }));
    expect(stillLow.map((e) => e.type)).toEqual(['StockAdjusted']);
    const back = adjustStock({ delta: 10, reason: 'restock', note: 'delivery' }, state({ quantity: 2 }));
    expect(back.map((e) => e.type)).toEqual(['StockAdjusted', 'ItemRecovered']);
  });

  it('records only changed fields with their previous values, and a quantity edit as a count', () => {
    const events = updateItem({ changes: { name: 'Widget', price: 12.5, quantity: 18 } }, state());
    expect(events).toEqual([
      { type: 'ItemUpdated', data: { changes: { price: { from: 9.99, to: 12.5 } } } },
      { type: 'StockAdjusted', data: { delta: -2, reason: 'count', note: null, quantity: 18 } },
    ]);
    expect(updateItem({ changes: { name: 'Widget' } }, state())).toEqual([]);
    const raised = updateItem({ changes: { threshold: 25 } }, state());
    expect(raised.map((e) => e.type)).toEqual(['ItemUpdated', 'ItemWentLow']);
  });

  it('deletes a live item once', () => {
    expect(deleteItem(state())).toEqual([{ type: 'ItemDeleted', data: { name: 'Widget', sku: 'W-1' } }]);
    expect(() => deleteItem(state({ deleted: true }))).toThrow('Item not found');
  });

  it('folds events back into state', () => {
    let s: ItemState | null = null;
    const at = new Date(1000);
    s = evolveItem(
      s,
      { type: 'ItemCreated', data: { itemId: 'i1', ...fields } },
      { version: 1, at, streamId: 'item-i1' },
    );
    s = evolveItem(
      s,
      { type: 'StockAdjusted', data: { delta: 5, reason: 'restock', note: null, quantity: 25 } },
      {
        version: 2,
        at,
        streamId: 'item-i1',
      },
    );
    expect(s).toMatchObject({ quantity: 25, version: 2, deleted: false });
  });
});

describe('category decisions', () => {
  const category = { id: 'c1', name: 'Tools', description: '', version: 1, itemCount: 0 };
  it('trims and requires a name', () => {
    expect(createCategory({ categoryId: 'c1', name: '  Tools ', description: ' ' })).toEqual([
      { type: 'CategoryCreated', data: { categoryId: 'c1', name: 'Tools', description: '' } },
    ]);
    expect(() => createCategory({ categoryId: 'c1', name: '   ', description: '' })).toThrow('name is required');
  });
  it('renames with the previous name, and ignores no-op edits', () => {
    expect(updateCategory({ name: 'Hand Tools' }, category)).toEqual([
      { type: 'CategoryUpdated', data: { changes: { name: { from: 'Tools', to: 'Hand Tools' } } } },
    ]);
    expect(updateCategory({ name: 'Tools' }, category)).toEqual([]);
  });
  it('refuses to delete a category with items', () => {
    expect(() => deleteCategory({ ...category, itemCount: 2 })).toThrow('Category is not empty');
    expect(deleteCategory(category)).toEqual([{ type: 'CategoryDeleted', data: { name: 'Tools' } }]);
  });
});
