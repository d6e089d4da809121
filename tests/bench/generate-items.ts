// Makes benchmark data through the event store (events plus inline projections), in
// batches of many items per transaction so a million items take minutes, not hours.
// Several writers run at once, each with its own categories and roll-up shards, so their
// transactions never wait on each other's rows.
import { randomUUID } from 'node:crypto';
import { categoryStream, itemStream } from '../../shared/inventory-events.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import { createCategory } from '../../server/categories/decide.js';
import { createItem } from '../../server/inventory/decide.js';

const adjectives = [
  'Red',
  'Blue',
  'Compact',
  'Wireless',
  'Organic',
  'Heavy',
  'Slim',
  'Classic',
  'Smart',
  'Eco',
  'Large',
  'Mini',
];
const nouns = [
  'Mouse',
  'Keyboard',
  'Shirt',
  'Coffee',
  'Bottle',
  'Lamp',
  'Cable',
  'Jacket',
  'Tea',
  'Charger',
  'Blanket',
  'Speaker',
];
export const WORDS = [...adjectives, ...nouns].map((w) => w.toLowerCase());

const meta = { actor: { uid: 'bench', name: 'Bench Generator' }, correlationId: 'bench-generate' };
const CATEGORIES = 20;
const BATCH = 500;

/**
 * An item id whose last hex digit belongs to writer w: the dashboard's daily roll-up is
 * sharded by that digit, so writers never lock the same roll-up rows (nor deadlock on them).
 */
function idOfWriter(w: number, writers: number): string {
  for (;;) {
    const id = randomUUID();
    if (parseInt(id.slice(-1), 16) % writers === w) return id;
  }
}

export interface GenerateOptions {
  /** Number of the first item: names and SKUs stay unique when a store is filled in steps. */
  start?: number;
  /** Transactions in flight at once (1 for PGlite, which has one connection). */
  writers?: number;
  log?: (s: string) => void;
}

export class BenchCatalog {
  private categoryIds: string[] = [];
  private vocabularyKnown = false;
  constructor(private readonly store: EventStore) {}

  private async categories(): Promise<string[]> {
    if (this.categoryIds.length) return this.categoryIds;
    for (let c = 0; c < CATEGORIES; c++) {
      const categoryId = randomUUID();
      await this.store.append(
        categoryStream(categoryId),
        0,
        createCategory({ categoryId, name: `Bench Category ${c}`, description: '' }),
        meta,
      );
      this.categoryIds.push(categoryId);
    }
    return this.categoryIds;
  }

  /** Adds `count` items; returns their ids. */
  async addItems(count: number, options: GenerateOptions = {}): Promise<string[]> {
    const { start = 0, writers = 1, log = () => {} } = options;
    const categoryIds = await this.categories();
    const ids: string[] = [];
    const batches = Math.ceil(count / BATCH);
    let next = 0;
    let done = 0;
    const started = Date.now();
    const runBatch = async (b: number, w: number) => {
      // Writer w only uses categories c with c % writers === w.
      const own = categoryIds.filter((_, c) => c % writers === w);
      await this.store.transact(async (_trx, append) => {
        for (let i = start + b * BATCH; i < start + Math.min(count, (b + 1) * BATCH); i++) {
          const itemId = idOfWriter(w, writers);
          const fields = {
            name: `${adjectives[i % adjectives.length]} ${nouns[Math.floor(i / adjectives.length) % nouns.length]} ${i}`,
            description: `Bench item number ${i}`,
            sku: `BENCH-${i}`,
            categoryId: own[i % own.length]!,
            quantity: 50 + (i % 100),
            price: 1 + (i % 500),
            threshold: 10,
            imageUrl: null,
            expiryDate: null,
            barcode: null,
          };
          await append(itemStream(itemId), 0, createItem({ itemId, fields }, null), meta);
          ids.push(itemId);
        }
      });
      done++;
      if (done % 100 === 0)
        log(
          `  generated ${(done * BATCH).toLocaleString()} items (${Math.round((done * BATCH) / ((Date.now() - started) / 1000))}/s)`,
        );
    };
    if (!this.vocabularyKnown && batches > 0) {
      // The first batch alone: it commits every word of the vocabulary to the search
      // dictionary, so the writers never wait on (or deadlock over) each other's new words.
      await runBatch(next++, 0);
      this.vocabularyKnown = true;
    }
    const writer = async (w: number) => {
      for (let b = next++; b < batches; b = next++) await runBatch(b, w);
    };
    await Promise.all(Array.from({ length: Math.min(writers, CATEGORIES) }, (_, w) => writer(w)));
    return ids;
  }
}
