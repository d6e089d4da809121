// The set of authenticated feed connections: hands every dispatched batch to each of them
// (the frames inside are already serialized, once), keeps them honest with a heartbeat,
// and re-resolves principals periodically and whenever a user, role or settings event
// could have disabled an account, changed a role, or turned guests off.
import type { FastifyBaseLogger } from 'fastify';
import { affectsPrincipals } from './event-visibility.js';
import type { FeedConnection } from './feed-connection.js';
import type { EncodedEvent } from './feed-messages.js';
import { createLimiter } from './limiter.js';
import { PublishedBatch } from './published-batch.js';

export interface HubOptions {
  heartbeatMs: number;
  recheckMs: number;
  log: FastifyBaseLogger;
}

export class FeedHub {
  private readonly connections = new Set<FeedConnection>();
  private readonly timers: NodeJS.Timeout[] = [];
  // Re-checks may hit the users projection: a few at a time, not thousands at once.
  private readonly recheckLimiter = createLimiter(8);
  private pendingUids: Set<string> | 'all' | null = null;

  constructor(private readonly options: HubOptions) {}

  get size(): number {
    return this.connections.size;
  }

  /** Whether a connection sees some sites only (its stock events need units per site). */
  hasLimitedToSites(): boolean {
    for (const connection of this.connections) if (connection.limitedToSites) return true;
    return false;
  }

  join(connection: FeedConnection): void {
    this.connections.add(connection);
  }

  leave(connection: FeedConnection): void {
    this.connections.delete(connection);
  }

  publish(events: EncodedEvent[]): void {
    const batch = new PublishedBatch(events);
    for (const connection of this.connections) connection.deliver(batch);
    for (const event of events) {
      if (!affectsPrincipals(event.streamType)) continue;
      // A user's own stream names them; roles and settings can touch anyone.
      if (event.streamType === 'user' && event.streamId.startsWith('user-'))
        this.scheduleRecheck(event.streamId.slice(5));
      else this.scheduleRecheck('all');
    }
  }

  start(): void {
    const heartbeat = setInterval(() => {
      for (const connection of this.connections) connection.heartbeat();
    }, this.options.heartbeatMs);
    const recheck = setInterval(() => this.recheck(() => true), this.options.recheckMs);
    heartbeat.unref();
    recheck.unref();
    this.timers.push(heartbeat, recheck);
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  private scheduleRecheck(uid: string | 'all'): void {
    const first = this.pendingUids === null;
    if (uid === 'all' || this.pendingUids === 'all') {
      this.pendingUids = 'all';
    } else {
      this.pendingUids ??= new Set();
      this.pendingUids.add(uid);
    }
    if (!first) return;
    // Once per dispatched batch, however many such events it held.
    setImmediate(() => {
      const uids = this.pendingUids;
      this.pendingUids = null;
      if (uids === 'all') this.recheck(() => true);
      else if (uids) this.recheck((c) => c.uid !== null && uids.has(c.uid));
    });
  }

  private recheck(which: (connection: FeedConnection) => boolean): void {
    for (const connection of this.connections) {
      if (!which(connection)) continue;
      this.recheckLimiter
        .run(() => connection.recheck())
        .catch((error) => this.options.log.warn({ err: error }, 'feed re-check failed'));
    }
  }
}
