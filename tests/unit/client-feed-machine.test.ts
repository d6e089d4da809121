// The live feed connection machine: handshake, cursor tracking, reconnecting with the last
// cursor after a drop (a resumed connection needs no reload), snapshot-required, fatal
// closes and expired tokens.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { CLOSE_CODES, type FeedEvent } from '../../shared/realtime.js';
import {
  backoffMs,
  feedMachine,
  feedStatusOf,
  MAX_BACKOFF_MS,
  reconnectDelayMs,
  RESTART_SPREAD_MS,
  shownFeedStatus,
  type FeedEmitted,
  type SocketEvent,
  type SocketInput,
} from '../../client/lib/realtime-feed.machine.js';

function harness() {
  const sockets: { input: SocketInput; send: (event: SocketEvent) => void; closed: boolean }[] = [];
  const actor = createActor(
    feedMachine.provide({
      actors: {
        socket: fromCallback<SocketEvent, SocketInput>(({ input, sendBack }) => {
          const socket = { input, send: sendBack, closed: false };
          sockets.push(socket);
          return () => {
            socket.closed = true;
          };
        }),
      },
    }),
  );
  const emitted: FeedEmitted[] = [];
  for (const type of ['connected', 'event', 'alert', 'resync', 'fatal'] as const)
    actor.on(type, (e) => emitted.push(e));
  actor.start();
  const last = () => sockets[sockets.length - 1]!;
  const message = (m: unknown) => last().send({ type: 'SOCKET.MESSAGE', message: m as never });
  return { actor, sockets, emitted, last, message };
}

const feedEvent: FeedEvent = {
  type: 'StockAdjusted',
  stream: 'item-i1',
  streamType: 'item',
  version: 3,
  data: {},
  actor: { uid: null, name: 'x' },
  time: '',
};

afterEach(() => vi.useRealTimers());

describe('feed machine', () => {
  it('connects, takes the hello cursor, and forwards events with their cursors', () => {
    const { actor, sockets, emitted, message } = harness();
    expect(feedStatusOf(actor.getSnapshot().value)).toBe('offline');
    actor.send({ type: 'START' });
    expect(sockets[0]!.input).toEqual({ cursor: null, freshToken: false });
    expect(feedStatusOf(actor.getSnapshot().value)).toBe('connecting');
    message({ type: 'hello', cursor: '10:5' });
    expect(feedStatusOf(actor.getSnapshot().value)).toBe('live');
    expect(emitted).toEqual([{ type: 'connected', resumed: false }]);
    message({ type: 'event', cursor: '11:6', event: feedEvent });
    expect(emitted[1]).toEqual({ type: 'event', cursor: '11:6', event: feedEvent });
    expect(actor.getSnapshot().context.cursor).toBe('11:6');
  });

  it('reconnects after a drop with the last cursor, and reports the connection as resumed', () => {
    vi.useFakeTimers();
    const { actor, sockets, emitted, message } = harness();
    actor.send({ type: 'START' });
    message({ type: 'hello', cursor: '10:5' });
    message({ type: 'event', cursor: '12:7', event: feedEvent });
    sockets[0]!.send({ type: 'SOCKET.CLOSED', code: 1006, reason: '' });
    expect(sockets[0]!.closed).toBe(true);
    expect(actor.getSnapshot().value).toBe('waiting');
    vi.advanceTimersByTime(MAX_BACKOFF_MS);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]!.input.cursor).toBe('12:7');
    message({ type: 'hello', cursor: '15:9' });
    expect(emitted.at(-1)).toEqual({ type: 'connected', resumed: true });
    // The replay continues from our cursor, not the server's.
    expect(actor.getSnapshot().context.cursor).toBe('12:7');
  });

  it('reconnects at once when the browser comes back online', () => {
    const { actor, sockets } = harness();
    actor.send({ type: 'START' });
    sockets[0]!.send({ type: 'SOCKET.CLOSED', code: 1006, reason: '' });
    actor.send({ type: 'ONLINE' });
    expect(sockets).toHaveLength(2);
  });

  it('drops the cursor on snapshot-required and asks screens to reload', () => {
    const { actor, emitted, message } = harness();
    actor.send({ type: 'START' });
    message({ type: 'hello', cursor: '10:5' });
    message({ type: 'snapshot-required', reason: 'cursor too old' });
    expect(actor.getSnapshot().context.cursor).toBeNull();
    expect(emitted.at(-1)).toEqual({ type: 'resync', reason: 'cursor too old' });
  });

  it('forwards low-stock alerts', () => {
    const { actor, emitted, message } = harness();
    actor.send({ type: 'START' });
    message({ type: 'hello', cursor: '1:1' });
    const alert = {
      type: 'alert',
      cursor: '2:2',
      item: { id: 'i1', name: 'Tea', sku: 'T' },
      quantity: 1,
      threshold: 3,
    };
    message(alert);
    expect(emitted.at(-1)).toEqual({ type: 'alert', message: alert });
  });

  it('stops for good when the account is disabled', () => {
    vi.useFakeTimers();
    const { actor, sockets, emitted } = harness();
    actor.send({ type: 'START' });
    sockets[0]!.send({ type: 'SOCKET.CLOSED', code: CLOSE_CODES.accountDisabled, reason: 'Account disabled' });
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(emitted.at(-1)).toEqual({ type: 'fatal', code: CLOSE_CODES.accountDisabled, reason: 'Account disabled' });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('reconnects straight away with a fresh token when the token expired', () => {
    const { actor, sockets } = harness();
    actor.send({ type: 'START' });
    sockets[0]!.send({ type: 'SOCKET.CLOSED', code: CLOSE_CODES.tokenExpired, reason: 'Token expired' });
    expect(sockets).toHaveLength(2);
    expect(sockets[1]!.input.freshToken).toBe(true);
  });

  it('forgets the cursor on STOP (sign-out)', () => {
    const { actor, message, sockets } = harness();
    actor.send({ type: 'START' });
    message({ type: 'hello', cursor: '10:5' });
    actor.send({ type: 'STOP' });
    expect(sockets[0]!.closed).toBe(true);
    expect(actor.getSnapshot().context.cursor).toBeNull();
    expect(feedStatusOf(actor.getSnapshot().value)).toBe('offline');
  });

  it('spreads the first reconnect after a server restart over seconds, so screens do not arrive in one burst', () => {
    const delays = Array.from({ length: 500 }, (_, i) => reconnectDelayMs(0, 1012, () => i / 500));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(RESTART_SPREAD_MS.min);
    expect(Math.max(...delays)).toBeLessThanOrEqual(RESTART_SPREAD_MS.max);
    // No more than a tenth of 500 displays within any 400 ms.
    for (let t = 0; t < RESTART_SPREAD_MS.max; t += 100) {
      expect(delays.filter((d) => d >= t && d < t + 400).length).toBeLessThanOrEqual(60);
    }
    expect(reconnectDelayMs(0, 1013, () => 0)).toBe(RESTART_SPREAD_MS.min);
    // Other drops and later attempts back off as usual.
    expect(reconnectDelayMs(0, 4000, () => 0.5)).toBe(500);
    expect(reconnectDelayMs(3, 1012, () => 0.5)).toBe(4000);
  });

  it('shows Offline whenever the network is down, even with the socket still open; Reconnecting otherwise', () => {
    expect(shownFeedStatus('connecting', false)).toBe('offline');
    expect(shownFeedStatus('connecting', true)).toBe('connecting');
    expect(shownFeedStatus('live', true)).toBe('live');
    // An open socket takes up to a minute to notice the network went.
    expect(shownFeedStatus('live', false)).toBe('offline');
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(0, () => 0.5)).toBe(500);
    expect(backoffMs(3, () => 0.5)).toBe(4000);
    expect(backoffMs(20, () => 1)).toBeLessThanOrEqual(MAX_BACKOFF_MS * 1.25);
  });
});
