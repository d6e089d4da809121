// What runs after commit subscribes to committed events (server/subscriptions): every
// subscriber gets every committed event exactly in commit-safe order, batch after batch with
// no gap between them, the next batch only once every subscriber has taken the one before
// (a slow one included), a transaction that commits late is handed on rather than skipped,
// and a batch a subscriber failed to take is handed again rather than lost.
import { describe, expect, it } from 'vitest';
import type { Cursor, StoredEvent } from '../../server/eventstore/types.js';
import { compareCursors } from '../../server/realtime/cursor-order.js';
import type { EncodedEvent } from '../../server/realtime/feed-messages.js';
import { LiveFeed } from '../../server/realtime/live-feed.js';
import { Subscriptions, type BatchSubscriber } from '../../server/subscriptions/subscriptions.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = { error: () => undefined, warn: () => undefined };

/**
 * An event log with the store's read rules: transactions get increasing ids when they begin,
 * their events become readable when they commit, and readAfter returns only events of
 * transactions older than every one still running (the gap-safe cursor's rule).
 */
class FakeLog {
  private readonly committedEvents: StoredEvent[] = [];
  private readonly running = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private nextTx = 100;
  private nextPosition = 1;

  onCommitted(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a transaction; the returned function commits `count` events in it. */
  begin(): (count: number) => void {
    const tx = this.nextTx++;
    this.running.add(tx);
    return (count) => {
      for (let i = 0; i < count; i++) this.committedEvents.push(this.event(tx));
      this.running.delete(tx);
      for (const listener of this.listeners) listener();
    };
  }

  commit(count: number): void {
    this.begin()(count);
  }

  /** Every committed event, in the order readers must see them. */
  get all(): StoredEvent[] {
    return [...this.committedEvents].sort(compareCursors);
  }

  async readAfter(cursor: Cursor, limit = 500): Promise<StoredEvent[]> {
    await sleep(0);
    const xmin = this.running.size ? Math.min(...this.running) : Infinity;
    return this.all.filter((e) => compareCursors(e, cursor) > 0 && Number(e.txId) < xmin).slice(0, limit);
  }

  async headCursor(): Promise<Cursor> {
    const last = this.all.at(-1);
    return last ? { txId: last.txId, position: last.position } : { txId: '0', position: 0 };
  }

  private event(tx: number): StoredEvent {
    const position = this.nextPosition++;
    return {
      position,
      txId: String(tx),
      streamId: `item-${position % 7}`,
      streamType: 'item',
      streamVersion: position,
      eventId: `e${position}`,
      type: 'StockAdjusted',
      data: {},
      metadata: { actor: { uid: 'u', name: 'U' }, correlationId: 'c' },
      createdAt: new Date(0),
    };
  }
}

/** A subscriber that records each batch and checks, as it comes, that it carries on from the one before. */
function recorder(options: { slowMs?: number; failFirst?: number } = {}) {
  const batches: Array<{ events: StoredEvent[]; after: Cursor }> = [];
  let inHand = 0;
  let mostInHand = 0;
  let failures = options.failFirst ?? 0;
  const take: BatchSubscriber = async (events, after) => {
    inHand++;
    mostInHand = Math.max(mostInHand, inHand);
    try {
      if (options.slowMs) await sleep(Math.random() * options.slowMs);
      if (failures > 0) {
        failures--;
        throw new Error('could not take this batch');
      }
      batches.push({ events, after });
    } finally {
      inHand--;
    }
  };
  return {
    take,
    batches,
    get mostInHand() {
      return mostInHand;
    },
    /** Every event taken, in the order taken. */
    get events() {
      return batches.flatMap((b) => b.events);
    },
  };
}

const ids = (events: StoredEvent[]) => events.map((e) => e.eventId);

/** Each batch starts right after the previous one's last event: nothing between them skipped. */
function expectContiguous(batches: Array<{ events: StoredEvent[]; after: Cursor }>, start: Cursor) {
  let last = start;
  for (const { events, after } of batches) {
    expect(after).toEqual(last);
    const end = events.at(-1)!;
    last = { txId: end.txId, position: end.position };
  }
}

async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 500 && !done(); i++) await sleep(10);
  expect(done(), what).toBe(true);
}

describe('subscriptions to committed events', () => {
  it('hands every subscriber every event in order, batch after batch, while commits pour in and one subscriber is slow', async () => {
    const log = new FakeLog();
    log.commit(3); // before start: catch-up's, not the subscribers'
    const subscriptions = new Subscriptions({
      store: log,
      pollMs: 0,
      minGapMs: 1,
      busyShare: 1,
      batchSize: 25,
      log: silent,
    });
    const quick = recorder();
    const slow = recorder({ slowMs: 8 });
    subscriptions.subscribe(quick.take);
    subscriptions.subscribe(slow.take);
    await subscriptions.start();
    const start = await log.headCursor();

    // Commits of 1 to 5 events, some while a long transaction holds later ones back.
    const lateCommits: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      if (i % 10 === 0) {
        const late = log.begin();
        log.commit(2);
        lateCommits.push(sleep(Math.random() * 20).then(() => late(3)));
      }
      log.commit(1 + (i % 5));
      await sleep(Math.random() * 3);
    }
    // What is expected is known only once the last late transaction has committed too.
    await Promise.all(lateCommits);
    const expected = ids(log.all.filter((e) => compareCursors(e, start) > 0));
    await until(
      () => quick.events.length >= expected.length && slow.events.length >= expected.length,
      'every event handed on',
    );
    await subscriptions.stop();

    for (const subscriber of [quick, slow]) {
      expect(ids(subscriber.events)).toEqual(expected);
      expectContiguous(subscriber.batches, start);
      // The next batch never went out before the slow subscriber had taken the one before.
      expect(subscriber.mostInHand).toBe(1);
    }
    expect(quick.batches.length).toBeGreaterThan(1);
  });

  it('holds later commits back behind a transaction still running, and hands them on after it in order', async () => {
    const log = new FakeLog();
    const subscriptions = new Subscriptions({ store: log, pollMs: 0, minGapMs: 1, log: silent });
    const taker = recorder();
    subscriptions.subscribe(taker.take);
    await subscriptions.start();

    const longOne = log.begin(); // older transaction id, commits last
    log.commit(2);
    await sleep(50);
    expect(taker.events, 'nothing read past a running transaction').toEqual([]);
    longOne(1);
    await until(() => taker.events.length === 3, 'all three handed on');
    await subscriptions.stop();
    expect(ids(taker.events)).toEqual(ids(log.all));
    expect(taker.events[0]!.txId).toBe('100');
  });

  it('hands a batch again when a subscriber failed to take it: that one gets it at last, the others at least once, nobody misses one', async () => {
    const log = new FakeLog();
    const subscriptions = new Subscriptions({ store: log, pollMs: 20, minGapMs: 1, log: silent });
    const steady = recorder();
    const flaky = recorder({ failFirst: 2 });
    subscriptions.subscribe(steady.take);
    subscriptions.subscribe(flaky.take);
    await subscriptions.start();
    log.commit(2);
    await sleep(30);
    log.commit(3);
    await until(() => flaky.events.length === 5, 'the flaky subscriber took every event');
    await subscriptions.stop();

    expect(ids(flaky.events)).toEqual(ids(log.all));
    expectContiguous(flaky.batches, { txId: '0', position: 0 });
    // The steady one was handed the failed batch again: repeats, but no gap and no reordering.
    const seen = [...new Set(ids(steady.events))];
    expect(seen).toEqual(ids(log.all));
    expect(steady.events.length).toBeGreaterThan(5);
  });

  it('tells onCommitted listeners of each commit in this process, even before reading starts', async () => {
    const log = new FakeLog();
    const subscriptions = new Subscriptions({ store: log, pollMs: 0, log: silent });
    let heard = 0;
    subscriptions.onCommitted(() => heard++);
    log.commit(1);
    await subscriptions.start();
    log.commit(1);
    await subscriptions.stop();
    log.commit(1);
    expect(heard).toBe(2);
  });

  it('the live feed publishes each event once, even when a batch is handed again', async () => {
    const log = new FakeLog();
    const subscriptions = new Subscriptions({ store: log, pollMs: 20, minGapMs: 1, log: silent });
    const published: EncodedEvent[][] = [];
    const live = new LiveFeed({
      labels: async () => new Map(),
      publish: (batch) => published.push(batch),
      startCursor: () => subscriptions.cursor,
    });
    subscriptions.subscribe((events, after) => live.take(events, after));
    const flaky = recorder({ failFirst: 1 });
    subscriptions.subscribe(flaky.take);
    await subscriptions.start();
    log.commit(4);
    await until(() => flaky.events.length === 4, 'handed again after the failure');
    await subscriptions.stop();

    const cursors = published.flat().map((e) => e.cursor);
    expect(cursors).toEqual(log.all.map((e) => ({ txId: e.txId, position: e.position })));
    expect(live.cursor).toEqual(cursors.at(-1));
  });
});
