// The app's side of the deliverer's sender thread (sender-thread.ts): each endpoint run opens
// a queue there and hands it what it read, in batches; the answers come back in batches.
// The thread starts with the first queue. When `signal` aborts (the instance is stopping),
// everything handed over and not answered is reported as abandoned at once, and `close`
// ends the thread. If the thread dies, what it held comes back as network errors (retried
// with backoff, like any) and the next queue starts a new one.
import { Worker } from 'node:worker_threads';
import type { ConnectPolicy } from './connect-guard.js';
import { ABANDONED, type Attempt } from './send-webhook.js';
import type { Answered, OutQueue, SendTarget } from './send-queue.js';
import type { FromSender, QueuedMessage, ToSender } from './sender-thread.js';

const failed = (started: number, error: string): Attempt => ({ ok: false, retryable: true, status: null, latencyMs: Math.round(performance.now() - started), retryAfterMs: null, error });

interface Job {
  answered: Answered<unknown>;
  /** Handed over, not answered: by message number. */
  waiting: Map<number, { ref: unknown; started: number }>;
  held: boolean;
  /** The thread has a queue for it, to be told of its end. */
  posted: boolean;
}

export class WebhookSender {
  private worker: Worker | null = null;
  private readonly jobs = new Map<number, Job>();
  private outbox: ToSender[] = [];
  private lastJob = 0;
  private lastMessage = 0;

  constructor(
    private readonly signal: AbortSignal,
    /** Where the thread may connect (connect-guard.ts). */
    private readonly policy: ConnectPolicy,
  ) {
    signal.addEventListener('abort', () => this.settleAll(ABANDONED), { once: true });
  }

  queue<T>(target: SendTarget, answered: Answered<T>): OutQueue<T> {
    const id = ++this.lastJob;
    const job: Job = { answered: answered as Answered<unknown>, waiting: new Map(), held: false, posted: false };
    this.jobs.set(id, job);
    return {
      add: (messages) => {
        const started = performance.now();
        if (job.held || this.signal.aborted) {
          const attempt = this.signal.aborted ? failed(started, ABANDONED) : null;
          queueMicrotask(() => answered(messages.map((m) => [m.ref, attempt])));
          return;
        }
        const add: QueuedMessage[] = messages.map(({ ref, id: messageId, stream, body }) => {
          const n = ++this.lastMessage;
          job.waiting.set(n, { ref, started });
          return { n, id: messageId, stream, body };
        });
        job.posted = true;
        this.post({ job: id, target, add });
      },
      hold: () => {
        if (job.held) return;
        job.held = true;
        if (job.waiting.size === 0) this.jobs.delete(id);
        if (job.posted) this.post({ job: id, hold: true });
      },
    };
  }

  /** Ends the thread (after `signal` aborted: nothing waits for it any more). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.settleAll(ABANDONED);
    await worker?.terminate();
  }

  /** What one turn of the event loop hands over goes to the thread in one message. */
  private post(op: ToSender): void {
    if (this.outbox.push(op) > 1) return;
    queueMicrotask(() => {
      const ops = this.outbox.splice(0);
      if (!this.signal.aborted) this.thread().postMessage(ops);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sender-thread-boot.mjs', import.meta.url), { workerData: this.policy });
    // The app's server keeps the process alive; a stopping process does not wait for this thread.
    worker.unref();
    worker.on('message', ({ done }: FromSender) => {
      const byJob = new Map<Job, Array<[unknown, Attempt | null]>>();
      for (const [id, n, attempt] of done) {
        const job = this.jobs.get(id);
        const waiting = job?.waiting.get(n);
        if (!job || !waiting) continue;
        job.waiting.delete(n);
        if (job.held && job.waiting.size === 0) this.jobs.delete(id);
        let answers = byJob.get(job);
        if (!answers) byJob.set(job, (answers = []));
        answers.push([waiting.ref, attempt]);
      }
      for (const [job, answers] of byJob) job.answered(answers);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settleAll(`Network error: ${why}`);
    };
    worker.on('error', (error) => lost(`sender thread failed (${error.message})`));
    worker.on('exit', () => lost('sender thread stopped'));
    this.worker = worker;
    return worker;
  }

  /** Answers everything handed over and not answered with `error`; their queues in the thread are gone or going. */
  private settleAll(error: string): void {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      const answers = [...job.waiting.values()].map(({ ref, started }): [unknown, Attempt] => [ref, failed(started, error)]);
      job.waiting.clear();
      job.held = true;
      if (answers.length > 0) job.answered(answers);
    }
  }
}
