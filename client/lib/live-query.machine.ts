// A screen's live data as a state machine: load a snapshot over HTTP, then apply each
// pushed event to it with immer (or refetch when an event can't be applied locally),
// refetch on `snapshot-required` and after a fresh (non-resumed) feed connection, and run
// the screen's writes (stock adjustments, deletes) with their results folded back in.
// Loads never overlap: an event that arrives mid-load marks the data stale, and one more
// load follows. Each screen configures it with its loader and event reducer.
import { keepEqual } from './keep-equal';
import { produce, type Draft } from 'immer';
import { assign, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { FeedEvent } from '../../shared/realtime';
import { ApiError, errorMessage, savedCopiesServed } from './api-client';
import { onFeed } from './realtime';

/** What an event means for the data: nothing, patched in place, reload needed, or the thing is gone. */
export type FeedEffect = 'ignored' | 'applied' | 'refetch' | 'gone';

export interface LiveQueryConfig<TData, TParams, TWrite> {
  id: string;
  load: (params: TParams) => Promise<TData>;
  /**
   * The data at hand without a request (a returning user's first screen, read early: see
   * client/lib/first-data.ts), or null: the query then starts ready instead of loading, and
   * reads again after the coalescing delay.
   */
  initial?: (params: TParams) => TData | null;
  /** Applies the event to the draft. Changes to the draft are kept unless it returns 'ignored'. */
  reduce: (draft: Draft<TData>, event: FeedEvent, params: TParams) => FeedEffect;
  /** Whether an event that arrives during a load concerns this screen (then it reloads once more). */
  concerns: (event: FeedEvent, params: TParams, data: TData | null) => boolean;
  runWrite?: (write: TWrite, params: TParams) => Promise<unknown>;
  applyWrite?: (draft: Draft<TData>, write: TWrite, result: unknown) => FeedEffect;
  /** Shown to the user when a write fails (a toast). */
  onWriteFailed?: (write: TWrite, message: string) => void;
  /** Told when a write succeeded (a confirmation toast, where one helps). */
  onWriteDone?: (write: TWrite, result?: unknown) => void;
  /** The message shown when the first load fails and the server gave none. */
  loadErrorMessage: string;
  /** Coalescing delay before a refetch, so a burst of events costs one request. */
  refetchDelayMs?: number;
  /** How soon a load answered with the service worker's saved copy is read again. */
  savedCopyRecheckMs?: number;
}

/** Loaded data that came (at least in part) from the service worker's saved copies, not the server. */
const savedCopyData = new WeakSet<object>();
/** Marks `data` as a saved copy (what a load does when an answer carried the mark; tests use it too). */
export function markSavedCopy<T extends object>(data: T): T {
  savedCopyData.add(data);
  return data;
}

export interface WriteState<TWrite> {
  write: TWrite;
  status: 'pending' | 'failed';
  error: string | null;
}

export interface LiveQueryContext<TData, TParams, TWrite> {
  params: TParams;
  data: TData | null;
  error: string | null;
  stale: boolean;
  writes: Record<string, WriteState<TWrite>>;
}

export type LiveQueryEvent<TParams, TWrite> =
  | { type: 'FEED_EVENT'; event: FeedEvent }
  | { type: 'RESYNC' }
  | { type: 'REFETCH' }
  | { type: 'GONE' }
  | { type: 'RETRY' }
  | { type: 'SET_PARAMS'; params: TParams }
  | { type: 'WRITE'; id: string; write: TWrite }
  | { type: 'WRITE_DONE'; id: string; result: unknown }
  | { type: 'WRITE_FAILED'; id: string; error: string }
  | { type: 'DISMISS_WRITE'; id: string };

/** The real feed: events, resyncs, and fresh connections (which may have missed events). */
export const liveFeedActor = fromCallback<{ type: 'FEED_EVENT'; event: FeedEvent } | { type: 'RESYNC' }>(
  ({ sendBack }) => {
    const offs = [
      onFeed('event', (emitted) => sendBack({ type: 'FEED_EVENT', event: emitted.event })),
      onFeed('resync', () => sendBack({ type: 'RESYNC' })),
      onFeed('connected', (emitted) => {
        if (!emitted.resumed) sendBack({ type: 'RESYNC' });
      }),
    ];
    return () => offs.forEach((off) => off());
  },
);

let writeCounter = 0;
/** A unique id for a write sent to a live query. */
export function newWriteId(): string {
  writeCounter += 1;
  return `w${Date.now().toString(36)}${writeCounter}`;
}

export function createLiveQueryMachine<TData extends object, TParams, TWrite = never>(
  config: LiveQueryConfig<TData, TParams, TWrite>,
) {
  type Ctx = LiveQueryContext<TData, TParams, TWrite>;
  type Ev = LiveQueryEvent<TParams, TWrite>;

  return setup({
    types: {
      context: {} as Ctx,
      events: {} as Ev,
      input: {} as { params: TParams },
    },
    actors: {
      // Input is the screen's params; typed loosely because XState can't check generic inputs.
      // A load that got a saved copy (the network too slow or gone) says so: it is read again
      // soon, since nothing else would (a live event patches only what it is about).
      load: fromPromise<TData, any>(async ({ input }) => {
        const before = savedCopiesServed();
        const data = await config.load(input as TParams);
        return savedCopiesServed() !== before ? markSavedCopy(data) : data;
      }),
      feed: liveFeedActor,
      write: fromCallback<Ev, { id: string; write: TWrite; params: TParams }>(({ input, sendBack }) => {
        const run = config.runWrite ?? (async () => undefined);
        run(input.write, input.params).then(
          (result) => sendBack({ type: 'WRITE_DONE', id: input.id, result }),
          (error) => sendBack({ type: 'WRITE_FAILED', id: input.id, error: errorMessage(error, 'Request failed') }),
        );
      }),
    },
    guards: {
      isStale: ({ context }) => context.stale,
      hasData: ({ context }) => context.data !== null,
      gotSavedCopy: ({ event }) => {
        const output = (event as unknown as { output?: unknown }).output;
        return typeof output === 'object' && output !== null && savedCopyData.has(output);
      },
      isNotFound: ({ event }) => {
        const error = (event as unknown as { error?: unknown }).error;
        return error instanceof ApiError && error.status === 404;
      },
      concernsScreen: ({ context, event }) =>
        event.type === 'FEED_EVENT' && config.concerns(event.event, context.params, context.data),
    },
    actions: {
      setData: assign({
        // What did not change keeps its objects, so a refetch re-renders only what changed.
        data: ({ context, event }) => keepEqual(context.data, (event as unknown as { output: TData }).output),
        error: null,
        stale: false,
      }),
      setError: assign({
        error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, config.loadErrorMessage),
      }),
      clearError: assign({ error: null }),
      markStale: assign({ stale: true }),
      setParams: assign({
        params: ({ context, event }) => (event.type === 'SET_PARAMS' ? event.params : context.params),
        stale: false,
      }),
      applyFeedEvent: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'FEED_EVENT' || context.data === null) return;
        let effect: FeedEffect = 'ignored';
        const next = produce(context.data as TData, (draft) => {
          effect = config.reduce(draft as Draft<TData>, event.event, context.params);
        });
        if (effect === 'ignored') return;
        enqueue.assign({ data: next as TData });
        if (effect === 'refetch') enqueue.raise({ type: 'REFETCH' });
        if (effect === 'gone') enqueue.raise({ type: 'GONE' });
      }),
      startWrite: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'WRITE') return;
        enqueue.assign({
          writes: { ...context.writes, [event.id]: { write: event.write, status: 'pending', error: null } },
        });
        enqueue.spawnChild('write', {
          id: `write-${event.id}`,
          input: { id: event.id, write: event.write, params: context.params },
        });
      }),
      finishWrite: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'WRITE_DONE') return;
        const entry = context.writes[event.id];
        const { [event.id]: _done, ...rest } = context.writes;
        enqueue.assign({ writes: rest });
        if (entry) config.onWriteDone?.(entry.write, event.result);
        if (!entry || context.data === null || !config.applyWrite) return;
        let effect: FeedEffect = 'ignored';
        const next = produce(context.data as TData, (draft) => {
          effect = config.applyWrite!(draft as Draft<TData>, entry.write, event.result);
        });
        if (effect === 'ignored') return;
        enqueue.assign({ data: next as TData });
        if (effect === 'refetch') enqueue.raise({ type: 'REFETCH' });
        if (effect === 'gone') enqueue.raise({ type: 'GONE' });
      }),
      failWrite: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'WRITE_FAILED') return;
        const entry = context.writes[event.id];
        if (!entry) return;
        enqueue.assign({
          writes: { ...context.writes, [event.id]: { ...entry, status: 'failed', error: event.error } },
        });
        config.onWriteFailed?.(entry.write, event.error);
      }),
      dismissWrite: assign({
        writes: ({ context, event }) => {
          if (event.type !== 'DISMISS_WRITE') return context.writes;
          const { [event.id]: _gone, ...rest } = context.writes;
          return rest;
        },
      }),
    },
    delays: {
      coalesce: config.refetchDelayMs ?? 120,
      recheck: config.savedCopyRecheckMs ?? 5000,
    },
  }).createMachine({
    id: config.id,
    context: ({ input }) => ({
      params: input.params,
      data: config.initial?.(input.params) ?? null,
      error: null,
      stale: false,
      writes: {},
    }),
    invoke: { src: 'feed' },
    initial: 'starting',
    on: {
      SET_PARAMS: { target: '.loading', actions: 'setParams' },
      WRITE: { actions: 'startWrite' },
      WRITE_DONE: { actions: 'finishWrite' },
      WRITE_FAILED: { actions: 'failWrite' },
      DISMISS_WRITE: { actions: 'dismissWrite' },
    },
    states: {
      // Data at hand (config.initial) shows at once; a read follows shortly, since the data
      // may be older than the live feed's connection and events in between would be missed.
      starting: {
        always: [{ guard: 'hasData', target: 'ready.scheduled' }, { target: 'loading' }],
      },
      loading: {
        invoke: {
          src: 'load',
          input: ({ context }: { context: Ctx }) => context.params,
          onDone: [
            { guard: 'isStale', target: 'loading', reenter: true, actions: 'setData' },
            { guard: 'gotSavedCopy', target: 'ready.recheck', actions: 'setData' },
            { target: 'ready', actions: 'setData' },
          ],
          onError: [
            { guard: 'isNotFound', target: 'notFound' },
            { target: 'error', actions: 'setError' },
          ],
        },
        on: {
          FEED_EVENT: { guard: 'concernsScreen', actions: 'markStale' },
          RESYNC: { actions: 'markStale' },
        },
      },
      ready: {
        initial: 'idle',
        on: {
          FEED_EVENT: { actions: 'applyFeedEvent' },
          GONE: { target: 'notFound' },
        },
        states: {
          idle: {
            on: {
              REFETCH: 'scheduled',
              RESYNC: 'scheduled',
              RETRY: 'fetching',
            },
          },
          scheduled: {
            after: { coalesce: 'fetching' },
          },
          // Showing a saved copy: read again shortly (offline, the service worker answers at
          // once from its cache; once the network is back, with the server's data).
          recheck: {
            after: { recheck: 'fetching' },
            on: {
              REFETCH: 'scheduled',
              RESYNC: 'scheduled',
              RETRY: 'fetching',
            },
          },
          fetching: {
            invoke: {
              src: 'load',
              input: ({ context }: { context: Ctx }) => context.params,
              onDone: [
                { guard: 'isStale', target: 'scheduled', actions: 'setData' },
                { guard: 'gotSavedCopy', target: 'recheck', actions: 'setData' },
                { target: 'idle', actions: 'setData' },
              ],
              onError: [
                { guard: 'isNotFound', target: '#' + config.id + '.notFound' },
                // Keep showing what we have; the next event or a retry refetches.
                { target: 'idle' },
              ],
            },
            on: {
              // An event that arrives while a read is out is applied at once, and the read
              // follows with one more: its answer may have been read before the event's
              // commit, and would otherwise put the old value back (a card kept 11 in stock
              // after the outbox had sent +1 twice and the server had 12).
              FEED_EVENT: { guard: 'concernsScreen', actions: ['applyFeedEvent', 'markStale'] },
              REFETCH: { actions: 'markStale' },
              RESYNC: { actions: 'markStale' },
            },
          },
        },
      },
      error: {
        on: { RETRY: { target: 'loading', actions: 'clearError' } },
      },
      notFound: {
        on: { RETRY: 'loading', RESYNC: 'loading' },
      },
    },
  });
}

export type LiveQueryMachine<TData extends object, TParams, TWrite> = ReturnType<
  typeof createLiveQueryMachine<TData, TParams, TWrite>
>;
export type LiveQueryActor<TData extends object, TParams, TWrite> = ActorRefFrom<
  LiveQueryMachine<TData, TParams, TWrite>
>;
