// The app's side of the deliverer's sender thread (sender-thread.ts): `send` has the same
// contract as sendWebhook (an Attempt, never a throw), but the signing and the HTTP
// exchange run in the thread. The profile of a write load with an endpoint receiving every
// event had most of the added event-loop time there (the HTTP client, socket writes, the
// HMAC), and the app's requests wait behind it; on PGlite the database runs on that same
// loop too.
//
// The thread starts with the first send. When `signal` aborts (the instance is stopping),
// every send waiting for an answer is reported as abandoned at once, and `close` ends the
// thread. If the thread dies, the messages it held come back as network errors (retried
// with backoff, like any) and the next send starts a new one.
import { Worker } from 'node:worker_threads';
import type { Attempt, Message } from './send-webhook.js';
import type { FromSender, SendRequest } from './sender-thread.js';

const failedAttempt = (started: number, error: string): Attempt => ({
  ok: false,
  retryable: true,
  status: null,
  latencyMs: Math.round(performance.now() - started),
  retryAfterMs: null,
  error,
});

const ABANDONED = 'Stopped before the receiver answered';

export class WebhookSender {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { started: number; resolve: (attempt: Attempt) => void }>();
  private outbox: SendRequest[] = [];
  private last = 0;

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener('abort', () => this.settleAll(ABANDONED), { once: true });
  }

  send(url: string, secret: string, message: Message, timeoutMs: number): Promise<Attempt> {
    const started = performance.now();
    if (this.signal.aborted) return Promise.resolve(failedAttempt(started, ABANDONED));
    const n = ++this.last;
    return new Promise((resolve) => {
      this.pending.set(n, { started, resolve });
      // Sends started in this turn of the event loop go to the thread in one message.
      if (this.outbox.push({ n, url, secret, id: message.id, body: message.body, timeoutMs }) === 1) queueMicrotask(() => this.post());
    });
  }

  /** Ends the thread (call after `signal` aborted: nothing waits for it any more). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.settleAll(ABANDONED);
    await worker?.terminate();
  }

  private post(): void {
    const sends = this.outbox;
    this.outbox = [];
    if (this.signal.aborted) return;
    this.thread().postMessage(sends);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sender-thread-boot.mjs', import.meta.url));
    // The app's server keeps the process alive; a stopping process does not wait for this thread.
    worker.unref();
    worker.on('message', ({ done }: FromSender) => {
      for (const [n, attempt] of done) {
        const waiting = this.pending.get(n);
        this.pending.delete(n);
        waiting?.resolve(attempt);
      }
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

  private settleAll(error: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { started, resolve } of waiting) resolve(failedAttempt(started, error));
  }
}
