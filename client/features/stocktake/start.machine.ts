// Starting a count: the form's choices (category, some items, or the whole store), the
// categories to pick from, an item search for "some items", then the start call. Opening
// the new session is an action the component provides (navigation).
import { assign, fromPromise, setup } from 'xstate';
import type { Category, Item } from '../../../shared/inventory';
import type { StartStocktakeBody, StocktakeScope, StocktakeSession } from '../../../shared/stocktake';
import { errorMessage } from '../../lib/api-client';
import { stocktakeApi } from './api';

export interface StartContext {
  scope: StocktakeScope;
  categories: Category[];
  categoryId: string;
  query: string;
  found: Item[];
  picked: Item[];
  name: string;
  error: string | null;
}

export type StartEvent =
  | { type: 'SCOPE'; scope: StocktakeScope }
  | { type: 'CATEGORY'; categoryId: string }
  | { type: 'NAME'; name: string }
  | { type: 'SEARCH'; query: string }
  | { type: 'PICK'; item: Item }
  | { type: 'UNPICK'; itemId: string }
  | { type: 'START' };

export function startBody(context: StartContext): StartStocktakeBody {
  const name = context.name.trim() ? { name: context.name.trim() } : {};
  if (context.scope === 'category') return { scope: 'category', categoryId: context.categoryId, ...name };
  if (context.scope === 'items') return { scope: 'items', itemIds: context.picked.map((i) => i.id), ...name };
  return { scope: 'store', ...name };
}

export const startMachine = setup({
  types: { context: {} as StartContext, events: {} as StartEvent },
  actors: {
    categories: fromPromise(() => stocktakeApi.categories()),
    search: fromPromise<Item[], string>(({ input }) => (input.trim() ? stocktakeApi.searchItems(input.trim()) : Promise.resolve([]))),
    start: fromPromise<StocktakeSession, StartStocktakeBody>(({ input }) => stocktakeApi.start(input)),
  },
  guards: {
    ready: ({ context }) =>
      context.scope === 'store' || (context.scope === 'category' ? context.categoryId !== '' : context.picked.length > 0),
  },
  actions: {
    // Provided by the component: open the new session.
    opened: (_, _params: { id: string }) => {},
  },
  delays: { typing: 250 },
}).createMachine({
  id: 'startStocktake',
  context: { scope: 'category', categories: [], categoryId: '', query: '', found: [], picked: [], name: '', error: null },
  invoke: {
    src: 'categories',
    onDone: { actions: assign({ categories: ({ event }) => event.output, categoryId: ({ event }) => event.output[0]?.id ?? '' }) },
    onError: { actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to load categories') }) },
  },
  on: {
    SCOPE: { actions: assign({ scope: ({ event }) => event.scope, error: null }) },
    CATEGORY: { actions: assign({ categoryId: ({ event }) => event.categoryId }) },
    NAME: { actions: assign({ name: ({ event }) => event.name }) },
    PICK: { actions: assign({ picked: ({ context, event }) => (context.picked.some((i) => i.id === event.item.id) ? context.picked : [...context.picked, event.item]) }) },
    UNPICK: { actions: assign({ picked: ({ context, event }) => context.picked.filter((i) => i.id !== event.itemId) }) },
  },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      on: {
        SEARCH: { target: '.waiting', actions: assign({ query: ({ event }) => event.query }) },
        START: { guard: 'ready', target: 'starting' },
      },
      states: {
        idle: {},
        waiting: { after: { typing: 'searching' } },
        searching: {
          invoke: {
            src: 'search',
            input: ({ context }) => context.query,
            onDone: { target: 'idle', actions: assign({ found: ({ event }) => event.output }) },
            onError: { target: 'idle', actions: assign({ found: [] }) },
          },
        },
      },
    },
    starting: {
      entry: assign({ error: null }),
      invoke: {
        src: 'start',
        input: ({ context }) => startBody(context),
        onDone: { target: 'editing', actions: { type: 'opened', params: ({ event }) => ({ id: event.output.id }) } },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => errorMessage(event.error, 'Could not start the count') }) },
      },
    },
  },
});
