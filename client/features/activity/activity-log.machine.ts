// The Activity Log screen as a state machine: the first page for the current search,
// action filter and sort; more pages on demand (any size of log, by cursor); typing waits a
// moment before searching; new entries from pushed events go on top when the log is
// newest-first, and otherwise wait behind a "new activity" notice until the user refreshes.
// A change reverted from this screen is marked at once; the reverting entry arrives live.
import { assign, enqueueActions, fromPromise, not, setup } from 'xstate';
import type { ActivityEntry, ActivityPage } from '../../../shared/inventory';
import type { FeedEvent } from '../../../shared/realtime';
import { errorMessage } from '../../lib/api-client';
import { liveFeedActor } from '../../lib/live-query.machine';
import { activityApi, DEFAULT_ACTIVITY_PARAMS, type ActivityParams, type ActivitySort } from './api';
import { mergeLatest, writesActivity } from './activity-merge';

export interface ActivityContext {
  params: ActivityParams;
  entries: ActivityEntry[];
  nextCursor: string | null;
  error: string | null;
  moreError: string | null;
  /** Ids that just arrived live, to highlight. */
  fresh: string[];
  /** New entries exist that the current sort can't place on top. */
  newActivity: boolean;
  /** A live event came while the latest page was being fetched. */
  stale: boolean;
}

export type ActivityEvent =
  | { type: 'TYPE'; q: string }
  | { type: 'SET_ACTION'; action: ActivityParams['action'] }
  | { type: 'SET_PLACE'; place: ActivityParams['place'] }
  | { type: 'SORT'; column: ActivitySort }
  | { type: 'RESET' }
  | { type: 'LOAD_MORE' }
  | { type: 'RETRY' }
  | { type: 'REFRESH' }
  | { type: 'FEED_EVENT'; event: FeedEvent }
  | { type: 'RESYNC' }
  | { type: 'REVERTED'; eventId: string };

export interface ActivityInput {
  params?: Partial<ActivityParams>;
}

const SEARCH_DELAY_MS = 300;
const LIVE_DELAY_MS = 200;

/** A click on the sorted column flips its order; a new column starts with its natural order. */
export function nextSort(params: ActivityParams, column: ActivitySort): Pick<ActivityParams, 'sort' | 'order'> {
  if (params.sort === column) return { sort: column, order: params.order === 'asc' ? 'desc' : 'asc' };
  return { sort: column, order: column === 'timestamp' ? 'desc' : 'asc' };
}

const newestFirst = (params: ActivityParams) => params.sort === 'timestamp' && params.order === 'desc';

export const activityLogMachine = setup({
  types: { context: {} as ActivityContext, events: {} as ActivityEvent },
  actors: {
    loadPage: fromPromise<ActivityPage, { params: ActivityParams; cursor: string | null }>(({ input }) =>
      activityApi.page(input.params, input.cursor),
    ),
    feed: liveFeedActor,
  },
  guards: {
    hasMore: ({ context }) => context.nextCursor !== null,
    logged: ({ event }) => event.type === 'FEED_EVENT' && writesActivity(event.event),
    canPrepend: ({ context }) => newestFirst(context.params),
    isStale: ({ context }) => context.stale,
  },
  actions: {
    setQuery: assign({
      params: ({ context, event }) => (event.type === 'TYPE' ? { ...context.params, q: event.q } : context.params),
    }),
    setAction: assign({
      params: ({ context, event }) =>
        event.type === 'SET_ACTION' ? { ...context.params, action: event.action } : context.params,
    }),
    setPlace: assign({
      params: ({ context, event }) =>
        event.type === 'SET_PLACE' ? { ...context.params, place: event.place } : context.params,
    }),
    setSort: assign({
      params: ({ context, event }) =>
        event.type === 'SORT' ? { ...context.params, ...nextSort(context.params, event.column) } : context.params,
    }),
    reset: assign({ params: () => ({ ...DEFAULT_ACTIVITY_PARAMS }) }),
    setFirstPage: assign(({ event }) => {
      const page = (event as unknown as { output: ActivityPage }).output;
      return {
        entries: page.entries,
        nextCursor: page.nextCursor,
        error: null,
        moreError: null,
        fresh: [],
        newActivity: false,
        stale: false,
      };
    }),
    appendPage: assign(({ context, event }) => {
      const page = (event as unknown as { output: ActivityPage }).output;
      const known = new Set(context.entries.map((e) => e.id));
      return {
        entries: [...context.entries, ...page.entries.filter((e) => !known.has(e.id))],
        nextCursor: page.nextCursor,
        moreError: null,
      };
    }),
    mergeLatest: enqueueActions(({ context, event, enqueue }) => {
      const page = (event as unknown as { output: ActivityPage }).output;
      const merged = mergeLatest(context.entries, page.entries);
      enqueue.assign({
        entries: merged.entries,
        fresh: merged.added,
        ...(merged.replaced ? { nextCursor: page.nextCursor } : {}),
      });
    }),
    setError: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to load activity logs'),
    }),
    setMoreError: assign({
      moreError: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to load more activity'),
    }),
    markNew: assign({ newActivity: true }),
    markReverted: assign({
      entries: ({ context, event }) =>
        event.type === 'REVERTED'
          ? context.entries.map((e) => (e.eventId === event.eventId ? { ...e, reverted: true } : e))
          : context.entries,
    }),
    markStale: assign({ stale: true }),
    clearStale: assign({ stale: false }),
  },
  delays: { search: SEARCH_DELAY_MS, live: LIVE_DELAY_MS },
}).createMachine({
  id: 'activityLog',
  // Input, optional: the filters the screen opens with (a link may name a place).
  context: ({ input }) => ({
    params: { ...DEFAULT_ACTIVITY_PARAMS, ...(input as ActivityInput | undefined)?.params },
    entries: [],
    nextCursor: null,
    error: null,
    moreError: null,
    fresh: [],
    newActivity: false,
    stale: false,
  }),
  invoke: { src: 'feed' },
  initial: 'loading',
  on: {
    TYPE: { target: '.typing', actions: 'setQuery' },
    SET_ACTION: { target: '.loading', actions: 'setAction' },
    SET_PLACE: { target: '.loading', actions: 'setPlace' },
    SORT: { target: '.loading', actions: 'setSort' },
    RESET: { target: '.loading', actions: 'reset' },
    REFRESH: '.loading',
    REVERTED: { actions: 'markReverted' },
  },
  states: {
    typing: {
      after: { search: 'loading' },
    },
    loading: {
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({ params: context.params, cursor: null }),
        onDone: { target: 'ready', actions: 'setFirstPage' },
        onError: { target: 'error', actions: 'setError' },
      },
    },
    error: {
      on: { RETRY: 'loading' },
    },
    ready: {
      type: 'parallel',
      states: {
        paging: {
          initial: 'idle',
          states: {
            idle: { on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' } } },
            loadingMore: {
              invoke: {
                src: 'loadPage',
                input: ({ context }) => ({ params: context.params, cursor: context.nextCursor }),
                onDone: { target: 'idle', actions: 'appendPage' },
                onError: { target: 'idle', actions: 'setMoreError' },
              },
            },
          },
        },
        live: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                FEED_EVENT: [{ guard: 'logged', target: 'scheduled' }],
                RESYNC: 'scheduled',
              },
            },
            scheduled: {
              always: { guard: not('canPrepend'), target: 'idle', actions: 'markNew' },
              after: { live: 'fetching' },
            },
            fetching: {
              entry: 'clearStale',
              invoke: {
                src: 'loadPage',
                input: ({ context }) => ({ params: context.params, cursor: null }),
                onDone: [
                  { guard: 'isStale', target: 'scheduled', actions: 'mergeLatest' },
                  { target: 'idle', actions: 'mergeLatest' },
                ],
                // Keep what is shown; the next event tries again.
                onError: 'idle',
              },
              on: {
                FEED_EVENT: { guard: 'logged', actions: 'markStale' },
                RESYNC: { actions: 'markStale' },
              },
            },
          },
        },
      },
    },
  },
});
