// The Add Item wizard: step 1 name, description, SKU, category; step 2
// price and image URL; step 3 initial quantity, stock threshold and an optional expiry
// date. Next and Back move between steps, Cancel on step 1 (or closing) ends it, Submit
// on step 3 validates everything and sends to the first step with a problem, showing the
// problem's message. A failed create keeps every input and says why.
import { assign, fromPromise, setup } from 'xstate';
import type { CreateItemBody, Item } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';
import {
  EMPTY_DRAFT,
  firstProblem,
  refusedProblem,
  startingThreshold,
  STEP_OF,
  toCreateBody,
  type DraftField,
  type ItemDraft,
} from './item-draft';

export interface WizardInput {
  categoryIds: string[];
  /** Pre-selected category (opened from a category). */
  categoryId?: string;
  /** The store's Default Low-Stock Threshold (Settings): the threshold new items start with. */
  defaultThreshold?: number | null;
  /** A scanned code the new item starts with. */
  barcode?: string;
}

export interface WizardContext {
  values: ItemDraft;
  categoryIds: string[];
  error: string | null;
  invalidField: DraftField | null;
  created: Item | null;
}

export type WizardEvent =
  | { type: 'CHANGE'; field: DraftField; value: string }
  | { type: 'CATEGORIES'; categoryIds: string[] }
  | { type: 'NEXT' }
  | { type: 'BACK' }
  | { type: 'CANCEL' }
  | { type: 'SUBMIT' };

const problemOf = (context: WizardContext) => firstProblem(context.values, context.categoryIds);
const problemStep = (context: WizardContext) => {
  const problem = problemOf(context);
  return problem ? STEP_OF[problem.field] : null;
};
/** The step holding the input a refused create names (null: the refusal names none). */
const refusedStep = (event: unknown) => {
  const refused = refusedProblem((event as { error: unknown }).error);
  return refused ? STEP_OF[refused.field] : null;
};

export const addItemWizardMachine = setup({
  types: {
    context: {} as WizardContext,
    events: {} as WizardEvent,
    input: {} as WizardInput,
    output: {} as { item: Item | null },
  },
  actors: {
    createItem: fromPromise<Item, CreateItemBody>(({ input }) => inventoryApi.createItem(input)),
  },
  guards: {
    problemOnStep1: ({ context }) => problemStep(context) === 1,
    problemOnStep2: ({ context }) => problemStep(context) === 2,
    problemOnStep3: ({ context }) => problemStep(context) === 3,
    refusedOnStep1: ({ event }) => refusedStep(event) === 1,
    refusedOnStep2: ({ event }) => refusedStep(event) === 2,
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
    setCategories: assign({
      categoryIds: ({ context, event }) => (event.type === 'CATEGORIES' ? event.categoryIds : context.categoryIds),
    }),
    clearError: assign({ error: null, invalidField: null }),
    showProblem: assign(({ context }) => {
      const problem = problemOf(context);
      return { error: problem?.message ?? null, invalidField: problem?.field ?? null };
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
  id: 'addItemWizard',
  context: ({ input }) => ({
    values: {
      ...EMPTY_DRAFT,
      categoryId: input.categoryId ?? '',
      threshold: startingThreshold(input.defaultThreshold),
      barcode: input.barcode ?? '',
    },
    categoryIds: input.categoryIds,
    error: null,
    invalidField: null,
    created: null,
  }),
  initial: 'step1',
  on: {
    CHANGE: { actions: 'change' },
    CATEGORIES: { actions: 'setCategories' },
  },
  states: {
    step1: {
      on: {
        NEXT: 'step2',
        CANCEL: 'cancelled',
      },
    },
    step2: {
      on: {
        NEXT: 'step3',
        BACK: 'step1',
        CANCEL: 'cancelled',
      },
    },
    step3: {
      on: {
        BACK: 'step2',
        CANCEL: 'cancelled',
        SUBMIT: [
          { guard: 'problemOnStep1', target: 'step1', actions: 'showProblem' },
          { guard: 'problemOnStep2', target: 'step2', actions: 'showProblem' },
          { guard: 'problemOnStep3', target: 'step3', actions: 'showProblem' },
          { target: 'submitting', actions: 'clearError' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'createItem',
        input: ({ context }) => toCreateBody(context.values),
        onDone: { target: 'created', actions: 'keepCreated' },
        // Back to the step of the input the server named, if it named one.
        onError: [
          { guard: 'refusedOnStep1', target: 'step1', actions: ['showFailure', 'notifyFailure'] },
          { guard: 'refusedOnStep2', target: 'step2', actions: ['showFailure', 'notifyFailure'] },
          { target: 'step3', actions: ['showFailure', 'notifyFailure'] },
        ],
      },
    },
    created: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({ item: context.created }),
});

export function wizardStep(value: unknown): 1 | 2 | 3 {
  if (value === 'step1') return 1;
  if (value === 'step2') return 2;
  return 3;
}
