// The full-page add form (/inventory/add): one form, the same rules as the wizard, and on
// success the new item's page. A failure keeps the input and shows the server's reason.
import { assign, fromPromise, setup } from 'xstate';
import type { Category, CreateItemBody, Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';
import { EMPTY_DRAFT, firstProblem, toCreateBody, type DraftField, type ItemDraft } from './item-draft';

export interface AddPageContext {
  values: ItemDraft;
  categories: Category[];
  error: string | null;
  invalidField: DraftField | null;
  created: Item | null;
}

export type AddPageEvent = { type: 'CHANGE'; field: DraftField; value: string } | { type: 'SUBMIT' } | { type: 'RETRY' };

export const addItemPageMachine = setup({
  types: {
    context: {} as AddPageContext,
    events: {} as AddPageEvent,
  },
  actors: {
    loadCategories: fromPromise<Category[], void>(() => inventoryApi.categories()),
    createItem: fromPromise<Item, CreateItemBody>(({ input }) => inventoryApi.createItem(input)),
  },
  guards: {
    invalid: ({ context }) =>
      firstProblem(
        context.values,
        context.categories.map((c) => c.id),
      ) !== null,
  },
  actions: {
    change: assign({
      values: ({ context, event }) => (event.type === 'CHANGE' ? { ...context.values, [event.field]: event.value } : context.values),
    }),
    setCategories: assign({ categories: ({ event }) => (event as unknown as { output: Category[] }).output }),
    showProblem: assign(({ context }) => {
      const problem = firstProblem(
        context.values,
        context.categories.map((c) => c.id),
      );
      return { error: problem?.message ?? null, invalidField: problem?.field ?? null };
    }),
    clearError: assign({ error: null, invalidField: null }),
    showLoadFailure: assign({ error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load inventory data') }),
    showFailure: assign({
      error: ({ event }) => `Failed to add inventory item: ${errorMessage((event as unknown as { error: unknown }).error, 'Request failed')}`,
    }),
    notifyFailure: () => void toast.error('Failed to add inventory item'),
    keepCreated: assign({ created: ({ event }) => (event as unknown as { output: Item }).output }),
  },
}).createMachine({
  id: 'addItemPage',
  context: { values: EMPTY_DRAFT, categories: [], error: null, invalidField: null, created: null },
  initial: 'loading',
  on: { CHANGE: { actions: 'change' } },
  states: {
    loading: {
      invoke: {
        src: 'loadCategories',
        onDone: { target: 'editing', actions: 'setCategories' },
        onError: { target: 'loadFailed', actions: 'showLoadFailure' },
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading', actions: 'clearError' } },
    },
    editing: {
      on: {
        SUBMIT: [
          { guard: 'invalid', actions: 'showProblem' },
          { target: 'submitting', actions: 'clearError' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'createItem',
        input: ({ context }) => toCreateBody(context.values),
        onDone: { target: 'created', actions: 'keepCreated' },
        onError: { target: 'editing', actions: ['showFailure', 'notifyFailure'] },
      },
    },
    created: { type: 'final' },
  },
});
