// Starting a count: the dialog's choice of what to count (categories, the low-stock items,
// some items, or the whole store), what each choice needs (the categories ticked, the items
// picked by search), then the start call. Nothing is chosen at first and nothing starts
// until the choice is complete (a count that started on the first category by itself
// counted what nobody asked for).
// Opening the new session is an action the component provides (navigation).
import { assign, fromPromise, setup } from 'xstate';
import type { Category, Item } from '../../../shared/inventory';
import type { StartStocktakeBody, StocktakeSession } from '../../../shared/stocktake';
import { errorMessage } from '../../lib/api-client';
import { stocktakeApi } from './api';

/** What the manager may choose to count. One category or several are one choice. */
export type CountChoice = 'categories' | 'low-stock' | 'items' | 'store';

export interface StartContext {
  choice: CountChoice | null;
  categories: Category[];
  categoryIds: string[];
  /** How many items are low on stock now; null until known. */
  lowStock: number | null;
  query: string;
  found: Item[];
  picked: Item[];
  name: string;
  error: string | null;
}

export type StartEvent =
  | { type: 'CHOOSE'; choice: CountChoice }
  | { type: 'TOGGLE_CATEGORY'; categoryId: string }
  | { type: 'NAME'; name: string }
  | { type: 'SEARCH'; query: string }
  | { type: 'PICK'; item: Item }
  | { type: 'UNPICK'; itemId: string }
  | { type: 'START' };

/** How many items the choice puts on the list (as the store stands now), or null if not known. */
export function itemsToCount(context: StartContext): number | null {
  const itemsOf = (ids: string[] | null) =>
    context.categories.filter((c) => !ids || ids.includes(c.id)).reduce((n, c) => n + c.itemCount, 0);
  switch (context.choice) {
    case 'categories':
      return itemsOf(context.categoryIds);
    case 'low-stock':
      return context.lowStock;
    case 'items':
      return context.picked.length;
    case 'store':
      return itemsOf(null);
    case null:
      return null;
  }
}

export function startBody(context: StartContext): StartStocktakeBody {
  const name = context.name.trim() ? { name: context.name.trim() } : {};
  switch (context.choice) {
    case 'categories': {
      const [only, ...more] = context.categoryIds;
      // One category keeps the session's categoryId (the list shows it as that category's count).
      return more.length === 0
        ? { scope: 'category', categoryId: only!, ...name }
        : { scope: 'categories', categoryIds: context.categoryIds, ...name };
    }
    case 'low-stock':
      return { scope: 'low-stock', ...name };
    case 'items':
      return { scope: 'items', itemIds: context.picked.map((i) => i.id), ...name };
    case 'store':
    case null:
      return { scope: 'store', ...name };
  }
}

/** The choice is complete: something to count is named (and, as far as known, has items). */
export function choiceReady(context: StartContext): boolean {
  if (context.choice === null) return false;
  if (context.choice === 'categories' && context.categoryIds.length === 0) return false;
  if (context.choice === 'items' && context.picked.length === 0) return false;
  return itemsToCount(context) !== 0;
}

export const startMachine = setup({
  types: { context: {} as StartContext, events: {} as StartEvent },
  actors: {
    categories: fromPromise(() => stocktakeApi.categories()),
    lowStock: fromPromise(() => stocktakeApi.lowStock()),
    search: fromPromise<Item[], string>(({ input }) =>
      input.trim() ? stocktakeApi.searchItems(input.trim()) : Promise.resolve([]),
    ),
    start: fromPromise<StocktakeSession, StartStocktakeBody>(({ input }) => stocktakeApi.start(input)),
  },
  guards: {
    ready: ({ context }) => choiceReady(context),
  },
  actions: {
    // Provided by the component: open the new session.
    opened: (_, _params: { id: string }) => {},
  },
  delays: { typing: 250 },
}).createMachine({
  id: 'startStocktake',
  context: {
    choice: null,
    categories: [],
    categoryIds: [],
    lowStock: null,
    query: '',
    found: [],
    picked: [],
    name: '',
    error: null,
  },
  invoke: [
    {
      src: 'categories',
      onDone: { actions: assign({ categories: ({ event }) => event.output }) },
      onError: { actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to load categories') }) },
    },
    {
      src: 'lowStock',
      onDone: { actions: assign({ lowStock: ({ event }) => event.output.length }) },
      // Unknown: the choice stays open and the server says if there is nothing to count.
      onError: { actions: assign({ lowStock: null }) },
    },
  ],
  on: {
    CHOOSE: { actions: assign({ choice: ({ event }) => event.choice, error: null }) },
    TOGGLE_CATEGORY: {
      actions: assign({
        categoryIds: ({ context, event }) =>
          context.categoryIds.includes(event.categoryId)
            ? context.categoryIds.filter((id) => id !== event.categoryId)
            : [...context.categoryIds, event.categoryId],
      }),
    },
    NAME: { actions: assign({ name: ({ event }) => event.name }) },
    PICK: {
      actions: assign({
        picked: ({ context, event }) =>
          context.picked.some((i) => i.id === event.item.id) ? context.picked : [...context.picked, event.item],
      }),
    },
    UNPICK: {
      actions: assign({ picked: ({ context, event }) => context.picked.filter((i) => i.id !== event.itemId) }),
    },
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
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Could not start the count') }),
        },
      },
    },
  },
});
