// Delivers the event log to webhook endpoints, at least once and in order per stream.
// Each endpoint has its own cursor in the database (cursor-store.ts), read with the event
// store's gap-safe readAfter, so a restart or another instance carries on where the last
// delivery left off. An instance delivers an endpoint only while it holds that endpoint's
// lease; a crashed instance's lease runs out and another takes over.
//
// Per endpoint (endpoint-run.ts), messages of different streams go side by side, while a
// stream's next message waits until its previous one was answered. Endpoints run side by
// side up to `concurrency`. Nothing here runs inside a request: requests only wake the
// deliverer, its database work is a few statements at a time (never more than DB_SLOTS
// connections), and a slow receiver holds up only its own endpoint. Messages are sent on the
// app's thread: a sender thread was measured against it and did not serve the app's users
// better (docs/integrations.md, How messages are sent).
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { WebhookConfig } from '../config.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { CommitSubscriptions } from '../subscriptions/subscriptions.js';
import { CursorStore, type DueEndpoint } from './cursor-store.js';
import { trimDeliveryLog } from './delivery-log-trim.js';
import { EndpointRun, type RunHost } from './endpoint-run.js';
import type { ConnectGuard } from './connect-guard.js';
import { closeConnections, sendWebhook } from './send-webhook.js';
import { openWebhookSecret } from './webhook-secrets.js';
import type { SecretBox } from '../secrets/secret-box.js';

export interface DelivererOptions {
  db: Kysely<any>;
  store: EventStore;
  /** Where this process hears of its commits and takes every instance's committed events. */
  subscriptions: CommitSubscriptions;
  config: WebhookConfig;
  log: FastifyBaseLogger;
  /** Switches an endpoint off for good (an event, so every screen and instance sees it). */
  disable(endpointId: string, reason: string): Promise<void>;
  /** Events read from the log at a time. */
  batchSize?: number;
  /** Opens the sealed signing secrets (webhook-secrets.ts). */
  secrets: SecretBox;
  /** Where messages may connect (connect-guard.ts). */
  guard: ConnectGuard;
}

/** However busy, scans for due endpoints start at most this often. */
const MIN_SCAN_GAP_MS = 25;
/** Database statements the deliverer runs at once, whatever the number of endpoints: the app's requests keep the rest of the pool. */
const DB_SLOTS = 2;

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether a run started with `was` may go on delivering the endpoint `now` describes (its cursor moves; the rest may not). */
function sameSettings(was: DueEndpoint, now: DueEndpoint): boolean {
  return (
    was.generation === now.generation &&
    was.url === now.url &&
    was.secret === now.secret &&
    sameList(was.eventTypes, now.eventTypes) &&
    sameList(was.categoryIds, now.categoryIds) &&
    sameList(was.siteIds ?? [], now.siteIds ?? []) &&
    sameList(was.ownerSites ?? ['all'], now.ownerSites ?? ['all'])
  );
}

/** A counting semaphore. */
class Slots {
  private readonly waiting: Array<() => void> = [];
  constructor(private free: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

export class WebhookDeliverer {
  readonly owner = randomUUID();
  private readonly cursors: CursorStore;
  private readonly running = new Map<string, { run: EndpointRun; done: Promise<void> }>();
  private readonly dbSlots = new Slots(DB_SLOTS);
  private readonly stopping = new AbortController();
  /** Endpoints the last scan found due: a commit needs a scan only if one of them is idle. */
  private lastDue: string[] = [];
  private scanning: Promise<void> | null = null;
  private scanAgain = false;
  private scanTimer: NodeJS.Timeout | undefined;
  private lastScanAt = 0;
  private lastTrimAt = 0;
  /** When this instance last started a run of each endpoint due lately: the longest waiting go first. */
  private readonly startedAt = new Map<string, number>();
  /** A batch of committed events has come: this process reads and hands them on. */
  private feedRuns = false;
  private stopped = false;
  private readonly cleanups: Array<() => unknown> = [];
  private readonly host: RunHost;

  constructor(private readonly options: DelivererOptions) {
    // Every message in flight listens to it.
    setMaxListeners(0, this.stopping.signal);
    this.cursors = new CursorStore(options.db, this.owner, options.config.leaseMs);
    this.host = {
      store: options.store,
      db: options.db,
      config: options.config,
      log: options.log,
      cursors: this.cursors,
      batchSize: options.batchSize ?? 200,
      signal: this.stopping.signal,
      isStopped: () => this.stopped,
      send: (url, secret, message) =>
        sendWebhook(url, secret, message, options.config.timeoutMs, options.guard, this.stopping.signal),
      query: (work) => this.dbSlots.run(work),
      wake: () => this.wake(),
      disable: (id, reason) => options.disable(id, reason),
      openSecret: (endpoint) => openWebhookSecret(options.secrets, endpoint.id, endpoint.secret),
    };
  }

  start(): void {
    const { subscriptions, config } = this.options;
    // New events come in the batches this process's subscriptions read (every instance's:
    // they are woken by their NOTIFY), which runs take instead of reading the log again; a
    // commit here only tells them a batch is coming (and makes them read the log if it does
    // not come soon, or if no batch has come yet). The poll: retries that fall due, a lost wake-up.
    this.cleanups.push(subscriptions.onCommitted(() => this.wake({ newEvents: true, committed: true })));
    this.cleanups.push(
      subscriptions.subscribe((events, after) => {
        this.feedRuns = true;
        for (const worker of this.running.values()) worker.run.feed(events, after);
        this.wake({ newEvents: true, fed: true });
      }),
    );
    const timer = setInterval(() => this.wake(), config.pollMs);
    timer.unref();
    this.cleanups.push(() => clearInterval(timer));
    this.wake();
  }

  /**
   * Looks for work now (or right after the scan in progress), paced under load. New events
   * only poke the endpoints being delivered, and scan when an endpoint due last time is idle;
   * anything else (poll, retry timer, endpoint changes) always scans.
   */
  wake(reason: { newEvents?: boolean; committed?: boolean; fed?: boolean } = {}): void {
    if (this.stopped) return;
    if (reason.committed) for (const worker of this.running.values()) worker.run.committed(this.feedRuns);
    else if (!reason.fed) for (const worker of this.running.values()) worker.run.poke();
    if (reason.newEvents && !this.lastDue.some((id) => !this.running.has(id))) return;
    if (this.scanning) {
      this.scanAgain = true;
      return;
    }
    if (this.scanTimer) return;
    const wait = this.lastScanAt + MIN_SCAN_GAP_MS - performance.now();
    if (wait > 0) {
      this.scanTimer = setTimeout(() => {
        this.scanTimer = undefined;
        this.wake();
      }, wait);
      return;
    }
    this.scanAgain = false;
    this.lastScanAt = performance.now();
    this.scanning = this.scan()
      .catch((error) => this.options.log.warn({ err: error }, 'webhook scan failed; retrying on the next wake-up'))
      .finally(() => {
        this.scanning = null;
        if (this.scanAgain) this.wake();
      });
  }

  private async scan(): Promise<void> {
    this.trimNowAndThen();
    const due = await this.dbSlots.run(() => this.cursors.due());
    this.lastDue = due.map((e) => e.id);
    // A run keeps the settings it started with: one whose endpoint was deleted, disabled,
    // replayed, taken over or edited since stops (and, if still due, starts again afresh).
    const current = new Map(due.map((e) => [e.id, e]));
    for (const [id, worker] of this.running) {
      const now = current.get(id);
      if (!now || !sameSettings(worker.run.endpoint, now)) worker.run.stop();
    }
    for (const id of this.startedAt.keys()) if (!current.has(id)) this.startedAt.delete(id);
    // Least recently started first. A caught-up endpoint is always due (its run reads, finds
    // nothing and ends), so in the table's order the first `concurrency` of them took every
    // slot, scan after scan, and an endpoint after them waited forever.
    const turns = [...due].sort((a, b) => (this.startedAt.get(a.id) ?? 0) - (this.startedAt.get(b.id) ?? 0));
    for (const endpoint of turns) {
      if (this.stopped || this.running.size >= this.options.config.concurrency) break;
      if (this.running.has(endpoint.id)) continue;
      this.startedAt.set(endpoint.id, performance.now());
      const run = new EndpointRun(this.host, endpoint);
      const worker = { run, done: Promise.resolve() };
      this.running.set(endpoint.id, worker);
      worker.done = run
        .run()
        .catch((error) =>
          this.options.log.warn(
            { err: error, endpoint: endpoint.id },
            'webhook delivery failed; retrying on the next wake-up',
          ),
        )
        .finally(() => {
          this.running.delete(endpoint.id);
          // A slot came free (an endpoint that waited for one may be due), or events came
          // in just as the run ended.
          if (due.length > this.options.config.concurrency || run.poked || run.stopped) this.wake();
        });
    }
  }

  /** Trims the delivery log (delivery-log-trim.ts) at most every logTrimEveryMs, off the scan's path. */
  private trimNowAndThen(): void {
    const { logKeep, logRetentionMs, logTrimEveryMs } = this.options.config;
    const now = performance.now();
    if (this.lastTrimAt !== 0 && now - this.lastTrimAt < logTrimEveryMs) return;
    this.lastTrimAt = now;
    void this.dbSlots
      .run(() => trimDeliveryLog(this.options.db, { keep: logKeep, retentionMs: logRetentionMs }))
      .catch((error) =>
        this.options.log.warn({ err: error }, 'could not trim the webhook delivery log; trying again later'),
      );
  }

  /** Stops delivering: messages in flight are abandoned (sent again by the next holder), the rest written down, leases given back. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearTimeout(this.scanTimer);
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    for (const worker of this.running.values()) worker.run.poke();
    await this.scanning;
    await Promise.all([...this.running.values()].map((w) => w.done));
    await closeConnections(this.options.guard);
    await this.cursors
      .releaseAll()
      .catch((error) => this.options.log.warn({ err: error }, 'could not release webhook leases'));
  }
}
