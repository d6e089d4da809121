// The Edit Category modal: rename a category and change its description. The name is
// required (trimmed; Save stays disabled while it is empty). The save carries the version
// the dialog opened with: when someone else changed the category first, the server answers
// 409 with the current one, the dialog says so and the next Save replaces theirs. A failure
// keeps the input, says why, and raises a 'Failed to update category' toast.
import { assign, fromPromise, setup } from 'xstate';
import type { Category } from '../../../shared/inventory';
import { ApiError, errorMessage } from '../../lib/api-client';
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

export interface EditCategoryContext {
  category: Category;
  name: string;
  description: string;
  error: string | null;
  /** The input the error is about, when the server named one (a name too long, taken). */
  invalidField: CategoryField | null;
  updated: Category | null;
}

export type EditCategoryEvent =
  | { type: 'CHANGE_NAME'; value: string }
  | { type: 'CHANGE_DESCRIPTION'; value: string }
  | { type: 'SUBMIT' }
  | { type: 'CANCEL' };

interface SaveInput {
  id: string;
  version: number;
  name: string;
  description: string;
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;

/** The category as it is now, from a 409 answer to a stale save. */
function currentFrom409(error: unknown): Category | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const current = (error.body as { current?: Category } | null)?.current;
  return current && typeof current === 'object' ? current : null;
}

export const editCategoryMachine = setup({
  types: {
    context: {} as EditCategoryContext,
    events: {} as EditCategoryEvent,
    input: {} as { category: Category },
    output: {} as { category: Category | null },
  },
  actors: {
    updateCategory: fromPromise<Category, SaveInput>(({ input }) =>
      inventoryApi.updateCategory(input.id, { name: input.name, description: input.description }, input.version),
    ),
  },
  guards: {
    hasName: ({ context }) => context.name.trim() !== '',
    unchanged: ({ context }) =>
      context.name.trim() === context.category.name &&
      context.description.trim() === (context.category.description ?? ''),
    changedMeanwhile: ({ event }) => currentFrom409(errorOf(event)) !== null,
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
    // Build on their version, keep my input: the next Save is a deliberate overwrite.
    adoptCurrent: assign(({ event }) => {
      const current = currentFrom409(errorOf(event))!;
      return {
        category: current,
        error: `Someone else changed this category meanwhile (it is now "${current.name}"). Save again to replace it with your changes.`,
      };
    }),
    showFailure: assign(({ event }) => {
      const refused = refusedInput(errorOf(event));
      if (refused) return { error: refused.message, invalidField: refused.field };
      return {
        error: `Failed to update category: ${errorMessage(errorOf(event), 'Request failed')}`,
        invalidField: null,
      };
    }),
    notifyFailure: () => void toast.error('Failed to update category'),
    keepUpdated: assign({ updated: ({ event }) => (event as unknown as { output: Category }).output }),
  },
}).createMachine({
  id: 'editCategory',
  context: ({ input }) => ({
    category: input.category,
    name: input.category.name,
    description: input.category.description ?? '',
    error: null,
    invalidField: null,
    updated: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        CHANGE_NAME: { actions: 'setName' },
        CHANGE_DESCRIPTION: { actions: 'setDescription' },
        SUBMIT: [
          { guard: 'unchanged', target: 'cancelled' },
          { guard: 'hasName', target: 'saving', actions: 'clearError' },
        ],
        CANCEL: 'cancelled',
      },
    },
    saving: {
      invoke: {
        src: 'updateCategory',
        input: ({ context }) => ({
          id: context.category.id,
          version: context.category.version,
          name: context.name.trim(),
          description: context.description.trim(),
        }),
        onDone: { target: 'saved', actions: 'keepUpdated' },
        onError: [
          { guard: 'changedMeanwhile', target: 'editing', actions: ['adoptCurrent', 'notifyFailure'] },
          { target: 'editing', actions: ['showFailure', 'notifyFailure'] },
        ],
      },
    },
    saved: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({ category: context.updated }),
});
