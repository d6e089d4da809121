// Messages of the WebSocket feed at /api/ws. A cursor is "txId:position" and orders events
// in commit-safe order; a client that reconnects sends the last cursor it saw.

export interface FeedEvent {
  type: string;
  stream: string;
  streamType: string;
  version: number;
  data: unknown;
  actor: { uid: string | null; name: string };
  time: string;
}

export type ServerMessage =
  | { type: 'hello'; cursor: string }
  | { type: 'event'; cursor: string; event: FeedEvent }
  /**
   * An item went low. siteId: at that site (an item watched per site: quantity and threshold
   * are the site's); siteName: the site's name, in a store of several sites.
   */
  | {
      type: 'alert';
      cursor: string;
      item: { id: string; name: string; sku: string };
      quantity: number;
      threshold: number;
      siteId?: string;
      siteName?: string;
    }
  | { type: 'alert-cleared'; cursor: string; itemId: string; quantity: number; threshold: number; siteId?: string }
  | { type: 'snapshot-required'; reason: string }
  | { type: 'pong' }
  | { type: 'error'; error: string };

export type ClientMessage =
  /** First message: the Firebase ID token and, on reconnect, the last cursor seen. */
  | { type: 'auth'; token: string; cursor?: string }
  /** A refreshed ID token before the current one expires. */
  | { type: 'reauth'; token: string }
  | { type: 'ping' };

/** Close codes the server uses, with the reason text sent along. */
export const CLOSE_CODES = {
  authRequired: 4401,
  tokenExpired: 4402,
  forbidden: 4403,
  accountDisabled: 4404,
  guestsDisabled: 4405,
  tooSlow: 4408,
  badMessage: 4400,
  /** The server is shutting down for a restart or deploy: reconnect (to it or another instance) and catch up by cursor. */
  serverRestarting: 1012,
  /** The database is briefly unavailable: reconnect after a short wait. */
  tryAgainLater: 1013,
} as const;

/**
 * Authenticating in the handshake instead of the first message (for clients that can't
 * send first): `new WebSocket(url, [FEED_PROTOCOL, TOKEN_PROTOCOL_PREFIX + idToken])`.
 * The server answers with FEED_PROTOCOL; the cursor may then go in `?cursor=` (it is
 * not a secret; the token never goes in the URL).
 */
export const FEED_PROTOCOL = 'stockroom.feed';
export const TOKEN_PROTOCOL_PREFIX = 'token.';
