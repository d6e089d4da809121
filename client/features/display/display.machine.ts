// The wall display's data, built to run for days with nobody at the screen: load the
// snapshot; apply what a pushed event or alert says at once (display-reducers.ts) and fetch
// the snapshot again (coalesced); fetch it after every (re)connection of the feed and every
// minute as a backstop; when a fetch fails keep showing the last good snapshot and try
// again shortly. No list grows: each fetch replaces the snapshot whole. A display of one place
// (display-place.ts) applies nothing itself: what it shows are the server's sums there, so a
// pushed change only brings the next snapshot sooner.
import { produce } from 'immer';
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { DisplaySnapshot } from '../../../shared/dashboard';
import type { FeedEvent, ServerMessage } from '../../../shared/realtime';
import { errorMessage } from '../../lib/api-client';
import { liveFeedActor } from '../../lib/live-query.machine';
import { onFeed } from '../../lib/realtime';
import { displayApi } from './api';
import { applyDisplayAlert, applyDisplayEvent } from './display-reducers';
import type { DisplayPlaceQuery } from './display-place';

export interface DisplayContext {
  snapshot: DisplaySnapshot | null;
  error: string | null;
  /** Something changed while a fetch was running: fetch once more after it. */
  stale: boolean;
  /** When the last good snapshot arrived (ms). */
  updatedAt: number | null;
}

export type DisplayEvent =
  | { type: 'FEED_EVENT'; event: FeedEvent }
  | { type: 'ALERT'; message: Extract<ServerMessage, { type: 'alert' }> }
  | { type: 'RESYNC' }
  | { type: 'REFRESH' };

export const REFRESH_EVERY_MS = 60_000;
export const RETRY_AFTER_MS = 5_000;
// Events of one change arrive together; a short wait makes them one request.
const COALESCE_MS = 60;

export function changesDisplay(event: FeedEvent): boolean {
  return event.streamType === 'item' || event.streamType === 'category' || event.streamType === 'settings';
}

/** Every (re)connection may have followed missed changes; a timer covers anything else. New alerts come along. */
const keepFresh = fromCallback<DisplayEvent, { everyMs: number }>(({ sendBack, input }) => {
  const offConnected = onFeed('connected', () => sendBack({ type: 'REFRESH' }));
  const offAlert = onFeed('alert', ({ message }) => {
    if (message.type === 'alert') sendBack({ type: 'ALERT', message });
  });
  const timer = setInterval(() => sendBack({ type: 'REFRESH' }), input.everyMs);
  return () => {
    offConnected();
    offAlert();
    clearInterval(timer);
  };
});

export const displayMachine = setup({
  types: { context: {} as DisplayContext, events: {} as DisplayEvent },
  actors: {
    load: fromPromise<DisplaySnapshot, void>(() => displayApi.snapshot()),
    feed: liveFeedActor,
    keepFresh,
  },
  guards: {
    relevant: ({ event }) => event.type !== 'FEED_EVENT' || changesDisplay(event.event),
    isStale: ({ context }) => context.stale,
  },
  actions: {
    setSnapshot: assign({
      snapshot: ({ event }) => (event as unknown as { output: DisplaySnapshot }).output,
      error: null,
      stale: false,
      updatedAt: () => Date.now(),
    }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load the display'),
    }),
    markStale: assign({ stale: true }),
    patch: assign({
      snapshot: ({ context, event }) => {
        if (!context.snapshot) return context.snapshot;
        if (event.type === 'FEED_EVENT' && changesDisplay(event.event))
          return produce(context.snapshot, (d) => applyDisplayEvent(d, event.event));
        if (event.type === 'ALERT')
          return produce(context.snapshot, (d) => applyDisplayAlert(d, event.message, new Date().toISOString()));
        return context.snapshot;
      },
    }),
  },
  delays: { coalesce: COALESCE_MS, retry: RETRY_AFTER_MS },
}).createMachine({
  id: 'display',
  context: { snapshot: null, error: null, stale: false, updatedAt: null },
  invoke: [{ src: 'feed' }, { src: 'keepFresh', input: { everyMs: REFRESH_EVERY_MS } }],
  initial: 'fetching',
  on: {
    // Applied in every state; whether a fetch follows is each state's business.
    FEED_EVENT: { guard: 'relevant', actions: 'patch' },
    ALERT: { actions: 'patch' },
  },
  states: {
    idle: {
      on: {
        FEED_EVENT: { guard: 'relevant', target: 'scheduled', actions: 'patch' },
        ALERT: { target: 'scheduled', actions: 'patch' },
        RESYNC: 'scheduled',
        REFRESH: 'scheduled',
      },
    },
    scheduled: {
      after: { coalesce: 'fetching' },
    },
    fetching: {
      invoke: {
        src: 'load',
        onDone: [
          { guard: 'isStale', target: 'scheduled', actions: 'setSnapshot' },
          { target: 'idle', actions: 'setSnapshot' },
        ],
        onError: { target: 'waiting', actions: 'setError' },
      },
      on: {
        FEED_EVENT: { guard: 'relevant', actions: ['patch', 'markStale'] },
        ALERT: { actions: ['patch', 'markStale'] },
        RESYNC: { actions: 'markStale' },
        REFRESH: { actions: 'markStale' },
      },
    },
    // The server is away (restarting, network down): keep the last snapshot, try again soon.
    waiting: {
      after: { retry: 'fetching' },
      on: {
        REFRESH: 'fetching',
      },
    },
  },
});

/**
 * The display of one place: its snapshots are of that place, and it applies nothing itself
 * (its numbers are the server's sums there): a pushed change only brings the next one sooner.
 */
export function placeDisplayMachine(place: DisplayPlaceQuery) {
  if (!place) return displayMachine;
  return displayMachine.provide({
    actors: { load: fromPromise<DisplaySnapshot, void>(() => displayApi.snapshot(place)) },
    actions: { patch: () => undefined },
  });
}
