// The New transfer form: the sites and locations it offers, the items at each location the
// lines pick from (read when a line first names the location, then kept), and the draft's
// submission; a refusal stays to show, at the line it names (`lines[2].itemId`) or above the
// buttons.
import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import type { Item } from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';
import type { CreateTransferBody, Transfer } from '../../../shared/transfers';
import { ApiError, errorMessage } from '../../lib/api-client';
import { transfersApi } from './api';

export type ItemsAt = { status: 'loading' } | { status: 'ready'; items: Item[] } | { status: 'failed'; error: string };

export interface TransferFormContext {
  sites: Site[];
  locations: Location[];
  /** The items at each location a line named, by location id. */
  itemsAt: Record<string, ItemsAt>;
  loadError: string | null;
  error: string | null;
  /** The body field a refusal named (`toSiteId`, `lines[1].fromLocationId`), if any. */
  field: string | null;
  saved: Transfer | null;
}

type FormEvent =
  | { type: 'LOAD_ITEMS'; locationId: string }
  | { type: 'ITEMS_LOADED'; locationId: string; items: Item[] }
  | { type: 'ITEMS_FAILED'; locationId: string; error: string }
  | { type: 'SUBMIT'; body: CreateTransferBody }
  | { type: 'RETRY' };

const fieldOf = (error: unknown) => {
  const field = error instanceof ApiError ? (error.body as { field?: unknown } | null)?.field : null;
  return typeof field === 'string' ? field : null;
};

export const transferFormMachine = setup({
  types: { context: {} as TransferFormContext, events: {} as FormEvent },
  actors: {
    loadPlaces: fromPromise(async () => {
      // Every site may be a destination; the locations are those of the sites the user sees.
      const [sites, locations] = await Promise.all([transfersApi.allSites(), transfersApi.locations()]);
      return { sites, locations };
    }),
    loadItems: fromCallback<FormEvent, { locationId: string }>(({ input, sendBack }) => {
      transfersApi.itemsAt(input.locationId).then(
        (items) => sendBack({ type: 'ITEMS_LOADED', locationId: input.locationId, items }),
        (error) =>
          sendBack({
            type: 'ITEMS_FAILED',
            locationId: input.locationId,
            error: errorMessage(error, 'Failed to load the items there'),
          }),
      );
    }),
    save: fromPromise<Transfer, CreateTransferBody>(({ input }) => transfersApi.create(input)),
  },
  actions: {
    requestItems: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'LOAD_ITEMS') return;
      const known = context.itemsAt[event.locationId];
      if (known && known.status !== 'failed') return;
      enqueue.assign({ itemsAt: { ...context.itemsAt, [event.locationId]: { status: 'loading' } } });
      enqueue.spawnChild('loadItems', { input: { locationId: event.locationId } });
    }),
    keepItems: assign({
      itemsAt: ({ context, event }) => {
        if (event.type !== 'ITEMS_LOADED' && event.type !== 'ITEMS_FAILED') return context.itemsAt;
        const at: ItemsAt =
          event.type === 'ITEMS_LOADED'
            ? { status: 'ready', items: event.items }
            : { status: 'failed', error: event.error };
        return { ...context.itemsAt, [event.locationId]: at };
      },
    }),
    clearError: assign({ error: null, field: null }),
  },
}).createMachine({
  id: 'transferForm',
  context: { sites: [], locations: [], itemsAt: {}, loadError: null, error: null, field: null, saved: null },
  initial: 'loading',
  on: {
    LOAD_ITEMS: { actions: 'requestItems' },
    ITEMS_LOADED: { actions: 'keepItems' },
    ITEMS_FAILED: { actions: 'keepItems' },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadPlaces',
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({ sites: event.output.sites, locations: event.output.locations })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            loadError: ({ event }) => errorMessage(event.error, 'Failed to load sites and locations'),
          }),
        },
      },
    },
    failed: { on: { RETRY: { target: 'loading', actions: assign({ loadError: null }) } } },
    editing: { on: { SUBMIT: { target: 'saving', actions: 'clearError' } } },
    saving: {
      invoke: {
        src: 'save',
        input: ({ event }) => (event as { body: CreateTransferBody }).body,
        onDone: { target: 'done', actions: assign({ saved: ({ event }) => event.output }) },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => ({
            error: errorMessage(event.error, 'Failed to save the transfer'),
            field: fieldOf(event.error),
          })),
        },
      },
    },
    done: { type: 'final' },
  },
});
