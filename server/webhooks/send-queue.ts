// An endpoint run's outgoing messages: sent in the order they were added per stream, a
// stream's next message only once its previous one was answered, up to `inFlight` at once.
// A retryable failure (timeout, network error, 429, 5xx) holds the queue, as `hold` does:
// nothing more starts, and what has not started is answered with null (not sent) at once,
// so the run sees it back as undelivered; messages in flight are answered as they come.
// It runs in the sender thread (sender-thread.ts), or on the app's thread (`localQueue`).
import type { ConnectGuard } from './connect-guard.js';
import { sendWebhook, type Attempt } from './send-webhook.js';

export interface SendTarget {
  url: string;
  secret: string;
  timeoutMs: number;
  /** Messages in flight at once. */
  inFlight: number;
}

export interface Outgoing {
  id: string;
  stream: string;
  body: string;
}

/** A message of a run, `ref` being the run's own handle on it, given back with its answer. */
export interface OutMessage<T> extends Outgoing {
  ref: T;
}

/** What a run hands its messages to (sender thread or app thread alike). */
export interface OutQueue<T> {
  /** Queues messages behind the ones added before (per stream). After `hold`, they come back as not sent. */
  add(messages: Array<OutMessage<T>>): void;
  /** Starts nothing more: what was not started comes back as not sent (null), the rest as answered. */
  hold(): void;
}

/** Answers, each an Attempt or null (not sent), in batches and in no particular order across streams. */
export type Answered<T> = (answers: Array<[T, Attempt | null]>) => void;

export class SendQueue<M extends Outgoing> {
  /** Per stream, its messages not answered yet, in order; only the head may be in flight. */
  private readonly streams = new Map<string, M[]>();
  /** Stream heads waiting for a slot, oldest first. */
  private ready: M[] = [];
  private readonly sending = new Set<M>();
  held = false;

  constructor(
    private readonly inFlight: number,
    private readonly sendOne: (message: M) => Promise<Attempt>,
    /** Called once per message: its attempt, or null when it was not sent (held first). */
    private readonly answer: (message: M, attempt: Attempt | null) => void,
  ) {}

  /** Nothing waiting and nothing in flight. */
  get idle(): boolean {
    return this.sending.size === 0 && this.streams.size === 0;
  }

  add(messages: M[]): void {
    if (this.held) return messages.forEach((m) => this.answer(m, null));
    for (const m of messages) {
      const queue = this.streams.get(m.stream);
      if (queue) queue.push(m);
      else {
        this.streams.set(m.stream, [m]);
        this.ready.push(m);
      }
    }
    this.launch();
  }

  /** Starts nothing more; what was not started is answered as not sent. */
  hold(): void {
    if (this.held) return;
    this.held = true;
    const unsent: M[] = [];
    for (const [stream, queue] of this.streams) {
      // A stream's head in flight stays until it is answered.
      const keep = this.sending.has(queue[0]!) ? 1 : 0;
      unsent.push(...queue.slice(keep));
      if (keep) queue.length = 1;
      else this.streams.delete(stream);
    }
    this.ready = [];
    for (const m of unsent) this.answer(m, null);
  }

  private launch(): void {
    while (!this.held && this.sending.size < this.inFlight && this.ready.length > 0) {
      const message = this.ready.shift()!;
      this.sending.add(message);
      void this.sendOne(message).then((attempt) => this.answered(message, attempt));
    }
  }

  private answered(message: M, attempt: Attempt): void {
    this.sending.delete(message);
    const queue = this.streams.get(message.stream)!;
    queue.shift();
    const retry = !attempt.ok && attempt.retryable;
    // After a retryable failure the rest of its stream waits (hold answers it as not sent).
    if (queue.length === 0) this.streams.delete(message.stream);
    else if (!retry) this.ready.push(queue[0]!);
    this.answer(message, attempt);
    if (retry) this.hold();
    else this.launch();
  }
}

/** Answers wait this long at most to travel together: they only feed the run's progress, written every 200 ms. */
export const ANSWER_EVERY_MS = 20;

/** A run's queue on the app's own thread (the sender thread's alternative, see WebhookConfig.senderThread). */
export function localQueue<T>(target: SendTarget, answered: Answered<T>, guard: ConnectGuard, signal: AbortSignal): OutQueue<T> {
  const done: Array<[T, Attempt | null]> = [];
  const report = () => answered(done.splice(0));
  return new SendQueue<OutMessage<T>>(
    target.inFlight,
    (m) => sendWebhook(target.url, target.secret, m, target.timeoutMs, guard, signal),
    (m, attempt) => {
      if (done.push([m.ref, attempt]) === 1) setTimeout(report, ANSWER_EVERY_MS);
    },
  );
}
