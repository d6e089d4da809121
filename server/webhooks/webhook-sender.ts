// The app's side of the deliverer's sender thread (sender-thread.ts): `send` has the same
// contract as sendWebhook (an Attempt, never a throw; `signal` abandons the send), but the
// signing and the HTTP exchange run in the thread. The profile of a write load with an
// endpoint receiving every event had most of the added event-loop time there (the HTTP
// client, socket writes, HMAC), and the app's requests wait behind it; on PGlite the
// database runs on that same loop too.
//
// The thread starts with the first send and is stopped with the deliverer. If it dies, the
// messages it held come back as network errors (retried with backoff, like any) and the
// next send starts a new one.
import { Worker } from 'node:worker_threads';
import type { Attempt, Message } from './send-webhook.js';
import type { FromSender, SendRequest, ToSender } from './sender-thread.js';

const stoppedAttempt = (started: number, error: string): Attempt => ({
  ok: false,
  retryable: true,
  status: null,
  latencyMs: Math.round(performance.now() - started),
  retryAfterMs: null,
  error,
});

export class WebhookSender {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, (attempt: Attempt) => void>();
  private outbox: SendRequest[] = [];
  private aborted: number[] = [];
  private last = 0;
  private closed = false;

  send(url: string, secret: string, message: Message, timeoutMs: number, signal?: AbortSignal): Promise<Attempt> {
    const started = performance.now();
    if (this.closed || signal?.aborted) return Promise.resolve(stoppedAttempt(started, 'Stopped before the receiver answered'));
    const n = ++this.last;
    return new Promise((resolve) => {
      const onAbort = () => {
        if (!this.pending.delete(n)) return;
        this.aborted.push(n);
        this.schedulePost();
        resolve(stoppedAttempt(started, 'Stopped before the receiver answered'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(n, (attempt) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(attempt);
      });
      this.outbox.push({ n, url, secret, id: message.id, body: message.body, timeoutMs });
      this.schedulePost();
    });
  }

  /** Stops the thread; sends still in it are reported as stopped. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.settleAll('Stopped before the receiver answered');
    await worker?.terminate();
  }

  /** Sends started in this turn of the event loop go to the thread in one message. */
  private schedulePost(): void {
    if (this.outbox.length + this.aborted.length === 1) queueMicrotask(() => this.post());
  }

  private post(): void {
    if (this.outbox.length === 0 && this.aborted.length === 0) return;
    const message: ToSender = { sends: this.outbox, abort: this.aborted };
    this.outbox = [];
    this.aborted = [];
    if (this.closed) return;
    this.thread().postMessage(message);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sender-thread-boot.mjs', import.meta.url));
    // The app's server keeps the process alive; a stopping process does not wait for this thread.
    worker.unref();
    worker.on('message', ({ done }: FromSender) => {
      for (const [n, attempt] of done) {
        const resolve = this.pending.get(n);
        this.pending.delete(n);
        resolve?.(attempt);
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
    const started = performance.now();
    for (const [n, resolve] of [...this.pending]) {
      this.pending.delete(n);
      resolve(stoppedAttempt(started, error));
    }
  }
}
