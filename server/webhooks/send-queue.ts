// One endpoint run's messages inside the sender thread (sender-thread.ts): sent in the
// order they were added per stream, a stream's next message only once its previous one was
// answered, up to `inFlight` at once. The run hands over what it read in batches and hears
// back in batches, so sending the next message of a stream does not wait for the app's
// event loop: each crossing between the threads cost that loop about as much as the
// message's whole delivery log row (a wake-up and a structured clone either way).
//
// A retryable failure (timeout, network error, 429, 5xx) holds the queue, as `hold` does:
// nothing more is started, and the messages not started yet are answered with null (not
// sent) at once, so the run sees them back as undelivered; messages in flight are answered
// as they come.
import type { Attempt } from './send-webhook.js';

export interface SendTarget {
  url: string;
  secret: string;
  timeoutMs: number;
  /** Messages in flight at once. */
  inFlight: number;
}

export interface QueuedMessage {
  /** The run's own number for it: answers carry it. */
  n: number;
  id: string;
  stream: string;
  body: string;
}

export type SendOne = (target: SendTarget, message: QueuedMessage) => Promise<Attempt>;

export class SendQueue {
  /** Per stream, its messages not answered yet, in order; only the head may be in flight. */
  private readonly streams = new Map<string, QueuedMessage[]>();
  /** Stream heads waiting for a slot, oldest first. */
  private ready: QueuedMessage[] = [];
  private readonly sending = new Set<QueuedMessage>();
  held = false;

  constructor(
    private readonly target: SendTarget,
    private readonly sendOne: SendOne,
    /** Called once per message: its attempt, or null when it was not sent (held first). */
    private readonly answer: (n: number, attempt: Attempt | null) => void,
  ) {}

  /** Nothing waiting and nothing in flight. */
  get idle(): boolean {
    return this.sending.size === 0 && this.streams.size === 0;
  }

  add(messages: QueuedMessage[]): void {
    if (this.held) {
      for (const m of messages) this.answer(m.n, null);
      return;
    }
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
    const unsent: number[] = [];
    for (const [stream, queue] of this.streams) {
      // A stream's head in flight stays until it is answered.
      const keep = this.sending.has(queue[0]!) ? 1 : 0;
      for (const m of queue.slice(keep)) unsent.push(m.n);
      if (keep) queue.length = 1;
      else this.streams.delete(stream);
    }
    this.ready = [];
    for (const n of unsent) this.answer(n, null);
  }

  private launch(): void {
    while (!this.held && this.sending.size < this.target.inFlight && this.ready.length > 0) {
      const message = this.ready.shift()!;
      this.sending.add(message);
      void this.sendOne(this.target, message).then((attempt) => this.answered(message, attempt));
    }
  }

  private answered(message: QueuedMessage, attempt: Attempt): void {
    this.sending.delete(message);
    const queue = this.streams.get(message.stream)!;
    queue.shift();
    const retry = !attempt.ok && attempt.retryable;
    // After a retryable failure the rest of its stream waits (hold answers it as not sent).
    if (queue.length === 0) this.streams.delete(message.stream);
    else if (!retry) this.ready.push(queue[0]!);
    this.answer(message.n, attempt);
    if (retry) this.hold();
    else this.launch();
  }
}
