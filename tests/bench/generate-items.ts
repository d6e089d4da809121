// Makes benchmark data through the event store (events plus inline projections), in
// batches of many items per transaction so a million items take minutes, not hours.
import { randomUUID } from 'node:crypto';
import { categoryStream, itemStream } from '../../shared/inventory-events.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import { createCategory } from '../../server/categories/decide.js';
import { createItem } from '../../server/inventory/decide.js';

const adjectives = ['Red', 'Blue', 'Compact', 'Wireless', 'Organic', 'Heavy', 'Slim', 'Classic', 'Smart', 'Eco', 'Large', 'Mini'];
const nouns = ['Mouse', 'Keyboard', 'Shirt', 'Coffee', 'Bottle', 'Lamp', 'Cable', 'Jacket', 'Tea', 'Charger', 'Blanket', 'Speaker'];
export const WORDS = [...adjectives, ...nouns].map((w) => w.toLowerCase());

const meta = { actor: { uid: 'bench', name: 'Bench Generator' }, correlationId: 'bench-generate' };

export async function generateItems(store: EventStore, count: number, log: (s: string) => void = () => {}): Promise<string[]> {
  const categoryIds: string[] = [];
  for (let c = 0; c < 20; c++) {
    const categoryId = randomUUID();
    await store.append(categoryStream(categoryId), 0, createCategory({ categoryId, name: `Bench Category ${c}`, description: '' }), meta);
    categoryIds.push(categoryId);
  }
  const ids: string[] = [];
  const batch = 500;
  const started = Date.now();
  for (let done = 0; done < count; done += batch) {
    await store.transact(async (_trx, append) => {
      for (let i = done; i < Math.min(count, done + batch); i++) {
        const itemId = randomUUID();
        const fields = {
          name: `${adjectives[i % adjectives.length]} ${nouns[Math.floor(i / adjectives.length) % nouns.length]} ${i}`,
          description: `Bench item number ${i}`,
          sku: `BENCH-${i}`,
          categoryId: categoryIds[i % categoryIds.length]!,
          quantity: 50 + (i % 100),
          price: 1 + (i % 500),
          threshold: 10,
          imageUrl: null,
          expiryDate: null,
        };
        await append(itemStream(itemId), 0, createItem({ itemId, fields }, null), meta);
        ids.push(itemId);
      }
    });
    if ((done / batch) % 100 === 0 && done > 0) {
      log(`  generated ${done.toLocaleString()} items (${Math.round(done / ((Date.now() - started) / 1000))}/s)`);
    }
  }
  return ids;
}
