// Group commit: commands wait in the process while a transaction for their stream is in
// flight, and go together in the next one, so a busy item costs one lock, one statement and
// one commit per batch instead of per command. A command that finds its stream idle and a
// lane free starts at once: there is no batching delay without contention. ("At once" is at
// the end of the event loop's current turn, setImmediate, no timer: requests read from the
// network in the same turn go together. This matters on PGlite, whose queries run on this
// thread: while one runs, requests pile up unread, and would otherwise start one by one.)
//
// At most `lanes` transactions run at once, and never two for the same stream (in this
// process; the row lock orders instances). When every lane is busy, the next batch also
// takes waiting commands of other streams, in arrival order: one commit then carries many
// items. The runner settles each command's own promise; a command's failure is its own.
// The runner is `run`: given as an option, or overridden by a subclass (batched-commands.ts),
// so the trail from a command to its batch's transaction can be followed in the code.
import { DomainError } from '../errors.js';

/** A command refused without being tried: nothing was written, a retry is safe. */
export class ServerBusyError extends DomainError {
  constructor() {
    super('Server busy, try again shortly', 503, 'busy');
  }
}

export interface Pending<C, R> {
  stream: string;
  command: C;
  enqueuedAt: number;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<C, R> {
  /** Transactions in flight at once (PGlite: 1, its one connection runs them in turn anyway). */
  lanes: number;
  /** Most commands in one transaction. */
  maxBatch: number;
  /**
   * While a transaction is in flight, another starts only once this many commands wait for
   * it (default 1): small batches side by side cost more per command than one larger batch
   * a moment later, and a lone command waits no longer than the transaction in flight...
   */
  overlapAt?: number;
  /** ...or than this many milliseconds (default 20), should that transaction be held up (a row lock). */
  overlapAfterMs?: number;
  /** Most commands waiting at once; more are refused at once (503). */
  maxQueued: number;
  /** A command still waiting after this long is refused (503) instead of joining a batch. */
  maxWaitMs: number;
  /** Runs one batch in one transaction and settles every command in it; must not throw (or see `run` below). */
  run?(batch: Pending<C, R>[]): Promise<void>;
  now?: () => number;
}

export class GroupCommitter<C, R> {
  private queue: Pending<C, R>[] = [];
  private readonly busy = new Set<string>();
  private running = 0;
  private scheduled = false;
  /** When each transaction in flight started, by batch. */
  private readonly startedAt = new Map<object, number>();
  private overlapTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: GroupCommitOptions<C, R>) {}

  /** Commands waiting for a transaction (for tests and metrics). */
  get waiting(): number {
    return this.queue.length;
  }

  submit(stream: string, command: C): Promise<R> {
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new ServerBusyError());
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ stream, command, enqueuedAt: this.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Pumps at the end of this turn of the event loop (once, however many commands arrive). */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Runs one batch: the `run` option, unless a subclass overrides this. */
  protected run(batch: Pending<C, R>[]): Promise<void> {
    if (!this.options.run) throw new Error('a GroupCommitter needs a run option or a subclass that overrides run');
    return this.options.run(batch);
  }

  private now(): number {
    return (this.options.now ?? performance.now.bind(performance))();
  }

  private pump(): void {
    const { lanes, maxBatch, maxWaitMs, overlapAt = 1 } = this.options;
    while (this.running < lanes && this.queue.length > 0) {
      const batch: Pending<C, R>[] = [];
      const left: Pending<C, R>[] = [];
      const kept: Pending<C, R>[] = [];
      const now = this.now();
      for (const pending of this.queue) {
        const eligible = batch.length < maxBatch && !this.busy.has(pending.stream);
        if (eligible && now - pending.enqueuedAt > maxWaitMs) {
          pending.reject(new ServerBusyError());
          continue;
        }
        kept.push(pending);
        (eligible ? batch : left).push(pending);
      }
      if (batch.length === 0) {
        this.queue = kept;
        return;
      }
      if (this.running > 0 && batch.length < overlapAt) {
        // Too little to run beside the transaction in flight: wait for it, in order, unless it is held up.
        const { overlapAfterMs = 20 } = this.options;
        const wait = Math.min(...this.startedAt.values()) + overlapAfterMs - now;
        if (wait > 0) {
          this.queue = kept;
          clearTimeout(this.overlapTimer);
          this.overlapTimer = setTimeout(() => this.schedule(), wait);
          this.overlapTimer.unref();
          return;
        }
      }
      this.queue = left;
      const streams = new Set(batch.map((p) => p.stream));
      for (const stream of streams) this.busy.add(stream);
      this.running++;
      this.startedAt.set(batch, now);
      void this.run(batch)
        .catch((error) => {
          for (const pending of batch) pending.reject(error);
        })
        .finally(() => {
          for (const stream of streams) this.busy.delete(stream);
          this.running--;
          this.startedAt.delete(batch);
          this.schedule();
        });
    }
  }
}
