// One fold per aggregate (shared/inventory-fold.ts): a screen patching its item or category
// with pushed events ends where the server's fold of the same events ends, for random
// histories decided by the server's own decisions.
import fc from 'fast-check';
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import type { Category, Item } from '../../shared/inventory.js';
import type { CategoryEvent, InventoryEvent, ItemFields } from '../../shared/inventory-events.js';
import { evolveCategory, type FoldedCategory } from '../../shared/inventory-fold.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { applyToItem, reduceOverview } from '../../client/features/inventory/live-reducers.js';
import { adjustStock, createItem, updateItem } from '../../server/inventory/decide.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { stateToItem } from '../../server/inventory/item-rows.js';
import { createCategory, updateCategory } from '../../server/categories/decide.js';

type ItemCommand = { kind: 'adjust'; delta: number } | { kind: 'edit'; changes: Partial<ItemFields> };

const itemCommand: fc.Arbitrary<ItemCommand> = fc.oneof(
  fc.record({ kind: fc.constant('adjust' as const), delta: fc.integer({ min: -9, max: 9 }).filter((d) => d !== 0) }),
  fc.record({
    kind: fc.constant('edit' as const),
    changes: fc.record(
      {
        name: fc.constantFrom('Rice', 'Beans', 'Oats'),
        description: fc.constantFrom('', 'Dry goods'),
        sku: fc.constantFrom('R-1', 'R-2'),
        categoryId: fc.constantFrom('c1', 'c2'),
        quantity: fc.nat(12),
        price: fc.integer({ min: 0, max: 9999 }).map((c) => c / 100),
        threshold: fc.nat(8),
        imageUrl: fc.constantFrom(null, 'https://img.example.com/rice.png'),
        expiryDate: fc.constantFrom(null, '2031-05-06'),
        barcode: fc.constantFrom(null, 'TAG 7'),
      },
      { requiredKeys: [] },
    ),
  }),
);

const feedEvent = (
  stream: string,
  event: InventoryEvent | CategoryEvent,
  version: number,
  time: string,
): FeedEvent => ({
  type: event.type,
  stream,
  streamType: stream.split('-')[0]!,
  version,
  data: event.data,
  actor: { uid: 'u1', name: 'Una' },
  time,
});

describe('the shared item fold', () => {
  it('leaves a live screen item where the server fold leaves the item', () => {
    fc.assert(
      fc.property(fc.array(itemCommand, { maxLength: 25 }), (commands) => {
        const fields: ItemFields = {
          name: 'Rice',
          description: '',
          sku: 'R-1',
          categoryId: 'c1',
          quantity: 4,
          price: 2.5,
          threshold: 3,
          imageUrl: null,
          expiryDate: null,
          barcode: null,
        };
        let version = 0;
        let minute = 0;
        let state: ItemState | null = null;
        let screen: Item | null = null;
        const decided = (events: InventoryEvent[]) => {
          // One command's events are written together, at one time.
          const at = new Date(Date.UTC(2030, 0, 1, 0, ++minute));
          for (const event of events) {
            state = evolveItem(state, event, { version: ++version, at });
            if (!screen) screen = stateToItem(state!, 'Pantry');
            else
              screen = produce(
                screen,
                (draft) => void applyToItem(draft, feedEvent('item-i1', event, version, at.toISOString())),
              );
          }
        };
        decided(createItem({ itemId: 'i1', fields }, null));
        for (const command of commands) {
          try {
            decided(
              command.kind === 'adjust'
                ? adjustStock({ delta: command.delta, reason: 'sale', note: null }, state)
                : updateItem(command, state),
            );
          } catch {
            // Refused (stock below 0): nothing was written.
          }
        }
        // A moved item's category name comes from a refetch; the screen keeps the one it had.
        expect(screen).toEqual(stateToItem(state!, 'Pantry'));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves a listed category where the server fold leaves it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.option(fc.constantFrom('Pantry', 'Dairy', 'Bakery')),
            description: fc.option(fc.constantFrom('', 'Shelf 3')),
          }),
          { maxLength: 10 },
        ),
        (edits) => {
          let version = 0;
          let state: FoldedCategory<string> | null = null;
          let screen = { categories: [] as Category[] };
          const apply = (events: CategoryEvent[]) => {
            for (const event of events) {
              const time = new Date(Date.UTC(2030, 0, 1, 0, ++version)).toISOString();
              state = evolveCategory(state, event, { version, at: time });
              screen = produce(
                screen,
                (draft) => void reduceOverview(draft, feedEvent('category-c1', event, version, time)),
              );
            }
          };
          apply(createCategory({ categoryId: 'c1', name: 'Pantry', description: '' }));
          for (const edit of edits) {
            const current = state!;
            apply(
              updateCategory(
                {
                  ...(edit.name ? { name: edit.name } : {}),
                  ...(edit.description !== null ? { description: edit.description } : {}),
                },
                { ...current, itemCount: 0 },
              ),
            );
          }
          const { id, name, description, version: v, createdAt, updatedAt } = state!;
          expect(screen.categories).toEqual([
            { id, name, description, itemCount: 0, version: v, createdAt, updatedAt },
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
