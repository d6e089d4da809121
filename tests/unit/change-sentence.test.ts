// The sentence a change reads as, everywhere it is shown (shared/change-sentence.ts): an
// adjustment's delta, reason, item, who and note; an edit's fields old → new, prices in the
// store's currency and locale; a revert naming what it takes back; and a guest's copy naming
// nobody.
import { describe, expect, it } from 'vitest';
import { describeChange, sentenceText, withoutAuthor, type ChangeFacts } from '../../shared/change-sentence.js';

const say = (facts: ChangeFacts, who: string | null = 'Sam') => sentenceText(describeChange(facts, who));

describe('the sentence of a change', () => {
  const sale: ChangeFacts = {
    type: 'StockAdjusted',
    data: { delta: -5, reason: 'sale', note: 'table 4', quantity: 7 },
    subject: 'Crème fraîche 1 kg',
  };

  it('says an adjustment: signed delta, reason, item, who, note', () => {
    expect(say(sale)).toBe('-5 (sale) Crème fraîche 1 kg, by Sam, note: table 4');
    expect(say({ ...sale, data: { delta: 12, reason: 'restock', note: null, quantity: 19 } })).toBe(
      '+12 (restock) Crème fraîche 1 kg, by Sam',
    );
    expect(say({ ...sale, data: { delta: -1, reason: 'damage', note: '   ', quantity: 6 } })).toBe(
      '-1 (damage) Crème fraîche 1 kg, by Sam',
    );
  });

  it('emphasises the delta, the item, who and the note', () => {
    const roles = describeChange(sale, 'Sam')
      .filter((p) => p.role)
      .map((p) => [p.role, p.text]);
    expect(roles).toEqual([
      ['delta', '-5'],
      ['subject', 'Crème fraîche 1 kg'],
      ['who', 'Sam'],
      ['note', 'table 4'],
    ]);
  });

  it('says an edit field by field, old → new, in a fixed order, prices with two decimals', () => {
    const edit: ChangeFacts = {
      type: 'ItemUpdated',
      data: {
        changes: {
          threshold: { from: 5, to: 8 },
          price: { from: 4.5, to: 4.9 },
          categoryId: { from: 'c1', to: 'c2' },
          barcode: { from: null, to: '4006381333931' },
          imageUrl: { from: 'https://x/a.png', to: null },
          description: { from: '', to: 'A very long description that goes on and on past the cut' },
        },
      },
      subject: 'Cream',
      names: { c1: 'Dairy', c2: 'Chilled' },
    };
    expect(say(edit)).toBe(
      'Edited Cream: Category Dairy → Chilled, Price 4.50 → 4.90, Threshold 5 → 8, Barcode (none) → 4006381333931, ' +
        'Description (none) → “A very long description that goes on an…”, Picture removed, by Sam',
    );
  });

  it("writes prices in the store's currency and locale of the change", () => {
    const edit: ChangeFacts = {
      type: 'ItemUpdated',
      data: { changes: { price: { from: 4.5, to: 1234.5 } } },
      subject: 'Cream',
    };
    expect(say({ ...edit, money: { currency: 'USD', locale: 'en-US' } })).toBe(
      'Edited Cream: Price $4.50 → $1,234.50, by Sam',
    );
    // French: a decimal comma, a narrow no-break space to group, a no-break space before the sign.
    expect(say({ ...edit, money: { currency: 'EUR', locale: 'fr-FR' } })).toBe(
      'Edited Cream: Price 4,50\u00a0€ → 1\u202f234,50\u00a0€, by Sam',
    );
    expect(say({ ...edit, money: { currency: 'EUR', locale: 'en-IE' } })).toBe(
      'Edited Cream: Price €4.50 → €1,234.50, by Sam',
    );
    // A currency without minor units is written without them.
    const yen = {
      type: 'ItemCreated',
      data: { name: 'Tea', categoryId: 'c1', quantity: 3, price: 450, threshold: 1 },
      subject: 'Tea',
      names: { c1: 'Drinks' },
    };
    expect(say({ ...yen, money: { currency: 'JPY', locale: 'ja-JP' } })).toBe(
      'Created Tea in Drinks: 3 in stock, price ￥450, threshold 1, by Sam',
    );
    // A revert that puts a price back says it in the same money.
    const back: ChangeFacts = {
      ...edit,
      data: { changes: { price: { from: 5, to: 4.5 } } },
      revert: { original: edit, reason: null },
      money: { currency: 'GBP', locale: 'en-GB' },
    };
    expect(say(back, 'Mona')).toBe('Reverted edit of Cream: Price £5.00 → £4.50, by Mona');
  });

  it('says creations and deletions with what they held', () => {
    expect(
      say({
        type: 'ItemCreated',
        data: { name: 'Cream', categoryId: 'c1', quantity: 12, price: 3, threshold: 4 },
        subject: 'Cream',
        names: { c1: 'Dairy' },
      }),
    ).toBe('Created Cream in Dairy: 12 in stock, price 3.00, threshold 4, by Sam');
    expect(say({ type: 'ItemDeleted', data: { name: 'Cream', sku: 'CR-1' }, subject: 'Cream' })).toBe(
      'Deleted Cream (SKU CR-1), by Sam',
    );
    expect(
      say({
        type: 'CategoryUpdated',
        data: { changes: { name: { from: 'Dairy', to: 'Chilled' } } },
        subject: 'Chilled',
      }),
    ).toBe('Edited category Chilled: Name Dairy → Chilled, by Sam');
  });

  it('says a revert by what it takes back, and why; a revert of a revert too', () => {
    const revert: ChangeFacts = {
      type: 'StockAdjusted',
      data: { delta: 5, reason: 'correction', note: null, quantity: 12 },
      subject: 'Crème fraîche 1 kg',
      revert: { original: sale, reason: 'wrong item' },
    };
    expect(say(revert, 'Mona')).toBe('Reverted -5 (sale) Crème fraîche 1 kg, by Mona, why: wrong item');
    const again: ChangeFacts = {
      ...revert,
      data: { delta: -5, reason: 'correction', note: null },
      revert: { original: revert, reason: null },
    };
    expect(say(again, 'Sam')).toBe('Reverted revert of -5 (sale) Crème fraîche 1 kg, by Sam');
    const editBack: ChangeFacts = {
      type: 'ItemUpdated',
      data: { changes: { price: { from: 4.9, to: 4.5 } } },
      subject: 'Cream',
      revert: {
        original: { type: 'ItemUpdated', data: { changes: { price: { from: 4.5, to: 4.9 } } }, subject: 'Cream' },
        reason: null,
      },
    };
    expect(say(editBack, 'Mona')).toBe('Reverted edit of Cream: Price 4.90 → 4.50, by Mona');
    expect(say({ ...editBack, revert: { original: null, reason: null } }, 'Mona')).toBe(
      'Reverted an earlier change to Cream: Price 4.90 → 4.50, by Mona',
    );
  });

  it('says where an import came from, and names nobody for a guest', () => {
    expect(say({ ...sale, data: { delta: 3, reason: 'restock', note: null }, importFile: 'stock.csv' })).toBe(
      '+3 (restock) Crème fraîche 1 kg, by Sam (Imported from stock.csv)',
    );
    expect(sentenceText(withoutAuthor(describeChange(sale, 'Sam'), 'Staff member'))).toBe(
      '-5 (sale) Crème fraîche 1 kg, by Staff member, note: table 4',
    );
  });

  it('says a stocktake approval line by line, the rest counted', () => {
    const lines = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((itemId) => ({
      itemId,
      countId: 'x',
      counted: 3,
      countedAt: '',
      adjustmentVersion: 2,
    }));
    const names = Object.fromEntries(lines.map((l) => [l.itemId, l.itemId.toUpperCase()]));
    const lineDeltas = { a: -2, b: 1, c: 0, d: null, e: 4, f: 1, g: 1 };
    expect(
      say({ type: 'StocktakeLinesApproved', data: { lines }, subject: 'Shelf 1', names, lineDeltas }, 'Mona'),
    ).toBe('Approved stocktake Shelf 1: A -2, B +1, C ±0, D counted 3, E +4, and 2 more, by Mona');
  });

  it('says whose counts a stocktake posted, one part for all of them', () => {
    const lines = [{ itemId: 'a', countId: 'x', counted: 38, countedAt: '', adjustmentVersion: 4 }];
    const approval: ChangeFacts = {
      type: 'StocktakeLinesApproved',
      data: { lines },
      subject: 'Cellar',
      names: { a: 'White Wine' },
      lineDeltas: { a: -2 },
      countedBy: ['Olga Other', 'Stan Staff'],
    };
    expect(say(approval, 'Mona')).toBe(
      'Approved stocktake Cellar: White Wine -2, counted by Olga Other, Stan Staff, by Mona',
    );
    expect(sentenceText(withoutAuthor(describeChange(approval, 'Mona'), 'Staff member'))).toBe(
      'Approved stocktake Cellar: White Wine -2, counted by Staff member, by Staff member',
    );
    const posted: ChangeFacts = {
      type: 'StockAdjusted',
      data: { delta: -2, reason: 'count', note: 'Stocktake Cellar' },
      subject: 'White Wine',
      countedBy: ['Stan Staff'],
    };
    expect(say(posted, 'Mona')).toBe('-2 (count) White Wine, counted by Stan Staff, by Mona, note: Stocktake Cellar');
  });

  it('names nobody for low-stock facts', () => {
    expect(say({ type: 'ItemWentLow', data: { quantity: 3, threshold: 5 }, subject: 'Cream' }, null)).toBe(
      'Cream is low on stock: 3 left, threshold 5',
    );
  });
});
