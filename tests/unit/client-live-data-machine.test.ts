// The live data machines: load a snapshot, apply pushed events with immer (each only once,
// by version), refetch when an event can't be applied or the feed says snapshot-required,
// never overlap loads, and fold the screen's own writes back in.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { Category, CategoryItemsPage, Item } from '../../shared/inventory.js';
import type { FeedEvent } from '../../shared/realtime.js';
import { ApiError } from '../../client/lib/api-client.js';
import {
  categoryPageMachine,
  pendingDeltas,
  type CategoryPageParams,
} from '../../client/features/inventory/category-page.machine.js';
import { inventoryOverviewMachine } from '../../client/features/inventory/inventory-overview.machine.js';
import { itemDetailMachine } from '../../client/features/inventory/item-detail.machine.js';
import type { CategoryPageData, ItemDetailData, OverviewData } from '../../client/features/inventory/live-reducers.js';

function item(overrides: Partial<Item> = {}): Item {
  return {
    id: 'i1',
    name: 'Cold Brew',
    description: '',
    sku: 'FB-1',
    category: 'Drinks',
    categoryId: 'c1',
    category_id: 'c1',
    quantity: 5,
    price: 4.5,
    threshold: 3,
    imageUrl: null,
    image_url: null,
    expiryDate: null,
    barcode: null,
    createdAt: '2030-01-01T00:00:00Z',
    updatedAt: '2030-01-01T00:00:00Z',
    version: 2,
    ...overrides,
  };
}

function category(overrides: Partial<Category> = {}): Category {
  return {
    id: 'c1',
    name: 'Drinks',
    description: '',
    itemCount: 1,
    createdAt: '',
    updatedAt: '',
    version: 1,
    ...overrides,
  };
}

function event(stream: string, type: string, version: number, data: unknown): FeedEvent {
  return {
    stream,
    streamType: stream.split('-')[0]!,
    type,
    version,
    data,
    actor: { uid: 'u2', name: 'Other' },
    time: '2030-01-02T00:00:00Z',
  };
}

type FeedSend = (e: { type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' }) => void;

/** A fake feed whose events the test pushes. */
function fakeFeed() {
  const feed = { send: (() => undefined) as FeedSend };
  const actor = fromCallback<{ type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' }>(({ sendBack }) => {
    feed.send = sendBack as FeedSend;
    return () => undefined;
  });
  return { feed, actor };
}

function page(items: Item[], overrides: Partial<CategoryItemsPage> = {}): CategoryItemsPage {
  return { items, total: items.length, page: 1, pageSize: 12, totalPages: 1, ...overrides };
}

const params: CategoryPageParams = { categoryId: 'c1', q: '', sort: 'name', order: 'asc', page: 1 };

describe('category page live data', () => {
  function startCategoryPage(loader: () => Promise<CategoryPageData>, runWrite?: (write: unknown) => Promise<unknown>) {
    const { feed, actor: feedActor } = fakeFeed();
    const loads = vi.fn(loader);
    const actor = createActor(
      categoryPageMachine.provide({
        actors: {
          load: fromPromise(() => loads()),
          feed: feedActor,
          ...(runWrite
            ? {
                write: fromCallback<any, any>(({ input, sendBack }) => {
                  runWrite(input.write).then(
                    (result) => sendBack({ type: 'WRITE_DONE', id: input.id, result }),
                    (error) => sendBack({ type: 'WRITE_FAILED', id: input.id, error: (error as Error).message }),
                  );
                }),
              }
            : {}),
        },
      }),
      { input: { params } },
    );
    actor.start();
    return { actor, feed, loads };
  }

  it('loads the snapshot, then applies a stock adjustment pushed by someone else', async () => {
    const { actor, feed, loads } = startCategoryPage(async () => ({ category: category(), page: page([item()]) }));
    await waitFor(actor, (s) => s.matches('ready'));
    const before = actor.getSnapshot().context.data!;
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'StockAdjusted', 3, { delta: 1, reason: 'correction', note: null, quantity: 6 }),
    });
    const after = actor.getSnapshot().context.data!;
    expect(after.page.items[0]!.quantity).toBe(6);
    expect(after.page.items[0]!.version).toBe(3);
    // immer: a new object for what changed, the old snapshot untouched.
    expect(before.page.items[0]!.quantity).toBe(5);
    expect(after.category).toBe(before.category);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('ignores an event it already has (a replay after reconnecting)', async () => {
    const { actor, feed } = startCategoryPage(async () => ({
      category: category(),
      page: page([item({ version: 5, quantity: 9 })]),
    }));
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'StockAdjusted', 4, { delta: -1, reason: 'sale', note: null, quantity: 8 }),
    });
    expect(actor.getSnapshot().context.data!.page.items[0]!.quantity).toBe(9);
  });

  it('applies field changes from ItemUpdated', async () => {
    const { actor, feed } = startCategoryPage(async () => ({ category: category(), page: page([item()]) }));
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'ItemUpdated', 3, {
        changes: {
          name: { from: 'Cold Brew', to: 'Cold Brew Coffee' },
          imageUrl: { from: null, to: 'https://x/y.png' },
        },
      }),
    });
    const updated = actor.getSnapshot().context.data!.page.items[0]!;
    expect(updated.name).toBe('Cold Brew Coffee');
    expect(updated.imageUrl).toBe('https://x/y.png');
    expect(updated.image_url).toBe('https://x/y.png');
  });

  it('refetches the page when an item is added to the category, coalescing a burst into one load', async () => {
    let n = 0;
    const { actor, feed, loads } = startCategoryPage(async () => ({
      category: category(),
      page: page(n++ === 0 ? [item()] : [item(), item({ id: 'i2', name: 'Tea' })]),
    }));
    await waitFor(actor, (s) => s.matches('ready'));
    for (const id of ['i2', 'i3', 'i4']) {
      feed.send({ type: 'FEED_EVENT', event: event(`item-${id}`, 'ItemCreated', 1, { categoryId: 'c1', name: id }) });
    }
    await waitFor(actor, (s) => s.context.data!.page.items.length === 2 && s.matches({ ready: 'idle' }));
    expect(loads).toHaveBeenCalledTimes(2);
  });

  it('ignores items of other categories', async () => {
    const { actor, feed, loads } = startCategoryPage(async () => ({ category: category(), page: page([item()]) }));
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({ type: 'FEED_EVENT', event: event('item-i9', 'ItemCreated', 1, { categoryId: 'c2', name: 'x' }) });
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i9', 'StockAdjusted', 2, { delta: 1, reason: 'sale', note: null, quantity: 1 }),
    });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it('loads once more when an event for the screen arrives during a load (no overlapping loads)', async () => {
    let release!: () => void;
    let inFlight = 0;
    let maxInFlight = 0;
    let n = 0;
    const { actor, feed, loads } = startCategoryPage(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (n++ === 0) await new Promise<void>((r) => (release = r));
      inFlight--;
      return { category: category(), page: page([item({ quantity: n === 1 ? 5 : 7, version: n === 1 ? 2 : 4 })]) };
    });
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'StockAdjusted', 3, { delta: 1, reason: 'sale', note: null, quantity: 6 }),
    });
    feed.send({ type: 'RESYNC' });
    release();
    await waitFor(actor, (s) => s.matches('ready') && s.context.data!.page.items[0]!.quantity === 7);
    expect(loads).toHaveBeenCalledTimes(2);
    expect(maxInFlight).toBe(1);
  });

  it('refetches on snapshot-required (RESYNC)', async () => {
    const { actor, feed, loads } = startCategoryPage(async () => ({ category: category(), page: page([item()]) }));
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({ type: 'RESYNC' });
    expect(actor.getSnapshot().matches({ ready: 'scheduled' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && loads.mock.calls.length === 2);
  });

  it('an event that arrives while a refetch is out is not undone by its older answer', async () => {
    // Answers: the first load, then a refetch read before the event's commit (still 5), then the next read (6).
    const answers = [5, 5, 6];
    let release = () => undefined as void;
    let n = 0;
    const { actor, feed, loads } = startCategoryPage(async () => {
      const quantity = answers[n]!;
      const version = quantity === 6 ? 3 : 2;
      if (n++ === 1) await new Promise<void>((r) => (release = r));
      return { category: category(), page: page([item({ quantity, version })]) };
    });
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    feed.send({ type: 'RESYNC' });
    await waitFor(actor, (s) => s.matches({ ready: 'fetching' }));
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'StockAdjusted', 3, { delta: 1, reason: 'restock', note: null, quantity: 6 }),
    });
    expect(actor.getSnapshot().context.data!.page.items[0]!.quantity).toBe(6); // shown at once
    release();
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && loads.mock.calls.length === 3);
    expect(actor.getSnapshot().context.data!.page.items[0]!.quantity).toBe(6);
  });

  it("shows 'Category Not Found' for a 404 and when the category is deleted", async () => {
    const missing = startCategoryPage(() => Promise.reject(new ApiError('Category not found', 404)));
    await waitFor(missing.actor, (s) => s.matches('notFound'));

    const { actor, feed } = startCategoryPage(async () => ({ category: category(), page: page([item()]) }));
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({ type: 'FEED_EVENT', event: event('category-c1', 'CategoryDeleted', 2, { name: 'Drinks' }) });
    expect(actor.getSnapshot().value).toBe('notFound');
  });

  it('shows a load error with its message and recovers on RETRY', async () => {
    let fail = true;
    const { actor } = startCategoryPage(() =>
      fail
        ? Promise.reject(new ApiError('All retry attempts failed', 0))
        : Promise.resolve({ category: category(), page: page([]) }),
    );
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe('All retry attempts failed');
    expect(actor.getSnapshot().context.data).toBeNull();
    fail = false;
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.matches('ready'));
  });

  it('runs +/- writes, tracks them while pending, and folds the result in', async () => {
    let finish!: (value: Item) => void;
    const { actor } = startCategoryPage(
      async () => ({ category: category(), page: page([item()]) }),
      () => new Promise<Item>((r) => (finish = r)),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'WRITE', id: 'w1', write: { kind: 'adjust', itemId: 'i1', name: 'Cold Brew', delta: -1 } });
    expect(pendingDeltas(actor.getSnapshot().context.writes)).toEqual({ i1: -1 });
    finish(item({ quantity: 4, version: 3 }));
    await waitFor(actor, (s) => Object.keys(s.context.writes).length === 0);
    expect(actor.getSnapshot().context.data!.page.items[0]!.quantity).toBe(4);
  });

  it('marks a refused write failed, keeps the data, and says why', async () => {
    const { actor } = startCategoryPage(
      async () => ({ category: category(), page: page([item({ quantity: 0 })]) }),
      () => Promise.reject(new Error('Insufficient stock')),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'WRITE', id: 'w1', write: { kind: 'adjust', itemId: 'i1', name: 'Cold Brew', delta: -1 } });
    await waitFor(actor, (s) => s.context.writes.w1?.status === 'failed');
    expect(actor.getSnapshot().context.writes.w1!.error).toBe('Insufficient stock');
    expect(actor.getSnapshot().context.data!.page.items[0]!.quantity).toBe(0);
  });
});

describe('inventory page live data', () => {
  it('keeps category counts current from item and category events', async () => {
    const { feed, actor: feedActor } = fakeFeed();
    const loads = vi.fn(async (): Promise<OverviewData> => ({
      categories: [category({ itemCount: 2 }), category({ id: 'c2', name: 'Snacks', itemCount: 0 })],
    }));
    const actor = createActor(
      inventoryOverviewMachine.provide({ actors: { load: fromPromise(() => loads()), feed: feedActor } }),
      { input: { params: null } },
    );
    actor.start();
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({ type: 'FEED_EVENT', event: event('item-i5', 'ItemCreated', 1, { categoryId: 'c2', name: 'Chips' }) });
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'ItemUpdated', 3, { changes: { categoryId: { from: 'c1', to: 'c2' } } }),
    });
    feed.send({
      type: 'FEED_EVENT',
      event: event('category-c3', 'CategoryCreated', 1, { categoryId: 'c3', name: 'Bakery', description: '' }),
    });
    feed.send({
      type: 'FEED_EVENT',
      event: event('category-c1', 'CategoryUpdated', 2, { changes: { name: { from: 'Drinks', to: 'Beverages' } } }),
    });
    const counts = Object.fromEntries(actor.getSnapshot().context.data!.categories.map((c) => [c.name, c.itemCount]));
    expect(counts).toEqual({ Beverages: 1, Snacks: 2, Bakery: 0 });
    expect(loads).toHaveBeenCalledTimes(1);
    // A deleted item doesn't say its category: ask the server.
    feed.send({ type: 'FEED_EVENT', event: event('item-i5', 'ItemDeleted', 2, { name: 'Chips', sku: 'S' }) });
    await waitFor(actor, () => loads.mock.calls.length === 2);
  });
});

describe('item page live data', () => {
  it('patches the item at once, then refetches for the history, and shows Item Not Found when deleted', async () => {
    const { feed, actor: feedActor } = fakeFeed();
    const loads = vi.fn(async (): Promise<ItemDetailData> => ({
      item: item(),
      history: [],
      categoryNames: { c1: 'Drinks' },
      places: { itemId: 'i1', total: 5, inTransit: 0, locations: [] },
      sites: [],
      siteLocations: [],
    }));
    const actor = createActor(
      itemDetailMachine.provide({ actors: { load: fromPromise(() => loads()), feed: feedActor } }),
      { input: { params: { id: 'i1', siteId: null } } },
    );
    actor.start();
    await waitFor(actor, (s) => s.matches('ready'));
    feed.send({
      type: 'FEED_EVENT',
      event: event('item-i1', 'StockAdjusted', 3, { delta: -3, reason: 'sale', note: null, quantity: 2 }),
    });
    expect(actor.getSnapshot().context.data!.item.quantity).toBe(2);
    expect(actor.getSnapshot().matches({ ready: 'scheduled' })).toBe(true);
    await waitFor(actor, () => loads.mock.calls.length === 2);
    feed.send({ type: 'FEED_EVENT', event: event('item-i1', 'ItemDeleted', 9, { name: 'Cold Brew', sku: 'FB-1' }) });
    expect(actor.getSnapshot().value).toBe('notFound');
  });
});
