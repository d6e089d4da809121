// One endpoint's delivery while this instance holds its lease. It reads the log after the
// endpoint's cursor (once caught up, it takes the batches the realtime feed's dispatcher
// reads anyway) and sends what it read: messages of different streams side by side, up to
// `inFlight`, a stream's next message only once its previous one was answered. Every
// FLUSH_EVERY_MS it writes down, in one statement refused once the lease is lost, the cursor
// (the oldest undelivered point, so a restart sends again only from there), the delivery
// log rows and the lease renewal.
//
// A retryable failure (timeout, network error, 429, 5xx) stops new sends; once the messages
// in flight are answered, the endpoint is given back with a retry time (backoff.ts) and
// everything from the oldest undelivered message on is tried again then, in order. While
// failing, it is probed with its oldest undelivered message alone; the first answer puts it
// back to full speed.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { EventStore } from '../eventstore/event-store.js';
import { formatCursor, type Cursor, type StoredEvent } from '../eventstore/types.js';
import { compareCursors } from '../realtime/cursor-order.js';
import { webhookTypeOf, WEBHOOK_DISABLED_REASON } from '../../shared/webhooks.js';
import { DEFAULT_MONEY } from '../../shared/money-format.js';
import { retryDelayMs } from './backoff.js';
import type { CursorStore, DeliveryRow, DueEndpoint } from './cursor-store.js';
import type { Attempt, Message } from './send-webhook.js';
import {
  carriesPrice,
  currencyAt,
  currencyChangedTo,
  eventSummaries,
  filterReads,
  payloadOf,
  wantedEvents,
} from './webhook-payload.js';

/** What a run needs from its deliverer. */
export interface RunHost {
  store: EventStore;
  db: Kysely<any>;
  config: WebhookConfig;
  log: FastifyBaseLogger;
  cursors: CursorStore;
  batchSize: number;
  /** Aborted when the instance stops: messages in flight are abandoned. */
  signal: AbortSignal;
  isStopped(): boolean;
  /** One attempt (send-webhook.ts); ends at once, with no status, when `signal` aborts. */
  send(url: string, secret: string, message: Message): Promise<Attempt>;
  /** Runs a statement within the deliverer's share of the pool. */
  query<T>(work: () => Promise<T>): Promise<T>;
  wake(): void;
  disable(endpointId: string, reason: string): Promise<void>;
  /** The endpoint's signing secret in the clear (stored sealed: webhook-secrets.ts), opened only to sign. */
  openSecret(endpoint: DueEndpoint): string;
}

/** Progress is written at most this often (and at least every lease / 3); longer means more sent again after a crash. */
export const FLUSH_EVERY_MS = 200;
/** ...or sooner once this many deliveries wait to be logged. */
const FLUSH_ROWS = 400;
/** New events are read at most this often, however many commits poke. */
const MIN_READ_GAP_MS = 20;
/** Messages read beyond the oldest undelivered one: bounds memory, and what a crash can send again. */
const READ_AHEAD = 1000;
/** A caught-up endpoint keeps its run (and lease) this long for the next events. */
const LINGER_MS = 500;
/** After a commit, the feed's batch with it is awaited this long before the log is read. */
const FEED_WAIT_MS = 250;

interface Entry {
  event: StoredEvent;
  /** The change in words, sent along (webhook-payload.ts). */
  summary: string;
  /** Where the log was read up to just before this event: the cursor while this is the oldest undelivered. */
  before: Cursor;
  state: 'queued' | 'sending' | 'done';
  /** The store's currency at this event, put beside a price in its payload. */
  currency: string;
}

interface Failure {
  attempt: Attempt;
  row: DeliveryRow;
}

export class EndpointRun {
  /** Set by every wake-up (new commits); cleared when the log is read. */
  poked = true;
  private read: Cursor;
  /** Wanted events read, in log order, from the oldest one not yet done. */
  private readonly pending: Entry[] = [];
  /** Per stream, its entries not yet done, in order: only the first may be in flight. */
  private readonly streams = new Map<string, Entry[]>();
  /** Streams' first entries waiting for a slot, oldest first (some may be sending or done by now: skipped). */
  private ready: Entry[] = [];
  private inFlight = 0;
  private secret: string | null = null;
  /** The run is over: nothing more is sent. */
  private over = false;
  private rows: DeliveryRow[] = [];
  private attempts: number;
  private failingSince: Date | null;
  private probing: boolean;
  private readonly failures: Failure[] = [];
  /** Delivered beyond the stored cursor by an earlier holder: not sent again. */
  private delivered = new Set<string>();
  /** Messages with a row of their own in the delivery log (retried, refused, replayed): their delivery updates it. */
  private ownRows = new Set<string>();
  private more = true;
  private lost = false;
  private dirty = false;
  private lastRead = -Infinity;
  /** Batches the feed dispatcher read, not yet looked at (feed). */
  private fed: Array<{ events: StoredEvent[]; after: Cursor | undefined }> = [];
  /** When a commit was announced that no fed batch has followed yet (committed). */
  private commitSeenAt: number | null = null;
  private lastFlush = 0;
  private renewBy = 0;
  private wakeUp: (() => void) | null = null;
  /** The store's currency where the log was read up to (followed through the settings events read; read from the log only once a priced event comes). */
  private currency: string | null = null;

  constructor(
    private readonly host: RunHost,
    readonly endpoint: DueEndpoint,
  ) {
    this.read = endpoint.cursor;
    this.attempts = endpoint.attempts;
    this.failingSince = endpoint.failingSince;
    this.probing = endpoint.attempts > 0;
  }

  /** Set by `stop`: the endpoint was deleted, disabled or changed since this run took it. */
  stopped = false;

  /** Sends nothing more: once the messages in flight are answered, writes its progress down and gives the endpoint back (a next run takes the new settings). */
  stop(): void {
    this.stopped = true;
    this.notify();
  }

  /** New events may be in the log. */
  poke(): void {
    this.poked = true;
    this.notify();
  }

  /**
   * Events were committed in this process. With the feed dispatcher running (`feedRuns`),
   * its batch brings them (feed); the log is read only if that batch is late.
   */
  committed(feedRuns: boolean): void {
    if (!feedRuns) return this.poke();
    this.commitSeenAt ??= performance.now();
    this.notify();
  }

  /**
   * A batch the feed dispatcher read: every event after `after` up to its last. Taken as if
   * read here when it carries on from where this run has read; after a gap (or with no
   * `after`), the run reads the log itself.
   */
  feed(events: StoredEvent[], after: Cursor | undefined): void {
    this.fed.push({ events, after });
    this.notify();
  }

  async run(): Promise<void> {
    try {
      await this.deliver();
    } finally {
      // Never leave sends behind: a next run must not overtake them. Each is bounded by the timeout (or aborted on stop).
      this.over = true;
      while (this.inFlight > 0) await this.sleep(this.host.config.timeoutMs);
    }
  }

  private async deliver(): Promise<void> {
    const { config, cursors } = this.host;
    // Read before claiming: an idle endpoint costs no writes.
    this.poked = false;
    const first = await this.host.query(() => this.host.store.readAfter(this.read, this.host.batchSize));
    if (first.length === 0) return;
    if (!(await this.host.query(() => cursors.claim(this.endpoint)))) return;
    this.lastFlush = performance.now();
    this.renewBy = this.lastFlush + config.leaseMs / 3;
    const logged = await this.host.query(() => cursors.loggedAfter(this.endpoint.id, this.endpoint.cursor));
    this.delivered = logged.done;
    this.ownRows = logged.ownRows;
    await this.take(first, this.host.batchSize);

    let idleSince: number | null = null;
    for (;;) {
      if (this.lost) return;
      if (this.host.isStopped() || this.stopped || this.failures.length > 0) {
        if (this.inFlight > 0) {
          await this.sleep(config.timeoutMs);
          continue;
        }
        if (this.failures.length > 0) return this.retryLater();
        await this.flush(true, null);
        return;
      }
      if (this.fed.length > 0) {
        await this.takeFed();
        continue;
      }
      this.launch();
      const now = performance.now();
      if (this.commitSeenAt !== null && now - this.commitSeenAt >= FEED_WAIT_MS) {
        // No batch from the feed since that commit: read the log (the feed may not run here).
        this.commitSeenAt = null;
        this.poked = true;
      }
      const canRead = (this.more || this.poked) && this.pending.length < READ_AHEAD;
      if (canRead && now - this.lastRead >= MIN_READ_GAP_MS) {
        this.poked = false;
        const limit = Math.min(this.host.batchSize, READ_AHEAD - this.pending.length);
        const events = await this.host.query(() => this.host.store.readAfter(this.read, limit));
        await this.take(events, limit);
        continue;
      }
      if (
        (this.dirty && now - this.lastFlush >= FLUSH_EVERY_MS) ||
        this.rows.length >= FLUSH_ROWS ||
        now >= this.renewBy
      ) {
        await this.flush(false, null);
        continue;
      }
      let wait = this.renewBy - now;
      if (canRead) wait = Math.min(wait, this.lastRead + MIN_READ_GAP_MS - now);
      if (this.dirty) wait = Math.min(wait, this.lastFlush + FLUSH_EVERY_MS - now);
      else if (this.inFlight > 0) wait = Math.min(wait, FLUSH_EVERY_MS);
      if (this.commitSeenAt !== null) wait = Math.min(wait, this.commitSeenAt + FEED_WAIT_MS - now);
      if (this.inFlight === 0 && this.pending.length === 0 && !canRead && this.commitSeenAt === null) {
        // Caught up: stay a little for the next events, then free the slot.
        idleSince ??= now;
        if (now - idleSince >= LINGER_MS && !this.dirty) return;
        wait = Math.min(wait, idleSince + LINGER_MS - now);
      } else {
        idleSince = null;
      }
      await this.sleep(Math.max(1, wait));
    }
  }

  /** Takes the fed batches that carry on from `this.read`; after a gap, the log is read instead. */
  private async takeFed(): Promise<void> {
    const batches = this.fed;
    this.fed = [];
    this.commitSeenAt = null;
    for (const { events, after } of batches) {
      const last = events[events.length - 1];
      if (!last || compareCursors(last, this.read) <= 0) continue; // nothing new to this run
      if (!after || compareCursors(after, this.read) > 0 || this.pending.length >= READ_AHEAD) {
        // Events between this run's read and the batch are not in hand (or there is no room): from the log.
        this.poked = true;
        continue;
      }
      let first = 0;
      while (compareCursors(events[first]!, this.read) <= 0) first += 1;
      // No more than READ_AHEAD in hand: the rest is read from the log once there is room.
      const room = READ_AHEAD - this.pending.length;
      const end = Math.min(events.length, first + room);
      await this.take(first === 0 && end === events.length ? events : events.slice(first, end), null);
      if (end < events.length) this.more = true;
    }
  }

  /**
   * Queues the wanted ones of `events`: what follows `this.read` in the log, read here up to
   * `limit` (null: fed). A read that filled its limit may have left more behind (even one
   * that asked for less than a batch, close to READ_AHEAD).
   */
  private async take(events: StoredEvent[], limit: number | null): Promise<void> {
    if (limit !== null) {
      this.lastRead = performance.now();
      this.more = events.length >= limit;
    } else {
      // Caught up with the feed: it brings what comes next.
      this.more = false;
    }
    if (events.length === 0) return;
    // A category filter reads the items' streams (a statement, within the deliverer's share of the pool); types alone need none.
    const filter = () => wantedEvents(this.host.db, events, this.endpoint);
    const wantedList = await (filterReads(this.endpoint) ? this.host.query(filter) : filter());
    const wanted = new Set(wantedList.map((e) => e.eventId));
    if (this.currency === null && events.some((e) => wanted.has(e.eventId) && carriesPrice(e))) {
      const at = this.read;
      this.currency = await this.host.query(() => currencyAt(this.host.db, at));
    }
    // The sentences name items as they were then: a statement for the whole batch.
    const summaries =
      wantedList.length > 0
        ? await this.host.query(() => eventSummaries(this.host.db, wantedList))
        : new Map<string, string>();
    for (const event of events) {
      const before = this.read;
      this.read = { txId: event.txId, position: event.position };
      const changed = currencyChangedTo(event);
      if (changed !== null) this.currency = changed;
      if (!wanted.has(event.eventId)) continue;
      const stream = this.streams.get(event.streamId);
      // Delivered by the last holder beyond its cursor, with nothing of its stream still to send before it.
      if (!stream && this.delivered.delete(event.eventId)) continue;
      const entry: Entry = {
        event,
        summary: summaries.get(event.eventId) ?? event.type,
        before,
        state: 'queued',
        currency: this.currency ?? DEFAULT_MONEY.currency,
      };
      this.pending.push(entry);
      if (stream) stream.push(entry);
      else {
        this.streams.set(event.streamId, [entry]);
        this.ready.push(entry);
      }
    }
    this.dirty = true;
    this.launch();
  }

  /** Sends what may go: streams' next messages up to the in-flight limit, or only the oldest while probing a failing endpoint. */
  private launch(): void {
    if (this.over || this.lost || this.stopped || this.host.isStopped() || this.failures.length > 0) return;
    if (this.probing) {
      const oldest = this.pending[0];
      if (this.inFlight === 0 && oldest?.state === 'queued') this.send(oldest);
      return;
    }
    while (this.inFlight < this.host.config.inFlight && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      if (entry.state === 'queued') this.send(entry);
    }
  }

  private send(entry: Entry): void {
    entry.state = 'sending';
    this.inFlight += 1;
    this.secret ??= this.host.openSecret(this.endpoint);
    const message = { id: entry.event.eventId, body: payloadOf(entry.event, entry.currency, entry.summary) };
    void this.host.send(this.endpoint.url, this.secret, message).then((attempt) => this.settle(entry, attempt));
  }

  private settle(entry: Entry, attempt: Attempt): void {
    const full = this.pending.length >= READ_AHEAD;
    this.settleOne(entry, attempt);
    this.dirty = true;
    this.launch();
    // Only what changes the loop's course wakes it: while messages are in flight it wakes
    // every FLUSH_EVERY_MS anyway, to write progress down.
    if (
      this.inFlight === 0 ||
      this.failures.length > 0 ||
      this.rows.length >= FLUSH_ROWS ||
      (full && this.pending.length < READ_AHEAD)
    )
      this.notify();
  }

  private settleOne(entry: Entry, attempt: Attempt): void {
    this.inFlight -= 1;
    const { event } = entry;
    const row: DeliveryRow = {
      message_id: event.eventId,
      event_type: webhookTypeOf(event.type)!,
      cursor: formatCursor(event),
      status: 'delivered',
      response_code: attempt.status,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      logged: this.ownRows.has(event.eventId),
    };
    if (attempt.ok || !attempt.retryable) {
      // A 4xx other than 429 is the receiver refusing this message: logged as failed, not retried.
      this.rows.push({ ...row, status: attempt.ok ? 'delivered' : 'failed' });
      this.done(entry);
      this.probing = false;
      if (this.failures.length === 0) {
        this.attempts = 0;
        this.failingSince = null;
      }
    } else {
      entry.state = 'queued';
      // Abandoned because this instance is stopping: not a failure of the receiver. Otherwise
      // the rest of its stream waits (for a later run, after the retry).
      if (!(this.host.signal.aborted && attempt.status === null)) this.failures.push({ attempt, row });
    }
  }

  private done(entry: Entry): void {
    entry.state = 'done';
    const stream = this.streams.get(entry.event.streamId)!;
    stream.shift();
    if (stream.length === 0) this.streams.delete(entry.event.streamId);
    else this.ready.push(stream[0]!);
    while (this.pending[0]?.state === 'done') this.pending.shift();
  }

  /** Everything before this point is delivered. */
  private cursor(): Cursor {
    return this.pending[0]?.before ?? this.read;
  }

  /** Writes progress (and renews or gives back the lease); false, and the run stops, once the lease is lost. */
  private async flush(release: boolean, nextAttemptAt: Date | null): Promise<boolean> {
    const rows = this.rows;
    this.rows = [];
    this.dirty = false;
    const move = {
      cursor: this.cursor(),
      attempts: this.attempts,
      failingSince: this.failingSince,
      nextAttemptAt,
      release,
      rows,
    };
    const ok = await this.host.query(() => this.host.cursors.move(this.endpoint.id, this.endpoint.generation, move));
    this.lastFlush = performance.now();
    this.renewBy = this.lastFlush + this.host.config.leaseMs / 3;
    if (!ok) this.lost = true;
    return ok;
  }

  /** Gives the endpoint back with a retry time, or disables it once it has failed for too long. */
  private async retryLater(): Promise<void> {
    const { config, log } = this.host;
    this.attempts += 1;
    this.failingSince ??= new Date();
    if (Date.now() - this.failingSince.getTime() >= config.retryForMs) {
      this.rows.push(...this.failures.map((f) => ({ ...f.row, status: 'failed' as const })));
      if (!(await this.flush(true, null))) return;
      log.warn(
        { endpoint: this.endpoint.id, attempts: this.attempts },
        'webhook endpoint failed for too long: disabled',
      );
      await this.host.disable(this.endpoint.id, WEBHOOK_DISABLED_REASON);
      return;
    }
    this.rows.push(...this.failures.map((f) => ({ ...f.row, status: 'retrying' as const })));
    log.warn(
      { endpoint: this.endpoint.id, attempts: this.attempts, error: this.failures[0]!.row.error },
      'webhook endpoint failing: trying again later',
    );
    const asked = this.failures.map((f) => f.attempt.retryAfterMs ?? 0);
    const delay = retryDelayMs(config, this.attempts, Math.max(...asked) || null);
    const retryAt = new Date(Math.min(Date.now() + delay, this.failingSince.getTime() + config.retryForMs));
    if (!(await this.flush(true, retryAt))) return;
    // Wake when it is due (the poll would too, later); any instance may take it then.
    setTimeout(() => this.host.wake(), retryAt.getTime() - Date.now() + 5).unref();
  }

  private notify(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.notify(), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
