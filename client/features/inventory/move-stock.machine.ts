// The Move dialog (item page): from a location the item is at, to another location of the
// same site, a quantity and an optional note, sent as one POST /api/moves. The locations of
// the site it leaves from are read when that site is first chosen (the "to" list); a refusal
// stays at the input it is about (move-stock.ts), and the dialog is done when the server said
// yes (the page's table then moves with the feed's event).
import { assign, fromPromise, setup } from 'xstate';
import type { Item } from '../../../shared/inventory';
import type { Location } from '../../../shared/sites';
import { errorMessage } from '../../lib/api-client';
import { inventoryApi } from './api';
import { checkMove, moveRefusal, type MoveErrors, type MoveForm } from './move-stock';

export interface MoveContext extends MoveForm {
  itemId: string;
  /** The site of the location it leaves from ('' until one is chosen). */
  siteId: string;
  /** Each site's locations, once read. */
  locations: Record<string, Location[]>;
  loadError: string | null;
  errors: MoveErrors;
  /** The two locations' names as the form showed them when sent. */
  names: { from: string; to: string };
  moved: Item | null;
}

export type MoveEvent =
  | { type: 'FROM'; locationId: string; siteId: string }
  | { type: 'TO'; locationId: string }
  | { type: 'QUANTITY'; value: string }
  | { type: 'NOTE'; value: string }
  /** names: the two locations as the form shows them, to place a refusal that names one. */
  | { type: 'SUBMIT'; names: { from: string; to: string } }
  | { type: 'RETRY' };

export const moveStockMachine = setup({
  types: {
    context: {} as MoveContext,
    events: {} as MoveEvent,
    input: {} as { itemId: string; fromId: string; siteId: string },
  },
  actors: {
    siteLocations: fromPromise<Location[], string>(({ input }) => inventoryApi.siteLocations(input)),
    move: fromPromise<Item, { itemId: string; form: MoveForm }>(({ input }) =>
      inventoryApi.move({
        itemId: input.itemId,
        fromLocationId: input.form.fromId,
        toLocationId: input.form.toId,
        quantity: parseInt(input.form.quantity, 10),
        ...(input.form.note.trim() ? { note: input.form.note.trim() } : {}),
      }),
    ),
  },
  guards: {
    siteUnread: ({ context }) => context.siteId !== '' && !context.locations[context.siteId],
    valid: ({ context }) => Object.keys(checkMove(context)).length === 0,
  },
  actions: {
    setFrom: assign(({ context, event }) => {
      if (event.type !== 'FROM') return {};
      // Another site: the "to" chosen belongs to the old one.
      const toId = event.siteId === context.siteId ? context.toId : '';
      const { from: _from, form: _form, ...errors } = context.errors;
      return { fromId: event.locationId, siteId: event.siteId, toId, errors };
    }),
    setTo: assign(({ context, event }) => {
      if (event.type !== 'TO') return {};
      const { to: _to, form: _form, ...errors } = context.errors;
      return { toId: event.locationId, errors };
    }),
    setQuantity: assign(({ context, event }) => {
      if (event.type !== 'QUANTITY') return {};
      const { quantity: _q, form: _form, ...errors } = context.errors;
      return { quantity: event.value, errors };
    }),
    setNote: assign({ note: ({ context, event }) => (event.type === 'NOTE' ? event.value : context.note) }),
    showProblems: assign({ errors: ({ context }) => checkMove(context) }),
  },
}).createMachine({
  id: 'moveStock',
  context: ({ input }) => ({
    itemId: input.itemId,
    fromId: input.fromId,
    toId: '',
    quantity: '',
    note: '',
    siteId: input.siteId,
    locations: {},
    loadError: null,
    errors: {},
    names: { from: '', to: '' },
    moved: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      initial: 'checking',
      on: {
        FROM: { target: '.checking', actions: 'setFrom' },
        TO: { actions: 'setTo' },
        QUANTITY: { actions: 'setQuantity' },
        NOTE: { actions: 'setNote' },
      },
      states: {
        checking: { always: [{ guard: 'siteUnread', target: 'reading' }, { target: 'ready' }] },
        reading: {
          entry: assign({ loadError: null }),
          invoke: {
            src: 'siteLocations',
            input: ({ context }) => context.siteId,
            onDone: {
              target: 'ready',
              actions: assign({
                locations: ({ context, event }) => ({ ...context.locations, [context.siteId]: event.output }),
              }),
            },
            onError: {
              target: 'failed',
              actions: assign({ loadError: ({ event }) => errorMessage(event.error, 'Could not read the locations') }),
            },
          },
        },
        failed: { on: { RETRY: 'reading' } },
        ready: {
          on: {
            SUBMIT: [
              {
                guard: 'valid',
                target: '#moveStock.moving',
                actions: assign({ names: ({ event }) => event.names }),
              },
              { actions: 'showProblems' },
            ],
          },
        },
      },
    },
    moving: {
      entry: assign({ errors: {} }),
      invoke: {
        src: 'move',
        input: ({ context }) => ({ itemId: context.itemId, form: context }),
        onDone: { target: 'done', actions: assign({ moved: ({ event }) => event.output }) },
        onError: {
          target: 'editing.ready',
          actions: assign({
            errors: ({ context, event }) => {
              const refusal = moveRefusal(event.error, context.names);
              return { [refusal.field]: refusal.message };
            },
          }),
        },
      },
    },
    done: { type: 'final' },
  },
});
