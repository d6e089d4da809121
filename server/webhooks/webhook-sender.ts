// The app's side of the deliverer's sender thread (sender-thread.ts). Each endpoint run
// opens a queue there (`queue`) and hands it what it read, in batches: the thread sends
// them in order per stream, up to the run's `inFlight` at once, and the answers come back
// in batches too (an Attempt each, as sendWebhook's contract, or null: not sent). The
// profile of a write load with an endpoint receiving every event had most of the added
// event-loop time in the HTTP client, socket writes and the HMAC, then in the crossings to
// and from the thread (one per couple of messages while the app chose each next message);
// the app's requests wait behind all of it, and on PGlite the database runs on that loop.
//
// The thread starts with the first queue. When `signal` aborts (the instance is stopping),
// every message handed over and not answered is reported as abandoned at once, and `close`
// ends the thread. If the thread dies, the messages it held come back as network errors
// (retried with backoff, like any) and the next queue starts a new one.
import { Worker } from 'node:worker_threads';
import type { ConnectPolicy } from './connect-guard.js';
import type { Attempt } from './send-webhook.js';
import type { QueuedMessage, SendTarget } from './send-queue.js';
import type { FromSender, ToSender } from './sender-thread.js';

const failedAttempt = (started: number, error: string): Attempt => ({
  ok: false,
  retryable: true,
  status: null,
  latencyMs: Math.round(performance.now() - started),
  retryAfterMs: null,
  error,
});

const ABANDONED = 'Stopped before the receiver answered';

/** A message for a run's queue; `ref` is the run's own handle on it, given back with its answer. */
export interface OutMessage<T> {
  ref: T;
  id: string;
  stream: string;
  body: string;
}

/** An endpoint run's queue in the sender thread. */
export interface OutQueue<T> {
  /** Queues messages behind the ones added before (per stream). After `hold`, they come back as not sent. */
  add(messages: Array<OutMessage<T>>): void;
  /** Starts nothing more: what was not started comes back as not sent (null), the rest as answered. */
  hold(): void;
}

interface Job {
  answered: (answers: Array<[unknown, Attempt | null]>) => void;
  /** Handed over, not answered: by message number. */
  waiting: Map<number, { ref: unknown; started: number }>;
  held: boolean;
  /** Messages went to the thread: it has a queue for this job to forget at the end. */
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

  /** Opens a queue; `answered` gets each batch of answers (in no particular order across streams). */
  queue<T>(target: SendTarget, answered: (answers: Array<[T, Attempt | null]>) => void): OutQueue<T> {
    const id = ++this.lastJob;
    const job: Job = { answered: answered as Job['answered'], waiting: new Map(), held: false, posted: false };
    this.jobs.set(id, job);
    return {
      add: (messages) => {
        const started = performance.now();
        if (job.held || this.signal.aborted) {
          const error = this.signal.aborted ? failedAttempt(started, ABANDONED) : null;
          queueMicrotask(() => answered(messages.map((m) => [m.ref, error])));
          return;
        }
        const add: QueuedMessage[] = [];
        for (const { ref, id: messageId, stream, body } of messages) {
          const n = ++this.lastMessage;
          job.waiting.set(n, { ref, started });
          add.push({ n, id: messageId, stream, body });
        }
        job.posted = true;
        this.post({ job: id, target, add });
      },
      hold: () => {
        if (job.held) return;
        job.held = true;
        if (job.waiting.size === 0) this.jobs.delete(id);
        // The thread keeps the job's queue until told (sender-thread.ts), even an idle one.
        if (job.posted) this.post({ job: id, hold: true });
      },
    };
  }

  /** Ends the thread (call after `signal` aborted: nothing waits for it any more). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.settleAll(ABANDONED);
    await worker?.terminate();
  }

  /** Operations of one turn of the event loop go to the thread in one message. */
  private post(op: ToSender): void {
    if (this.outbox.push(op) > 1) return;
    queueMicrotask(() => {
      const ops = this.outbox;
      this.outbox = [];
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
      const answers = [...job.waiting.values()].map(({ ref, started }): [unknown, Attempt] => [ref, failedAttempt(started, error)]);
      job.waiting.clear();
      job.held = true;
      if (answers.length > 0) job.answered(answers);
    }
  }
}
