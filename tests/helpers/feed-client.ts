// A real `ws` client of /api/ws for tests: collects every server message, waits for
// conditions on them, and reports how the server closed the connection.
import WebSocket from 'ws';
import type { ClientMessage, ServerMessage } from '../../shared/realtime.js';

export type EventMessage = Extract<ServerMessage, { type: 'event' }>;

export interface FeedClient {
  ws: WebSocket;
  messages: ServerMessage[];
  /** Resolves with the close code and reason once the connection is closed. */
  closed: Promise<{ code: number; reason: string }>;
  events(): EventMessage[];
  send(message: ClientMessage): void;
  /** Waits until `done(messages)` holds; fails with what arrived so far after the timeout. */
  waitFor(done: (messages: ServerMessage[]) => boolean, timeoutMs?: number, label?: string): Promise<void>;
  waitForEvents(count: number, timeoutMs?: number): Promise<EventMessage[]>;
  /**
   * Waits until `count` events match and returns those. Tests that look for their own writes
   * use this: on a shared PostgreSQL another suite's open transaction can hold the gap-safe
   * hello cursor before the test's setup writes, which then (correctly) arrive first.
   */
  waitForMatching(
    match: (event: EventMessage['event']) => boolean,
    count?: number,
    timeoutMs?: number,
  ): Promise<EventMessage[]>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Sent as the first message ({type:'auth'}) once open. */
  token?: string;
  cursor?: string;
  /** Handshake protocols (token in the Sec-WebSocket-Protocol header). */
  protocols?: string[];
  origin?: string;
  /** Query string to append, e.g. "?cursor=1:2". */
  query?: string;
}

export function feedUrl(serverUrl: string): string {
  return serverUrl.replace(/^http/, 'ws') + '/api/ws';
}

export async function connectFeed(serverUrl: string, options: ConnectOptions = {}): Promise<FeedClient> {
  const ws = new WebSocket(feedUrl(serverUrl) + (options.query ?? ''), options.protocols ?? [], {
    ...(options.origin ? { origin: options.origin } : {}),
  });
  const messages: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as ServerMessage);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused with HTTP ${res.statusCode}`)));
  });
  ws.on('error', () => undefined);
  if (options.token)
    ws.send(
      JSON.stringify({ type: 'auth', token: options.token, ...(options.cursor ? { cursor: options.cursor } : {}) }),
    );

  const client: FeedClient = {
    ws,
    messages,
    closed,
    events: () => messages.filter((m): m is EventMessage => m.type === 'event'),
    send: (message) => ws.send(JSON.stringify(message)),
    waitFor(done, timeoutMs = 60_000, label = 'condition') {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (done(messages)) {
            cleanup();
            resolve();
          } else if (ws.readyState === WebSocket.CLOSED) {
            cleanup();
            reject(new Error(`feed closed before ${label}; got ${describe(messages)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${label}; got ${describe(messages)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async waitForEvents(count, timeoutMs) {
      await client.waitFor(() => client.events().length >= count, timeoutMs, `${count} events`);
      return client.events();
    },
    async waitForMatching(match, count = 1, timeoutMs) {
      const matching = () => client.events().filter((e) => match(e.event));
      await client.waitFor(() => matching().length >= count, timeoutMs, `${count} matching events`);
      return matching();
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close(1000);
      await closed;
    },
  };
  return client;
}

function describe(messages: ServerMessage[]): string {
  const types = messages.map((m) => m.type);
  return `${messages.length} messages [${types.slice(0, 5).join(', ')}${types.length > 5 ? ', ...' : ''}]`;
}
