// The one reader per server process. It keeps its own cursor, reads what was committed
// after it with the store's gap-safe readAfter, encodes each event once and hands the batch
// to the hub. Wake-ups: in-process after every append, NOTIFY from other instances, and a
// slow poll as the backstop (a lost notification, or events held back behind a long
// transaction, only delay delivery).
//
// Under a heavy write load the reads are paced: a read starts at least `minGapMs` after the
// previous one, and long enough after it that encoding and fanning out stay within
// `busyShare` of the time. Each read then takes more events, so the feed's cost follows the
// number of reads, not of writes, and writers in this process keep their throughput. A quiet
// store is not slowed: an event after a pause is read at once.
import type { EventStore } from '../eventstore/event-store.js';
import type { Cursor } from '../eventstore/types.js';
import { encodeEvents, type EncodedEvent } from './feed-messages.js';
import type { ItemLabels } from './item-labels.js';

export interface DispatcherOptions {
  store: EventStore;
  labels: ItemLabels;
  /** Receives each read batch, in order. Must not throw. */
  publish(batch: EncodedEvent[]): void;
  /** Subscribes to other instances' commits; returns the unsubscribe. Unset on a single-process database. */
  listen?: (onNotify: () => void) => Promise<() => Promise<void>>;
  pollMs: number;
  batchSize?: number;
  /** Least time between the starts of two reads (default 20 ms). */
  minGapMs?: number;
  /** Most of the time encoding and fan-out may take while writes pour in (default 0.1). */
  busyShare?: number;
  onError(error: unknown): void;
}

/** However busy, a read waits no longer than this after the previous one. */
const MAX_GAP_MS = 100;

export class FeedDispatcher {
  private cursorValue: Cursor = { txId: '0', position: 0 };
  private reading: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private nextReadAt = 0;
  private pacingTimer: NodeJS.Timeout | undefined;
  private readonly cleanups: Array<() => unknown> = [];

  constructor(private readonly options: DispatcherOptions) {}

  /** The last event handed to the hub: live clients have everything up to here. */
  get cursor(): Cursor {
    return this.cursorValue;
  }

  async start(): Promise<void> {
    const { store, listen, pollMs } = this.options;
    // Events already committed belong to catch-up, not to the live feed.
    this.cursorValue = await store.headCursor();
    this.cleanups.push(store.onCommitted(() => this.wake()));
    if (listen) {
      try {
        this.cleanups.push(await listen(() => this.wake()));
      } catch (error) {
        // Without LISTEN, other instances' events still arrive, by the poll: later, never lost.
        this.options.onError(error);
      }
    }
    if (pollMs > 0) {
      const timer = setInterval(() => this.wake(), pollMs);
      timer.unref();
      this.cleanups.push(() => clearInterval(timer));
    }
    this.wake(); // anything committed while we were subscribing
  }

  /** Reads now, or once more right after the read in progress, or when pacing allows. */
  wake(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    if (this.pacingTimer) return;
    const wait = this.nextReadAt - performance.now();
    if (wait > 0) {
      this.pacingTimer = setTimeout(() => {
        this.pacingTimer = undefined;
        this.wake();
      }, wait);
      return;
    }
    const started = performance.now();
    this.again = false;
    this.reading = this.readOnce().then(({ busyMs, more }) => {
      const { minGapMs = 20, busyShare = 0.1 } = this.options;
      // Paced only while events keep coming (more to read, or commits during this read):
      // after a quiet spell the next commit is read at once.
      const busy = more || this.again;
      this.nextReadAt = busy ? started + Math.min(MAX_GAP_MS, Math.max(minGapMs, busyMs / busyShare)) : 0;
      this.reading = null;
      if (busy) this.wake();
    });
  }

  /** One read and its publication; the milliseconds of work it took here, and whether more is waiting. */
  private async readOnce(): Promise<{ busyMs: number; more: boolean }> {
    const { store, labels, publish, onError } = this.options;
    const batchSize = this.options.batchSize ?? 1000;
    try {
      const after = this.cursorValue;
      const events = await store.readAfter(after, batchSize);
      if (events.length === 0 || this.stopped) return { busyMs: 0, more: false };
      // Other readers of every instance's events (the principal cache's invalidation, the
      // webhook deliverer, which takes these instead of reading the log again).
      store.dispatched(events, after);
      const encodeStarted = performance.now();
      const encoded = await encodeEvents(events, labels);
      const last = events[events.length - 1]!;
      this.cursorValue = { txId: last.txId, position: last.position };
      publish(encoded);
      return { busyMs: performance.now() - encodeStarted, more: events.length === batchSize };
    } catch (error) {
      // The next wake (at the latest the poll) retries from the same cursor.
      onError(error);
      return { busyMs: 0, more: false };
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pacingTimer);
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    await this.reading;
  }
}
