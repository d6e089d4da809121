// The one reader of committed events per server process. It keeps its own cursor, reads what
// was committed after it with the store's gap-safe readAfter and hands each batch on, waiting
// until it has been taken before reading the next, so batches go out whole and in order.
// It reads when woken (subscriptions.ts wakes it after a commit here, on another instance's
// NOTIFY, and by a slow poll); a lost wake-up, or events held back behind a long
// transaction, only delay a batch, never lose it.
//
// Under a heavy write load the reads are paced: a read starts at least `minGapMs` after the
// previous one, and long enough after it that handing batches on stays within `busyShare`
// of the time. Each read then takes more events, so the cost of what runs after commit
// follows the number of reads, not of writes, and writers in this process keep their
// throughput. A quiet store is not slowed: an event after a pause is read at once.
import type { EventStore } from '../eventstore/event-store.js';
import type { Cursor, StoredEvent } from '../eventstore/types.js';

export interface ReaderOptions {
  store: Pick<EventStore, 'readAfter' | 'headCursor'>;
  /**
   * Takes one batch: every committed event after `after` up to its last. The next read waits
   * for it; if it rejects, the cursor stays and the same events are read and handed again.
   */
  hand(events: StoredEvent[], after: Cursor): Promise<void>;
  batchSize?: number;
  /** Least time between the starts of two reads (default 20 ms). */
  minGapMs?: number;
  /** Most of the time handing batches on may take while writes pour in (default 0.1). */
  busyShare?: number;
  onError(error: unknown): void;
}

/** However busy, a read waits no longer than this after the previous one. */
const MAX_GAP_MS = 100;

export class CommittedEventReader {
  private cursorValue: Cursor = { txId: '0', position: 0 };
  private reading: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  private nextReadAt = 0;
  private pacingTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReaderOptions) {}

  /** The last event of the last batch every taker has taken. */
  get cursor(): Cursor {
    return this.cursorValue;
  }

  /** Starts from the newest committed event: what was committed before belongs to catch-up, not to what comes next. */
  async start(): Promise<void> {
    this.cursorValue = await this.options.store.headCursor();
    this.started = true;
    this.wake(); // anything committed while we were starting
  }

  /** Reads now, or once more right after the read in progress, or when pacing allows. */
  wake(): void {
    if (this.stopped || !this.started) return;
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

  /** One read and its handing on; the milliseconds the handing took, and whether more is waiting. */
  private async readOnce(): Promise<{ busyMs: number; more: boolean }> {
    const { store, hand, onError } = this.options;
    const batchSize = this.options.batchSize ?? 1000;
    try {
      const after = this.cursorValue;
      const events = await store.readAfter(after, batchSize);
      if (events.length === 0 || this.stopped) return { busyMs: 0, more: false };
      const handStarted = performance.now();
      await hand(events, after);
      const last = events[events.length - 1]!;
      this.cursorValue = { txId: last.txId, position: last.position };
      return { busyMs: performance.now() - handStarted, more: events.length === batchSize };
    } catch (error) {
      // The next wake (at the latest the poll) retries from the same cursor.
      onError(error);
      return { busyMs: 0, more: false };
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pacingTimer);
    await this.reading;
  }
}
