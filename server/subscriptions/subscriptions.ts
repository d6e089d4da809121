// What runs after commit subscribes here: the live feed, the principal cache's invalidation
// and the webhook deliverer each register in their own wiring, and the event store stays a
// store (it appends and reads, and raises one signal after a commit that wrote events).
//
// One process, one reader (committed-event-reader.ts): it learns that something was
// committed (the store's signal for this process's commits, LISTEN/NOTIFY for other
// instances', a slow poll as the backstop), reads the new events of every instance in
// commit-safe order with the gap-safe cursor, and hands each batch to every subscriber in
// the order they subscribed. A batch is every event after `after` up to its last, so a
// subscriber can tell a batch that carries on from one that does not. The next batch is
// handed only once every subscriber has taken this one (an async subscriber's promise has
// settled): no subscriber sees batches out of order or with a gap. If a subscriber throws or
// rejects, the reader's cursor stays and the same events are handed again to every
// subscriber (at least once, never skipped); a subscriber that must not act twice skips
// what it already has by cursor.
import type { FastifyBaseLogger } from 'fastify';
import type { EventStore } from '../eventstore/event-store.js';
import type { Cursor, StoredEvent } from '../eventstore/types.js';
import { createCommitNotifier, type CommitNotifier } from './commit-notifier.js';
import { CommittedEventReader } from './committed-event-reader.js';

/** Takes one batch of committed events, every one after `after` up to its last, in commit-safe order. */
export type BatchSubscriber = (events: StoredEvent[], after: Cursor) => void | Promise<void>;

/** What a feature may do with the subscriptions: take batches, or hear of this process's commits. */
export interface CommitSubscriptions {
  /** The last event of the last batch every subscriber has taken (where reading started, before the first). */
  readonly cursor: Cursor;
  /** Every batch of committed events from now on, from every instance; returns the unsubscribe. */
  subscribe(subscriber: BatchSubscriber): () => void;
  /**
   * Called at once after each commit in this process that wrote events, before its batch
   * is read (the webhook deliverer uses it to expect the batch); returns the unsubscribe.
   */
  onCommitted(listener: () => void): () => void;
}

export interface SubscriptionsOptions {
  store: Pick<EventStore, 'onCommitted' | 'readAfter' | 'headCursor'>;
  /** Hears other instances' commits; returns the unlisten. Unset when no other instance writes (PGlite). */
  listen?: (onNotify: () => void) => Promise<() => Promise<void>>;
  /** Tells other instances of a commit here. Unset when no other instance listens. */
  notify?: () => Promise<void>;
  /** The backstop poll (0: none). */
  pollMs: number;
  batchSize?: number;
  minGapMs?: number;
  busyShare?: number;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

export class Subscriptions implements CommitSubscriptions {
  // Sets keep insertion order: subscribers are handed each batch in the order they came.
  private readonly subscribers = new Set<BatchSubscriber>();
  private readonly commitListeners = new Set<() => void>();
  private readonly reader: CommittedEventReader;
  private readonly notifier: CommitNotifier | null;
  private readonly cleanups: Array<() => unknown> = [];
  private state: 'new' | 'started' | 'stopped' = 'new';

  constructor(private readonly options: SubscriptionsOptions) {
    const { store, notify, log } = options;
    this.reader = new CommittedEventReader({
      store,
      hand: (events, after) => this.hand(events, after),
      batchSize: options.batchSize,
      minGapMs: options.minGapMs,
      busyShare: options.busyShare,
      onError: (error) => log.error({ err: error }, 'reading committed events failed; retrying on the next wake-up'),
    });
    this.notifier = notify
      ? createCommitNotifier(notify, (error) => log.warn({ err: error }, 'pg_notify failed; other instances poll'))
      : null;
    // Heard from the start, so a feature that subscribes before the app is ready misses no commit.
    this.cleanups.push(store.onCommitted(() => this.committedHere()));
  }

  get cursor(): Cursor {
    return this.reader.cursor;
  }

  subscribe(subscriber: BatchSubscriber): () => void {
    // A wrapper per call, so the same function subscribed twice is handed each batch twice.
    const own: BatchSubscriber = (events, after) => subscriber(events, after);
    this.subscribers.add(own);
    return () => this.subscribers.delete(own);
  }

  onCommitted(listener: () => void): () => void {
    const own = () => listener();
    this.commitListeners.add(own);
    return () => this.commitListeners.delete(own);
  }

  /** Starts reading after the newest committed event, and listening for other instances' commits. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    this.state = 'started';
    const { listen, pollMs, log } = this.options;
    await this.reader.start();
    if (listen) {
      try {
        this.cleanups.push(await listen(() => this.reader.wake()));
      } catch (error) {
        // Without LISTEN, other instances' events still arrive, by the poll: later, never lost.
        log.error({ err: error }, "LISTEN failed; other instances' events arrive by the poll");
      }
    }
    if (pollMs > 0) {
      const timer = setInterval(() => this.reader.wake(), pollMs);
      timer.unref();
      this.cleanups.push(() => clearInterval(timer));
    }
    this.reader.wake(); // anything committed while we were subscribing
  }

  /** Stops reading; the batch being handed is finished, and the last NOTIFY is sent. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    await this.reader.stop();
    await this.notifier?.idle();
  }

  private committedHere(): void {
    for (const listener of this.commitListeners) listener();
    if (this.state !== 'started') return;
    this.reader.wake();
    this.notifier?.poke();
  }

  /**
   * Hands a batch to every subscriber, synchronously one after the other (so a sync
   * subscriber, such as the principal cache, has taken it before any async one goes on), and
   * settles once they all have. Fails if any failed: the reader then hands it again.
   */
  private async hand(events: StoredEvent[], after: Cursor): Promise<void> {
    const taking: Array<void | Promise<void>> = [];
    for (const subscriber of [...this.subscribers]) {
      try {
        taking.push(subscriber(events, after));
      } catch (error) {
        taking.push(Promise.reject(error));
      }
    }
    const failed = (await Promise.allSettled(taking)).filter(
      (r): r is PromiseRejectedResult => r.status === 'rejected',
    );
    if (failed.length === 1) throw failed[0]!.reason;
    if (failed.length > 1)
      throw new AggregateError(
        failed.map((f) => f.reason),
        `${failed.length} subscribers failed to take a batch`,
      );
  }
}
