// The Add Category modal: a name (trimmed, required: the button stays disabled while it is
// empty) and an optional description. 'Adding...' while the request runs; on success the
// form clears and the modal closes; on failure the input stays and the reason shows.
import { assign, fromPromise, setup } from 'xstate';
import type { Category } from '../../../shared/inventory';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';

export interface AddCategoryContext {
  name: string;
  description: string;
  error: string | null;
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
    createCategory: fromPromise<Category, { name: string; description?: string }>(({ input }) => inventoryApi.createCategory(input)),
  },
  guards: {
    hasName: ({ context }) => context.name.trim() !== '',
  },
  actions: {
    setName: assign({ name: ({ context, event }) => (event.type === 'CHANGE_NAME' ? event.value : context.name) }),
    setDescription: assign({ description: ({ context, event }) => (event.type === 'CHANGE_DESCRIPTION' ? event.value : context.description) }),
    clearError: assign({ error: null }),
    showFailure: assign({
      error: ({ event }) => `Failed to add category: ${errorMessage((event as unknown as { error: unknown }).error, 'Request failed')}`,
    }),
    notifyFailure: () => void toast.error('Failed to add category'),
    keepCreated: assign({ created: ({ event }) => (event as unknown as { output: Category }).output, name: '', description: '' }),
  },
}).createMachine({
  id: 'addCategory',
  context: { name: '', description: '', error: null, created: null },
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
