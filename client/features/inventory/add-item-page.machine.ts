// The full-page add form (/inventory/add): one form, the same rules as the wizard, and on
// success the new item's page. A failure keeps the input and shows the server's reason.
// The Stock Threshold starts at the store's Default Low-Stock Threshold (Settings).
import { assign, fromPromise, setup } from 'xstate';
import type { Category, CreateItemBody, Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';
import {
  EMPTY_DRAFT,
  firstProblem,
  refusedProblem,
  startingThreshold,
  toCreateBody,
  type DraftField,
  type ItemDraft,
} from './item-draft';

export interface AddPageContext {
  values: ItemDraft;
  categories: Category[];
  error: string | null;
  invalidField: DraftField | null;
  created: Item | null;
}

interface FormData {
  categories: Category[];
  defaultThreshold: number | null;
}

export interface AddPageInput {
  /** A scanned code the new item starts with (/inventory/add?barcode=..., linked by the scanner). */
  barcode?: string;
}

export type AddPageEvent =
  { type: 'CHANGE'; field: DraftField; value: string } | { type: 'SUBMIT' } | { type: 'RETRY' };

export const addItemPageMachine = setup({
  types: {
    context: {} as AddPageContext,
    events: {} as AddPageEvent,
    input: {} as AddPageInput,
  },
  actors: {
    loadForm: fromPromise<FormData, void>(async () => {
      const [categories, defaultThreshold] = await Promise.all([
        inventoryApi.categories(),
        // Without it the field just starts empty: not worth failing the page for.
        inventoryApi.defaultThreshold().catch(() => null),
      ]);
      return { categories, defaultThreshold };
    }),
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
    // Editing the input a message is about takes the message away (the user is fixing it).
    change: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const fixing = event.field === context.invalidField;
      return {
        values: { ...context.values, [event.field]: event.value },
        ...(fixing ? { error: null, invalidField: null } : {}),
      };
    }),
    setForm: assign(({ context, event }) => {
      const { categories, defaultThreshold } = (event as unknown as { output: FormData }).output;
      // A retry after a failed load keeps whatever the user already typed.
      const threshold = context.values.threshold || startingThreshold(defaultThreshold);
      return { categories, values: { ...context.values, threshold } };
    }),
    showProblem: assign(({ context }) => {
      const problem = firstProblem(
        context.values,
        context.categories.map((c) => c.id),
      );
      return { error: problem?.message ?? null, invalidField: problem?.field ?? null };
    }),
    clearError: assign({ error: null, invalidField: null }),
    showLoadFailure: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to load inventory data'),
    }),
    // A refusal about one input (the server's `field`) shows at that input; anything else above the form.
    showFailure: assign(({ event }) => {
      const failure = (event as unknown as { error: unknown }).error;
      const refused = refusedProblem(failure);
      if (refused) return { error: refused.message, invalidField: refused.field };
      return { error: `Failed to add inventory item: ${errorMessage(failure, 'Request failed')}`, invalidField: null };
    }),
    notifyFailure: () => void toast.error('Failed to add inventory item'),
    keepCreated: assign({ created: ({ event }) => (event as unknown as { output: Item }).output }),
  },
}).createMachine({
  id: 'addItemPage',
  context: ({ input }) => ({
    values: { ...EMPTY_DRAFT, barcode: input?.barcode ?? '' },
    categories: [],
    error: null,
    invalidField: null,
    created: null,
  }),
  initial: 'loading',
  on: { CHANGE: { actions: 'change' } },
  states: {
    loading: {
      invoke: {
        src: 'loadForm',
        onDone: { target: 'editing', actions: 'setForm' },
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
