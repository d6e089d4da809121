// GET /api/ws: the live feed. Public at the HTTP level (a browser can't set headers on a
// WebSocket); the connection authenticates itself with the ID token in its first message or
// the Sec-WebSocket-Protocol header. Wires one hub for this server, fed by the live feed's
// subscription to committed events (live-feed.ts), started when the app is ready and
// stopped when it closes.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { CLOSE_CODES, FEED_PROTOCOL } from '../../shared/realtime.js';
import { apiTokenSignIn } from '../api-tokens/api-tokens-feature.js';
import type { AppContext } from '../app-context.js';
import type { PrincipalResolver } from '../auth/principal.js';
import { tokenFromProtocols } from './feed-auth.js';
import { FeedConnection, type FeedContext } from './feed-connection.js';
import { FeedHub } from './feed-hub.js';
import { createItemLabels } from './item-labels.js';
import { createLocationSites, unitsBySite } from '../auth/event-sites.js';
import type { FeedSites } from './feed-messages.js';
import { createLimiter } from './limiter.js';
import { LiveFeed } from './live-feed.js';
import { checkResumeCursor } from './resume-cursor.js';

export interface RealtimeRoutesOptions {
  ctx: AppContext;
  /** The same resolver the HTTP routes use, so disabled accounts and the guest setting apply here too. */
  resolvePrincipal: PrincipalResolver;
}

const HEARTBEAT_MS = 30_000;
const RECHECK_MS = 30_000;
const AUTH_TIMEOUT_MS = 10_000;
const MAX_BUFFERED_EVENTS = 5000;

export const realtimeRoutes: FastifyPluginAsync<RealtimeRoutesOptions> = async (app, { ctx, resolvePrincipal }) => {
  const { config, database, store, verifier, subscriptions } = ctx;
  const settings = config.realtime;
  const log = app.log.child({ feature: 'realtime' });
  const labels = createItemLabels(database.db, store);
  const hub = new FeedHub({ heartbeatMs: HEARTBEAT_MS, recheckMs: RECHECK_MS, log });
  const locationSites = createLocationSites(database.db);
  // Units per site are read only for those limited to some sites (roles per site).
  const sites = (units: boolean): FeedSites =>
    units ? { locationSites, units: (ids) => unitsBySite(database.db, ids) } : { locationSites };
  const live = new LiveFeed({
    labels,
    sites: () => sites(hub.hasLimitedToSites()),
    publish: (batch) => hub.publish(batch),
    startCursor: () => subscriptions.cursor,
  });
  const unsubscribe = subscriptions.subscribe((events, after) => live.take(events, after));
  const feed: FeedContext = {
    store,
    checkResume: (cursor, target) => checkResumeCursor(database.db, cursor, target, settings.maxCatchUpEvents),
    verifier,
    resolvePrincipal,
    apiTokens: apiTokenSignIn(ctx, resolvePrincipal),
    labels,
    sites,
    readLimiter: createLimiter(4),
    liveCursor: () => live.cursor,
    join: (connection) => hub.join(connection),
    leave: (connection) => hub.leave(connection),
    settings: {
      sendBufferBytes: settings.sendBufferBytes,
      authTimeoutMs: AUTH_TIMEOUT_MS,
      maxBufferedEvents: MAX_BUFFERED_EVENTS,
    },
    log,
  };

  app.addHook('onReady', async () => hub.start());
  app.addHook('onClose', async () => {
    unsubscribe();
    hub.stop();
  });

  await app.register(websocket, {
    options: {
      maxPayload: settings.maxMessageBytes,
      // Must stay off: the feed writes pre-framed bytes to the socket (see ws-frame.ts).
      perMessageDeflate: false,
      // Answer with the feed protocol, never echo the token protocol back.
      handleProtocols: (protocols) => (protocols.has(FEED_PROTOCOL) ? FEED_PROTOCOL : false),
    },
    preClose(done) {
      // 1012 "service restart": clients reconnect (to this server once it is back, or to
      // another instance behind the same URL) and catch up from their cursor, with no reload.
      for (const client of this.websocketServer.clients)
        client.close(CLOSE_CODES.serverRestarting, 'Server restarting');
      this.websocketServer.close(() => done());
    },
  });

  const allowedOrigins = new Set(config.allowedOrigins);
  async function checkOrigin(request: FastifyRequest, reply: FastifyReply) {
    // Browsers always send Origin on a WebSocket handshake; tools and servers may not.
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      request.log.warn({ origin }, 'feed connection from a disallowed origin');
      return reply.code(403).send({ error: 'Origin not allowed' });
    }
  }

  app.get<{ Querystring: { cursor?: string } }>(
    '/ws',
    { websocket: true, config: { public: true }, onRequest: checkOrigin },
    (socket, request) => {
      const token = tokenFromProtocols(request.headers['sec-websocket-protocol']);
      const cursor = typeof request.query.cursor === 'string' ? request.query.cursor : undefined;
      new FeedConnection(socket, request.raw.socket, feed, { token, cursor });
    },
  );
};
