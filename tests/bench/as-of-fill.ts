// The as-of bench's store: 20 categories, `items` items (1,000 in stock, threshold 5), then rounds of one adjustment per
// item (-3, +3, ...) until `events` events, spread evenly over the last 90 days in log order.
// Every event comes from the app's own decisions (createCategory, createItem, adjustStock
// folded with evolveItem, so crossings appear where the app would emit them), and is written
// with the time it would have had through the append statement's own projection forms
// (backdated-append.ts), up to 10,000 events to a statement: a million events take minutes
// where the app's clock-stamped append, 500 at a time, took over 20.
import { randomUUID } from 'node:crypto';
import { categoryStream, itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import { createCategory } from '../../server/categories/decide.js';
import { adjustStock, createItem } from '../../server/inventory/decide.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import { appendBackdated, type BackdatedEvent } from './backdated-append.js';

const DAY = 86_400_000;
const CATEGORIES = 20;
/** Events per statement: many, to amortize each form's fixed cost; 7 bind parameters each stay under 65,535. */
const BATCH = 9_000;
const meta = { actor: { uid: 'bench', name: 'Bench' }, correlationId: 'bench-as-of' };

export interface AsOfFill {
  itemIds: string[];
  /** Time of the first and the last event. */
  from: Date;
  to: Date;
}

/** Stamps the app's events for one stream with their stream versions and a moment. */
function stamped(
  stream: { id: string; type: string },
  state: ItemState | null,
  made: InventoryEvent[],
  createdAt: Date,
) {
  const out: BackdatedEvent[] = [];
  let s = state;
  for (const e of made) {
    const version = (s?.version ?? 0) + 1;
    s = evolveItem(s, e, { version, at: createdAt, streamId: stream.id });
    out.push({
      streamId: stream.id,
      streamType: stream.type,
      streamVersion: version,
      type: e.type,
      data: e.data,
      createdAt,
    });
  }
  return { state: s!, out };
}

/** The store's events in log order, each with its moment on the 90-day line ending at `end`. */
function* history(
  categoryIds: string[],
  itemIds: string[],
  events: number,
  end: number,
  quantity: number,
): Generator<BackdatedEvent> {
  const start = end - 90 * DAY;
  const step = (90 * DAY) / Math.max(1, events);
  let k = 0;
  const next = () => new Date(Math.floor(start + step * k++));
  const categoriesAt = new Date(start);
  for (const [c, categoryId] of categoryIds.entries()) {
    const [created] = createCategory({ categoryId, name: `As-of Category ${c}`, description: '' });
    const stream = categoryStream(categoryId);
    yield {
      streamId: stream.id,
      streamType: stream.type,
      streamVersion: 1,
      type: created!.type,
      data: created!.data,
      createdAt: categoriesAt,
    };
  }
  const states: ItemState[] = [];
  for (const [i, itemId] of itemIds.entries()) {
    const fields = {
      name: `As-of item ${i}`,
      description: '',
      sku: `ASOF-${i}`,
      categoryId: categoryIds[i % categoryIds.length]!,
      quantity,
      price: 2.5,
      threshold: 5,
      imageUrl: null,
      expiryDate: null,
      barcode: null,
    };
    const { state, out } = stamped(itemStream(itemId), null, createItem({ itemId, fields }, null), next());
    states.push(state);
    yield* out;
  }
  const rounds = Math.max(1, Math.round((events - itemIds.length) / itemIds.length));
  for (let r = 0; r < rounds; r++) {
    const delta = r % 2 === 0 ? -3 : 3;
    for (const [i, itemId] of itemIds.entries()) {
      const made = adjustStock({ delta, reason: delta < 0 ? 'sale' : 'restock', note: null }, states[i]!);
      const { state, out } = stamped(itemStream(itemId), states[i]!, made, next());
      states[i] = state;
      yield* out;
    }
  }
}

export async function fillAsOfStore(
  store: EventStore,
  options: { items: number; events: number; quantity?: number; log?: (s: string) => void },
): Promise<AsOfFill> {
  const { items, events, quantity = 1000, log = () => {} } = options;
  const end = Date.now();
  const categoryIds = Array.from({ length: CATEGORIES }, () => randomUUID());
  const itemIds = Array.from({ length: items }, () => randomUUID());
  let batch: BackdatedEvent[] = [];
  let written = 0;
  let first: Date | null = null;
  let last: Date | null = null;
  const started = Date.now();
  const flush = async () => {
    await appendBackdated(store, batch, meta);
    written += batch.length;
    if (Math.floor(written / 100_000) !== Math.floor((written - batch.length) / 100_000)) {
      log(`  as-of fill: ${written.toLocaleString('en-US')} events (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    batch = [];
  };
  const dayOf = (d: Date) => Math.floor(d.getTime() / DAY);
  for (const event of history(categoryIds, itemIds, events, end, quantity)) {
    // A statement holds one UTC day of one kind of change (creations, then adjustments):
    // see backdated-append.ts, and the set-based forms' "an item created in a batch has no
    // adjustment in it".
    const prev = batch.at(-1);
    if (
      prev &&
      (batch.length >= BATCH || dayOf(prev.createdAt) !== dayOf(event.createdAt) || kind(prev) !== kind(event))
    )
      await flush();
    batch.push(event);
    first ??= event.createdAt;
    last = event.createdAt;
  }
  await flush();
  return { itemIds, from: first!, to: last! };
}

const kind = (e: BackdatedEvent) =>
  e.streamType === 'category' ? 'category' : e.type === 'ItemCreated' ? 'created' : 'adjusted';
