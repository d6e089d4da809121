// One client of the feed, from handshake to close: authentication (first message or the
// handshake's protocol header), catch-up from its cursor with a gap-free handover to the
// live feed, token re-verification and expiry, and the permission mask used by the hub.
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import { CLOSE_CODES, type ClientMessage, type ServerMessage } from '../../shared/realtime.js';
import type { PrincipalResolver } from '../auth/principal.js';
import type { TokenVerifier } from '../auth/verify-token.js';
import type { EventStore } from '../eventstore/event-store.js';
import { formatCursor, type Cursor } from '../eventstore/types.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/database-unavailable.js';
import { compareCursors } from './cursor-order.js';
import { isGuest } from '../auth/guest-view.js';
import { audienceMask, GUEST_VIEW } from './event-visibility.js';
import { visibleSites } from '../auth/site-access.js';
import {
  authenticate,
  authenticateApiToken,
  closeReason,
  FeedClose,
  resolve,
  type FeedApiTokens,
  type FeedIdentity,
} from './feed-auth.js';
import { encodeEvents, framesFor, serialize, type EncodedEvent, type FeedSites } from './feed-messages.js';
import type { ItemLabels } from './item-labels.js';
import type { Limiter } from './limiter.js';
import type { PublishedBatch } from './published-batch.js';
import type { ResumeCheck } from './resume-cursor.js';

export interface FeedSettings {
  sendBufferBytes: number;
  authTimeoutMs: number;
  /** Live events held for a client still catching up; beyond this it re-reads from the store instead. */
  maxBufferedEvents: number;
}

/** What every connection of one server shares. */
export interface FeedContext {
  store: Pick<EventStore, 'readAfter'>;
  /** Whether a reconnecting client's cursor can be resumed (see resume-cursor.ts). */
  checkResume(cursor: string, target: Cursor): Promise<ResumeCheck>;
  verifier: TokenVerifier;
  resolvePrincipal: PrincipalResolver;
  /** `srk_` API tokens sign in here too (scripts and tills following the feed). */
  apiTokens?: FeedApiTokens;
  labels: ItemLabels;
  /** Sites of events and units per site, for connections limited to some sites (`units`: read them). */
  sites?(units: boolean): FeedSites;
  /** Bounds concurrent catch-up reads across all connections. */
  readLimiter: Limiter;
  /** The live cursor (live-feed.ts): everything up to it has been published to the hub. */
  liveCursor(): Cursor;
  join(connection: FeedConnection): void;
  leave(connection: FeedConnection): void;
  settings: FeedSettings;
  log: FastifyBaseLogger;
}

type State = 'awaiting-auth' | 'authenticating' | 'catching-up' | 'live' | 'closed';

/** The connection's TCP socket, written to directly with pre-framed bytes (see ws-frame.ts). */
export interface Wire {
  write(bytes: Buffer): unknown;
}

const TEXT = { binary: false } as const;
const CATCH_UP_BATCH = 500;

export class FeedConnection {
  private state: State = 'awaiting-auth';
  private identity: FeedIdentity | null = null;
  /** Cursor of the last event this client was sent or deliberately skipped. */
  private last: Cursor = { txId: '0', position: 0 };
  private buffered: PublishedBatch[] = [];
  private bufferedCount = 0;
  private overflowed = false;
  private expiryTimer: NodeJS.Timeout | undefined;
  private authTimer: NodeJS.Timeout | undefined;
  /** Set by the heartbeat; any sign of life clears it. */
  private awaitingPong = false;
  mask = 0;
  /** The sites this client may see events of (roles per site); 'all' for most. */
  private sites: 'all' | { visible: ReadonlySet<string>; key: string } = 'all';

  constructor(
    readonly ws: WebSocket,
    private readonly wire: Wire,
    private readonly ctx: FeedContext,
    handshake: { token: string | null; cursor: string | undefined },
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('pong', () => (this.awaitingPong = false));
    ws.on('close', () => this.cleanUp());
    ws.on('error', () => this.cleanUp());
    if (handshake.token) {
      void this.authenticateWith(handshake.token, handshake.cursor);
    } else {
      this.authTimer = setTimeout(
        () => this.close(CLOSE_CODES.authRequired, 'Authentication required'),
        ctx.settings.authTimeoutMs,
      );
    }
  }

  get uid(): string | null {
    return this.identity?.token.uid ?? null;
  }

  /** Whether this client sees some sites only (then stock events' quantities are read per site for it). */
  get limitedToSites(): boolean {
    return this.sites !== 'all';
  }

  /** Called by the hub with every batch of committed events the live feed handed it. */
  deliver(batch: PublishedBatch): void {
    if (this.state === 'live') {
      // Nothing may follow a close frame, and the close handshake can be under way.
      if (this.ws.readyState !== WebSocket.OPEN || this.tooSlow()) return;
      if (compareCursors(batch.first, this.last) > 0 && this.sites === 'all' && !this.ownsHiddenEvent(batch.events)) {
        // The usual case: all of it is new to this client; the bytes are shared by everyone with this mask.
        const bytes = batch.bytesFor(this.mask);
        if (bytes) this.wire.write(bytes);
        this.last = batch.last;
      } else {
        this.sendEvents(batch.events);
      }
    } else if (this.state === 'catching-up' && !this.overflowed) {
      this.bufferedCount += batch.events.length;
      if (this.bufferedCount > this.ctx.settings.maxBufferedEvents) {
        // Holding more would cost memory for a client that is far behind: drop the buffer
        // and let catch-up read on from the store to a newer live cursor.
        this.overflowed = true;
        this.buffered = [];
        this.bufferedCount = 0;
      } else {
        this.buffered.push(batch);
      }
    }
  }

  /** Heartbeat: a connection that did not answer the previous ping is dead. */
  heartbeat(): void {
    if (this.state === 'closed') return;
    if (this.awaitingPong) {
      this.ws.terminate();
      this.cleanUp();
      return;
    }
    this.awaitingPong = true;
    this.ws.ping();
  }

  /** Resolves the principal again: a disabled account or guests turned off close the connection. */
  async recheck(): Promise<void> {
    const identity = this.identity;
    if (!identity || this.state === 'closed') return;
    try {
      // An API token is checked again as a whole: revoked or expired closes the connection.
      const next =
        identity.apiToken && this.ctx.apiTokens
          ? await authenticateApiToken(identity.apiToken, this.ctx.apiTokens)
          : { token: identity.token, principal: await resolve(identity.token, this.ctx.resolvePrincipal) };
      if (this.identity === identity) this.setIdentity({ ...identity, ...next });
    } catch (error) {
      const close = error as FeedClose;
      // A database hiccup is not a reason to drop everyone; the next check tries again.
      if (close.code === 1011) this.ctx.log.warn({ err: error }, 'feed principal re-check failed');
      else this.close(close.code, close.reason);
    }
  }

  close(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.cleanUp();
    this.ws.close(code, closeReason(reason));
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    this.awaitingPong = false;
    let message: ClientMessage;
    try {
      if (isBinary) throw new Error('binary');
      message = JSON.parse(data.toString('utf8')) as ClientMessage;
      if (!message || typeof message !== 'object' || typeof message.type !== 'string') throw new Error('shape');
    } catch {
      this.close(CLOSE_CODES.badMessage, 'Messages must be JSON objects with a type');
      return;
    }
    switch (message.type) {
      case 'ping':
        this.sendMessage({ type: 'pong' });
        return;
      case 'auth':
        if (this.state !== 'awaiting-auth') {
          this.sendMessage({ type: 'error', error: 'Already authenticated; send reauth with a refreshed token' });
          return;
        }
        if (typeof message.token !== 'string' || (message.cursor !== undefined && typeof message.cursor !== 'string')) {
          this.close(CLOSE_CODES.badMessage, 'auth needs a token and an optional cursor string');
          return;
        }
        void this.authenticateWith(message.token, message.cursor);
        return;
      case 'reauth':
        if (!this.identity) {
          this.close(CLOSE_CODES.authRequired, 'Authenticate first');
          return;
        }
        if (typeof message.token !== 'string') {
          this.close(CLOSE_CODES.badMessage, 'reauth needs a token');
          return;
        }
        void this.reauthenticate(message.token);
        return;
      default:
        this.sendMessage({
          type: 'error',
          error: `Unknown message type "${String((message as { type: unknown }).type)}"`,
        });
    }
  }

  private async authenticateWith(token: string, cursor: string | undefined): Promise<void> {
    clearTimeout(this.authTimer);
    this.state = 'authenticating';
    try {
      const identity = await authenticate(token, this.ctx.verifier, this.ctx.resolvePrincipal, this.ctx.apiTokens);
      if (this.state !== 'authenticating') return; // closed meanwhile
      this.setIdentity(identity);
      await this.start(cursor);
    } catch (error) {
      this.fail(error);
    }
  }

  private async reauthenticate(token: string): Promise<void> {
    try {
      const identity = await authenticate(token, this.ctx.verifier, this.ctx.resolvePrincipal, this.ctx.apiTokens);
      if (this.state === 'closed') return;
      if (identity.token.uid !== this.identity?.token.uid) {
        this.close(CLOSE_CODES.forbidden, 'The refreshed token is for another user');
        return;
      }
      this.setIdentity(identity);
    } catch (error) {
      this.fail(error);
    }
  }

  private setIdentity(identity: FeedIdentity): void {
    this.identity = identity;
    const guest = isGuest(identity.principal);
    this.mask = audienceMask(identity.principal.permissions, { guest }) | (guest ? GUEST_VIEW : 0);
    const sites = visibleSites(identity.principal);
    this.sites = sites === 'all' ? 'all' : { visible: new Set(sites), key: [...sites].sort().join(',') };
    clearTimeout(this.expiryTimer);
    const left = identity.token.expiresAt - Date.now();
    this.expiryTimer = setTimeout(
      () => this.close(CLOSE_CODES.tokenExpired, 'Token expired'),
      Math.min(left, 2 ** 31 - 1),
    );
  }

  /**
   * The handover. Joining the hub and reading the live cursor happen in one synchronous
   * step, so every event after that cursor reaches this connection's buffer. Catch-up then
   * reads from the store at least up to that cursor; the buffer is flushed skipping what
   * catch-up already sent, and the connection is live: no gap, no duplicate.
   */
  private async start(resumeFrom: string | undefined): Promise<void> {
    const target = this.ctx.liveCursor();
    this.state = 'catching-up';
    this.ctx.join(this);
    this.sendMessage({ type: 'hello', cursor: formatCursor(target) });
    this.last = target;
    if (resumeFrom !== undefined) {
      const check = await this.ctx.checkResume(resumeFrom, target);
      if (this.state !== 'catching-up') return;
      if (check.ok) {
        this.last = check.cursor;
        if (!(await this.catchUp(target))) return;
      } else {
        this.sendMessage({ type: 'snapshot-required', reason: check.reason });
      }
    }
    const held = this.buffered;
    this.buffered = [];
    this.bufferedCount = 0;
    for (const batch of held) this.sendEvents(batch.events);
    if (this.state === 'catching-up') this.state = 'live';
  }

  /** Sends everything from `this.last` up to at least `target`; false when the connection went away. */
  private async catchUp(initialTarget: Cursor): Promise<boolean> {
    let target = initialTarget;
    for (;;) {
      let emptyReads = 0;
      while (compareCursors(this.last, target) < 0) {
        if (!(await this.waitForRoom())) return false;
        const from = this.last;
        const events = await this.ctx.readLimiter.run(() => this.ctx.store.readAfter(from, CATCH_UP_BATCH));
        if (this.state !== 'catching-up') return false;
        if (events.length === 0) {
          // The live feed already read up to target, so it is readable; wait out a moment's lag.
          if (++emptyReads > 50) throw new FeedClose(1011, 'Catch-up stalled; reconnect');
          await sleep(20);
          continue;
        }
        emptyReads = 0;
        const encoded = await encodeEvents(events, this.ctx.labels, this.ctx.sites?.(this.sites !== 'all'));
        if (this.state !== 'catching-up') return false;
        this.sendEvents(encoded);
      }
      if (!this.overflowed) return true;
      // Live events were dropped while we read: aim for the newer live cursor, buffering afresh.
      this.overflowed = false;
      target = this.ctx.liveCursor();
    }
  }

  /** An event of this user's own stream that the shared bytes for its mask leave out. */
  private ownsHiddenEvent(events: EncodedEvent[]): boolean {
    const uid = this.uid;
    return uid !== null && events.some((e) => e.owner === uid && (e.audience & this.mask) === 0);
  }

  /** Sends events one by one, skipping what this client already has or may not see. */
  private sendEvents(events: EncodedEvent[]): void {
    if (this.ws.readyState !== WebSocket.OPEN || this.tooSlow()) return;
    const frames: Buffer[] = [];
    for (const event of events) {
      if (compareCursors(event.cursor, this.last) <= 0) continue;
      this.last = event.cursor;
      if ((event.audience & this.mask) === 0 && (event.owner === null || event.owner !== this.uid)) continue;
      // Limited to some sites: their events and those of no site, with quantities per site.
      if (this.sites === 'all') frames.push(...framesFor(event, this.mask));
      else frames.push(...event.siteFrames(this.sites.visible, this.sites.key));
    }
    if (frames.length > 0) this.wire.write(frames.length === 1 ? frames[0]! : Buffer.concat(frames));
  }

  /**
   * What we queued before is still not taken: a client that can't keep up is dropped rather
   * than held in memory, and catches up on reconnect. Checked before a send, not after, so
   * one big batch to a client that reads is not mistaken for a stall.
   */
  private tooSlow(): boolean {
    if (this.ws.bufferedAmount <= this.ctx.settings.sendBufferBytes) return false;
    this.ctx.log.info({ uid: this.uid, buffered: this.ws.bufferedAmount }, 'feed client too slow, dropped');
    this.cleanUp();
    this.ws.terminate();
    return true;
  }

  private sendMessage(message: ServerMessage): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(serialize(message), TEXT);
  }

  private async waitForRoom(): Promise<boolean> {
    while (this.ws.bufferedAmount > this.ctx.settings.sendBufferBytes / 2) {
      if (this.state === 'closed') return false;
      await sleep(25);
    }
    return this.state !== 'closed';
  }

  private fail(error: unknown): void {
    if (error instanceof FeedClose) {
      this.close(error.code, error.reason);
    } else if (isDatabaseUnavailable(error)) {
      // Not the client's fault and not fatal: it reconnects with its cursor once the database is back.
      this.ctx.log.warn({ err: error }, 'feed connection closed: database unavailable');
      this.close(CLOSE_CODES.tryAgainLater, DATABASE_UNAVAILABLE_MESSAGE);
    } else {
      this.ctx.log.error({ err: error }, 'feed connection failed');
      this.close(1011, 'Server error');
    }
  }

  private cleanUp(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.authTimer);
    clearTimeout(this.expiryTimer);
    this.buffered = [];
    this.ctx.leave(this);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
