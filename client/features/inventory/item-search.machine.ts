// The Inventory page's search box: waits for a pause in typing, then asks the server's
// typo-tolerant search. Clearing the box clears the results. A failure shows a toast
// ('Failed to search items') and keeps the last results.
import { assign, fromPromise, setup } from 'xstate';
import type { Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';

export interface SearchContext {
  query: string;
  results: Item[];
  error: string | null;
}

export type SearchEvent = { type: 'TYPE'; query: string } | { type: 'CLEAR' };

export const SEARCH_DEBOUNCE_MS = 250;

export const itemSearchMachine = setup({
  types: { context: {} as SearchContext, events: {} as SearchEvent },
  actors: {
    search: fromPromise<Item[], string>(({ input }) => inventoryApi.search(input)),
  },
  guards: {
    blank: ({ event }) => event.type === 'CLEAR' || (event.type === 'TYPE' && event.query.trim() === ''),
  },
  actions: {
    setQuery: assign({ query: ({ event }) => (event.type === 'TYPE' ? event.query : '') }),
    clear: assign({ query: '', results: [], error: null }),
    setResults: assign({ results: ({ event }) => (event as unknown as { output: Item[] }).output, error: null }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to search items'),
    }),
    notifyFailure: () => void toast.error('Failed to search items'),
  },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'itemSearch',
  context: { query: '', results: [], error: null },
  initial: 'idle',
  on: {
    TYPE: [
      { guard: 'blank', target: '.idle', actions: 'clear' },
      { target: '.debouncing', reenter: true, actions: 'setQuery' },
    ],
    CLEAR: { target: '.idle', actions: 'clear' },
  },
  states: {
    idle: {},
    debouncing: { after: { debounce: 'searching' } },
    searching: {
      invoke: {
        src: 'search',
        input: ({ context }) => context.query.trim(),
        onDone: { target: 'showing', actions: 'setResults' },
        onError: { target: 'showing', actions: ['setError', 'notifyFailure'] },
      },
    },
    showing: {},
  },
});
