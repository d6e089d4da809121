// The live feed connection as a state machine: connects to /api/ws, keeps the cursor of the
// last event it saw, reconnects with it after a drop (backing off), and re-emits what the
// server pushes for the data machines to apply. A fresh connection (no cursor) emits
// `connected` with resumed=false so screens reload their snapshot; a resumed one replays
// what was missed and needs no reload. `snapshot-required` drops the cursor and emits
// `resync`. The WebSocket itself is the `socket` actor (client/lib/realtime.ts), so tests
// can drive the machine with fake sockets.
import { assign, emit, fromCallback, setup } from 'xstate';
import type { FeedEvent, ServerMessage } from '../../shared/realtime';
import { CLOSE_CODES } from '../../shared/realtime';

export interface SocketInput {
  cursor: string | null;
  /** Ask for a fresh ID token (the last one was refused as expired). */
  freshToken: boolean;
}

export type SocketEvent =
  { type: 'SOCKET.MESSAGE'; message: ServerMessage } | { type: 'SOCKET.CLOSED'; code: number; reason: string };

export type FeedMachineEvent = SocketEvent | { type: 'START' } | { type: 'STOP' } | { type: 'ONLINE' };

export type FeedEmitted =
  | { type: 'connected'; resumed: boolean }
  | { type: 'event'; cursor: string; event: FeedEvent }
  | { type: 'alert'; message: Extract<ServerMessage, { type: 'alert' | 'alert-cleared' }> }
  | { type: 'resync'; reason: string }
  | { type: 'fatal'; code: number; reason: string };

export interface FeedContext {
  cursor: string | null;
  attempt: number;
  resumed: boolean;
  freshToken: boolean;
  lastClose: { code: number; reason: string } | null;
}

/** Close codes after which reconnecting cannot help until something changes (sign-in, settings). */
export const FATAL_CLOSE_CODES: number[] = [
  CLOSE_CODES.forbidden,
  CLOSE_CODES.accountDisabled,
  CLOSE_CODES.guestsDisabled,
  CLOSE_CODES.authRequired,
];

export const MAX_BACKOFF_MS = 15_000;

export function backoffMs(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * After a server restart (1012) or "try again later" (1013) every screen in the store is
 * disconnected at the same instant: each waits a random moment in this window before its
 * first reconnect, so 500 wall displays do not arrive in one burst.
 */
export const RESTART_SPREAD_MS = { min: 250, max: 4000 } as const;

export function reconnectDelayMs(attempt: number, lastCloseCode: number | undefined, random = Math.random): number {
  const restarted = lastCloseCode === CLOSE_CODES.serverRestarting || lastCloseCode === CLOSE_CODES.tryAgainLater;
  if (restarted && attempt === 0)
    return Math.round(RESTART_SPREAD_MS.min + random() * (RESTART_SPREAD_MS.max - RESTART_SPREAD_MS.min));
  return backoffMs(attempt, random);
}

const messageOf = (event: FeedMachineEvent): ServerMessage | null =>
  event.type === 'SOCKET.MESSAGE' ? event.message : null;

export const feedMachine = setup({
  types: {
    context: {} as FeedContext,
    events: {} as FeedMachineEvent,
    emitted: {} as FeedEmitted,
  },
  actors: {
    // Replaced by the real WebSocket in client/lib/realtime.ts.
    socket: fromCallback<SocketEvent, SocketInput>(() => () => undefined),
  },
  guards: {
    isHello: ({ event }) => messageOf(event)?.type === 'hello',
    isEvent: ({ event }) => messageOf(event)?.type === 'event',
    isAlert: ({ event }) => {
      const type = messageOf(event)?.type;
      return type === 'alert' || type === 'alert-cleared';
    },
    isSnapshotRequired: ({ event }) => messageOf(event)?.type === 'snapshot-required',
    isFatalClose: ({ event }) => event.type === 'SOCKET.CLOSED' && FATAL_CLOSE_CODES.includes(event.code),
    isTokenExpiredClose: ({ event }) => event.type === 'SOCKET.CLOSED' && event.code === CLOSE_CODES.tokenExpired,
  },
  actions: {
    rememberHello: assign(({ context, event }) => {
      const message = messageOf(event) as Extract<ServerMessage, { type: 'hello' }>;
      return {
        resumed: context.cursor !== null,
        cursor: context.cursor ?? message.cursor,
        attempt: 0,
        freshToken: false,
      };
    }),
    announceConnected: emit(({ context }) => ({ type: 'connected' as const, resumed: context.resumed })),
    rememberCursor: assign({
      cursor: ({ context, event }) => {
        const message = messageOf(event);
        return message && 'cursor' in message && typeof message.cursor === 'string' ? message.cursor : context.cursor;
      },
    }),
    forwardEvent: emit(({ event }) => {
      const message = messageOf(event) as Extract<ServerMessage, { type: 'event' }>;
      return { type: 'event' as const, cursor: message.cursor, event: message.event };
    }),
    forwardAlert: emit(({ event }) => ({
      type: 'alert' as const,
      message: messageOf(event) as Extract<ServerMessage, { type: 'alert' | 'alert-cleared' }>,
    })),
    dropCursor: assign({ cursor: null }),
    announceResync: emit(({ event }) => ({
      type: 'resync' as const,
      reason: (messageOf(event) as Extract<ServerMessage, { type: 'snapshot-required' }>).reason,
    })),
    rememberClose: assign({
      lastClose: ({ event }) => (event.type === 'SOCKET.CLOSED' ? { code: event.code, reason: event.reason } : null),
    }),
    announceFatal: emit(({ event }) => ({
      type: 'fatal' as const,
      code: event.type === 'SOCKET.CLOSED' ? event.code : 0,
      reason: event.type === 'SOCKET.CLOSED' ? event.reason : '',
    })),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    askFreshToken: assign({ freshToken: true }),
    reset: assign({ cursor: null, attempt: 0, resumed: false, freshToken: false, lastClose: null }),
  },
  delays: {
    backoff: ({ context }) => reconnectDelayMs(context.attempt, context.lastClose?.code),
  },
}).createMachine({
  id: 'feed',
  context: { cursor: null, attempt: 0, resumed: false, freshToken: false, lastClose: null },
  initial: 'idle',
  on: {
    STOP: { target: '.idle', actions: 'reset' },
  },
  states: {
    idle: {
      on: { START: 'connected' },
    },
    connected: {
      invoke: {
        src: 'socket',
        input: ({ context }) => ({ cursor: context.cursor, freshToken: context.freshToken }),
      },
      initial: 'handshaking',
      on: {
        'SOCKET.MESSAGE': [
          { guard: 'isEvent', actions: ['rememberCursor', 'forwardEvent'] },
          { guard: 'isAlert', actions: ['rememberCursor', 'forwardAlert'] },
          { guard: 'isSnapshotRequired', actions: ['dropCursor', 'announceResync'] },
        ],
        'SOCKET.CLOSED': [
          { guard: 'isFatalClose', target: 'stopped', actions: ['rememberClose', 'announceFatal'] },
          {
            guard: 'isTokenExpiredClose',
            target: 'connected',
            reenter: true,
            actions: ['rememberClose', 'askFreshToken'],
          },
          { target: 'waiting', actions: 'rememberClose' },
        ],
      },
      states: {
        handshaking: {
          on: {
            'SOCKET.MESSAGE': [{ guard: 'isHello', target: 'live', actions: ['rememberHello', 'announceConnected'] }],
          },
        },
        live: {},
      },
    },
    waiting: {
      after: { backoff: { target: 'connected', actions: 'countAttempt' } },
      on: { ONLINE: { target: 'connected' } },
    },
    stopped: {
      on: { START: { target: 'connected', actions: 'reset' } },
    },
  },
});

export type FeedStatus = 'offline' | 'connecting' | 'live' | 'stopped';

export function feedStatusOf(value: unknown): FeedStatus {
  if (value === 'idle') return 'offline';
  if (value === 'stopped') return 'stopped';
  if (typeof value === 'object' && value && (value as Record<string, unknown>).connected === 'live') return 'live';
  return 'connecting';
}

/**
 * What the badge shows: Offline whenever the network is down (the browser's offline event, or
 * a request that got no answer), whatever the feed says; an open socket can take a minute to
 * notice it is dead, and said Live all that while.
 */
export function shownFeedStatus(status: FeedStatus, networkUp: boolean): FeedStatus {
  return networkUp ? status : 'offline';
}
