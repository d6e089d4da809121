// The app's one live connection to /api/ws: the feed machine driven by a real WebSocket.
// The socket authenticates with the ID token (first message, never the URL), re-sends a
// refreshed token before the old one expires, pings to notice dead connections, and
// reports closes to the machine, which reconnects with its cursor.
import { createActor, fromCallback, type Actor } from 'xstate';
import { useSyncExternalStore } from 'react';
import { useSelector } from '@xstate/react';
import type { ClientMessage } from '../../shared/realtime';
import {
  feedMachine,
  feedStatusOf,
  shownFeedStatus,
  type FeedEmitted,
  type FeedStatus,
  type SocketEvent,
  type SocketInput,
} from './realtime-feed.machine';
import { noteServerAnswered, onReachabilityChange, serverUnreachable } from './network-status';

export type FeedTokenSource = (forceRefresh: boolean) => Promise<string | null>;

const PING_EVERY_MS = 25_000;
const SILENCE_LIMIT_MS = 65_000;
const TOKEN_CHECK_EVERY_MS = 60_000;
/** Our own close code for a connection that went silent or could not be opened. */
const LOCAL_DROP = 4000;

let tokenSource: FeedTokenSource = async () => null;

function feedUrl(): string {
  const url = new URL('/api/ws', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

const webSocketActor = fromCallback<SocketEvent, SocketInput>(({ input, sendBack }) => {
  let socket: WebSocket | null = null;
  let stopped = false;
  let lastHeard = Date.now();
  const timers: ReturnType<typeof setInterval>[] = [];
  const send = (message: ClientMessage) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  // A request that got no answer (network-status.ts) says this socket may be dead too, though
  // it could sit open for a minute before its pings tell: drop it and connect afresh, so the
  // badge and the data come back as soon as the server answers again.
  const stopWatching = onReachabilityChange(() => {
    if (!serverUnreachable() || socket?.readyState !== WebSocket.OPEN) return;
    socket.close();
    closed(LOCAL_DROP, 'A request got no answer');
  });
  const closed = (code: number, reason: string) => {
    if (stopped) return;
    stopped = true;
    stopWatching();
    timers.forEach(clearInterval);
    sendBack({ type: 'SOCKET.CLOSED', code, reason });
  };

  void (async () => {
    let token: string | null;
    try {
      token = await tokenSource(input.freshToken);
    } catch (error) {
      closed(LOCAL_DROP, (error as Error).message || 'No token');
      return;
    }
    if (stopped) return;
    if (!token) {
      closed(4401, 'Not signed in');
      return;
    }
    let currentToken = token;
    socket = new WebSocket(feedUrl());
    socket.onopen = () => {
      lastHeard = Date.now();
      send({ type: 'auth', token: currentToken, ...(input.cursor ? { cursor: input.cursor } : {}) });
    };
    socket.onmessage = (message) => {
      lastHeard = Date.now();
      noteServerAnswered();
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (!stopped) sendBack({ type: 'SOCKET.MESSAGE', message: parsed as never });
    };
    socket.onclose = (event) => closed(event.code || LOCAL_DROP, event.reason || 'Connection closed');
    timers.push(
      setInterval(() => {
        if (Date.now() - lastHeard > SILENCE_LIMIT_MS) {
          socket?.close();
          closed(LOCAL_DROP, 'The server stopped answering');
          return;
        }
        send({ type: 'ping' });
      }, PING_EVERY_MS),
      setInterval(() => {
        // Firebase hands out a new token about 5 minutes before the old one expires.
        tokenSource(false)
          .then((next) => {
            if (next && next !== currentToken) {
              currentToken = next;
              send({ type: 'reauth', token: next });
            }
          })
          .catch(() => undefined);
      }, TOKEN_CHECK_EVERY_MS),
    );
  })();

  return () => {
    stopped = true;
    stopWatching();
    timers.forEach(clearInterval);
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000, 'Client closing');
  };
});

let actor: Actor<typeof feedMachine> | null = null;

export function feedActor(): Actor<typeof feedMachine> {
  if (!actor) {
    actor = createActor(feedMachine.provide({ actors: { socket: webSocketActor } }));
    actor.start();
    window.addEventListener('online', () => actor?.send({ type: 'ONLINE' }));
  }
  return actor;
}

/** Connects the feed (after sign-in) with the given token source. */
export function startFeed(source: FeedTokenSource): void {
  tokenSource = source;
  feedActor().send({ type: 'START' });
}

/** Disconnects and forgets the cursor (after sign-out). */
export function stopFeed(): void {
  actor?.send({ type: 'STOP' });
}

/** Listens to one kind of feed output; returns the unsubscribe. */
export function onFeed<K extends FeedEmitted['type']>(
  type: K,
  handler: (emitted: Extract<FeedEmitted, { type: K }>) => void,
): () => void {
  const subscription = feedActor().on(type, handler as never);
  return () => subscription.unsubscribe();
}

/** The browser's offline and online events, and the app's own requests (network-status.ts). */
function subscribeToNetwork(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  const stopWatching = onReachabilityChange(onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
    stopWatching();
  };
}

/** Whether the network looks up: the browser says online and no request just went unanswered. */
const networkUp = () => navigator.onLine && !serverUnreachable();

export function useFeedStatus(): FeedStatus {
  const status = useSelector(feedActor(), (snapshot) => feedStatusOf(snapshot.value));
  const up = useSyncExternalStore(subscribeToNetwork, networkUp, () => true);
  return shownFeedStatus(status, up);
}
