// Starting a count: the dialog's choice of what to count (categories, the low-stock items,
// some items, or the whole store), what each choice needs (the categories ticked, the items
// picked by search), where (a site, all its locations, or one location with those inside
// it: counting one location never changes another), then the start call. Nothing is chosen at first and nothing starts
// until the choice is complete (a count that started on the first category by itself
// counted what nobody asked for).
// Opening the new session is an action the component provides (navigation).
import { assign, fromPromise, setup } from 'xstate';
import type { Category, Item } from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';
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
  /** Active sites and locations, once loaded. */
  sites: Site[];
  locations: Location[];
  /** Where to count: a site (null until the sites are known), and one of its locations or null (all of them). */
  siteId: string | null;
  locationId: string | null;
  error: string | null;
}

/** A location with how deep it sits in its site's tree (0: the top level), in tree order. */
export interface PlaceOption {
  location: Location;
  depth: number;
}

/** The site's active locations as a tree, each after its parent, siblings by name. */
export function locationOptions(locations: readonly Location[], siteId: string | null): PlaceOption[] {
  const here = locations.filter((l) => l.siteId === siteId);
  const ids = new Set(here.map((l) => l.id));
  const children = (parentId: string | null) =>
    here
      .filter((l) => (l.parentId !== null && ids.has(l.parentId) ? l.parentId : null) === parentId)
      .sort((a, b) => a.name.localeCompare(b.name));
  const walk = (parentId: string | null, depth: number): PlaceOption[] =>
    children(parentId).flatMap((location) => [{ location, depth }, ...walk(location.id, depth + 1)]);
  return walk(null, 0);
}

/** How many locations sit inside the option at `index` (the options after it that sit deeper). */
export function insideCount(options: readonly PlaceOption[], index: number): number {
  const depth = options[index]!.depth;
  const end = options.findIndex((o, i) => i > index && o.depth <= depth);
  return (end < 0 ? options.length : end) - index - 1;
}

export type StartEvent =
  | { type: 'CHOOSE'; choice: CountChoice }
  | { type: 'TOGGLE_CATEGORY'; categoryId: string }
  | { type: 'NAME'; name: string }
  | { type: 'SEARCH'; query: string }
  | { type: 'PICK'; item: Item }
  | { type: 'UNPICK'; itemId: string }
  | { type: 'PICK_SITE'; siteId: string }
  | { type: 'PICK_LOCATION'; locationId: string | null }
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
  const name = {
    ...(context.name.trim() ? { name: context.name.trim() } : {}),
    ...(context.locationId ? { locationId: context.locationId } : context.siteId ? { siteId: context.siteId } : {}),
  };
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
    places: fromPromise(async () => {
      const [sites, locations] = await Promise.all([stocktakeApi.sites(), stocktakeApi.locations()]);
      return {
        sites: sites.filter((s) => !s.archivedAt).sort((a, b) => a.name.localeCompare(b.name)),
        locations: locations.filter((l) => !l.archivedAt),
      };
    }),
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
    sites: [],
    locations: [],
    siteId: null,
    locationId: null,
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
    {
      src: 'places',
      onDone: {
        actions: assign({
          sites: ({ event }) => event.output.sites,
          locations: ({ event }) => event.output.locations,
          // The first site until the manager picks one (the only one, in most stores).
          siteId: ({ context, event }) => context.siteId ?? event.output.sites[0]?.id ?? null,
        }),
      },
      // Unknown: the count goes to the manager's own site, as before places.
      onError: { actions: assign({ sites: [], locations: [] }) },
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
    PICK_SITE: { actions: assign({ siteId: ({ event }) => event.siteId, locationId: null }) },
    PICK_LOCATION: { actions: assign({ locationId: ({ event }) => event.locationId }) },
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
