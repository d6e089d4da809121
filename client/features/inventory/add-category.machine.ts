// The Add Category modal: a name (trimmed, required: the button stays disabled while it is
// empty) and an optional description. 'Adding...' while the request runs; on success the
// form clears and the modal closes; on failure the input stays and the reason shows.
import { assign, fromPromise, setup } from 'xstate';
import type { Category } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { messageForInput, refusedField } from '../../lib/refused-field';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';

export type CategoryField = 'name' | 'description';
const LABELS: Record<CategoryField, string> = { name: 'Name', description: 'Description' };

/** A refusal about one input (the server's `field`): that input and the message for it. */
function refusedInput(error: unknown): { field: CategoryField; message: string } | null {
  const refused = refusedField(error);
  if (!refused || (refused.field !== 'name' && refused.field !== 'description')) return null;
  return { field: refused.field, message: messageForInput(refused, LABELS[refused.field]) };
}

export interface AddCategoryContext {
  name: string;
  description: string;
  error: string | null;
  /** The input the error is about, when the server named one (a name too long, taken). */
  invalidField: CategoryField | null;
  created: Category | null;
}

export type AddCategoryEvent =
  | { type: 'CHANGE_NAME'; value: string }
  | { type: 'CHANGE_DESCRIPTION'; value: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' };

export const addCategoryMachine = setup({
  types: {
    context: {} as AddCategoryContext,
    events: {} as AddCategoryEvent,
    output: {} as { category: Category | null },
  },
  actors: {
    createCategory: fromPromise<Category, { name: string; description?: string }>(({ input }) =>
      inventoryApi.createCategory(input),
    ),
  },
  guards: {
    hasName: ({ context }) => context.name.trim() !== '',
  },
  actions: {
    // Editing the input a message is about takes the message away (the user is fixing it).
    setName: assign(({ context, event }) =>
      event.type === 'CHANGE_NAME'
        ? { name: event.value, ...(context.invalidField === 'name' ? { error: null, invalidField: null } : {}) }
        : {},
    ),
    setDescription: assign(({ context, event }) =>
      event.type === 'CHANGE_DESCRIPTION'
        ? {
            description: event.value,
            ...(context.invalidField === 'description' ? { error: null, invalidField: null } : {}),
          }
        : {},
    ),
    clearError: assign({ error: null, invalidField: null }),
    showFailure: assign(({ event }) => {
      const failure = (event as unknown as { error: unknown }).error;
      const refused = refusedInput(failure);
      if (refused) return { error: refused.message, invalidField: refused.field };
      return { error: `Failed to add category: ${errorMessage(failure, 'Request failed')}`, invalidField: null };
    }),
    notifyFailure: () => void toast.error('Failed to add category'),
    keepCreated: assign({
      created: ({ event }) => (event as unknown as { output: Category }).output,
      name: '',
      description: '',
    }),
  },
}).createMachine({
  id: 'addCategory',
  context: { name: '', description: '', error: null, invalidField: null, created: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        CHANGE_NAME: { actions: 'setName' },
        CHANGE_DESCRIPTION: { actions: 'setDescription' },
        SUBMIT: { guard: 'hasName', target: 'adding', actions: 'clearError' },
        CANCEL: 'cancelled',
      },
    },
    adding: {
      invoke: {
        src: 'createCategory',
        input: ({ context }) => ({
          name: context.name.trim(),
          ...(context.description.trim() ? { description: context.description.trim() } : {}),
        }),
        onDone: { target: 'added', actions: 'keepCreated' },
        onError: { target: 'editing', actions: ['showFailure', 'notifyFailure'] },
      },
    },
    added: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({ category: context.created }),
});
