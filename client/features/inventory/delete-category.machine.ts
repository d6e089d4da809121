// Deleting a category. It first reads the categories afresh: an empty category gets the
// confirmation ('Are you sure you want to delete "{name}"?'); one that still holds
// items can't be deleted (the server refuses with 409 'Category is not empty'), so the
// dialog says so and offers to move its items to another category first, then delete it.
// A failure says why and raises a 'Failed to delete category' toast.
import { assign, fromPromise, setup } from 'xstate';
import type { Category } from '../../../shared/inventory';
import { ApiError, errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { inventoryApi } from './api';
import { moveCategoryItems } from './move-category-items';

export interface DeleteCategoryContext {
  category: Category;
  /** Every category, read when the dialog opens (the move targets, and this one's item count). */
  categories: Category[];
  targetId: string;
  error: string | null;
  moved: number;
  deleted: boolean;
}

export type DeleteCategoryEvent =
  | { type: 'CONFIRM' }
  | { type: 'CHOOSE_TARGET'; categoryId: string }
  | { type: 'MOVE_AND_DELETE' }
  | { type: 'CANCEL' };

export interface DeleteCategoryOutput {
  deleted: boolean;
  /** Items moved out first, and where to. */
  moved: number;
  movedTo: Category | null;
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;
const statusOf = (event: unknown) => {
  const error = errorOf(event);
  return error instanceof ApiError ? error.status : 0;
};
/** This category in a just-loaded list (guards run before the list is assigned). */
const loaded = (context: DeleteCategoryContext, event: unknown) =>
  (event as { output: Category[] }).output.find((c) => c.id === context.category.id);

/** Other categories its items can move to. */
export function moveTargets(context: DeleteCategoryContext): Category[] {
  return context.categories.filter((c) => c.id !== context.category.id);
}

export const deleteCategoryMachine = setup({
  types: {
    context: {} as DeleteCategoryContext,
    events: {} as DeleteCategoryEvent,
    input: {} as { category: Category },
    output: {} as DeleteCategoryOutput,
  },
  actors: {
    loadCategories: fromPromise<Category[], void>(() => inventoryApi.categories()),
    deleteCategory: fromPromise<void, string>(({ input }) => inventoryApi.deleteCategory(input)),
    moveAndDelete: fromPromise<number, { fromId: string; toId: string }>(async ({ input }) => {
      const moved = await moveCategoryItems(input.fromId, input.toId);
      await inventoryApi.deleteCategory(input.fromId);
      return moved;
    }),
  },
  guards: {
    alreadyGone: ({ context, event }) => loaded(context, event) === undefined,
    hasItems: ({ context, event }) => (loaded(context, event)?.itemCount ?? 0) > 0,
    hasTarget: ({ context }) => moveTargets(context).some((c) => c.id === context.targetId),
    notEmpty: ({ event }) => statusOf(event) === 409,
    notFound: ({ event }) => statusOf(event) === 404,
  },
  actions: {
    setCategories: assign(({ context, event }) => {
      const categories = (event as unknown as { output: Category[] }).output;
      const category = categories.find((c) => c.id === context.category.id) ?? context.category;
      return { categories, category };
    }),
    chooseTarget: assign({
      targetId: ({ context, event }) => (event.type === 'CHOOSE_TARGET' ? event.categoryId : context.targetId),
    }),
    clearError: assign({ error: null }),
    showFailure: assign({
      error: ({ event }) => `Failed to delete category: ${errorMessage(errorOf(event), 'Request failed')}`,
    }),
    notifyFailure: () => void toast.error('Failed to delete category'),
    keepMoved: assign({ moved: ({ event }) => (event as unknown as { output: number }).output }),
  },
}).createMachine({
  id: 'deleteCategory',
  context: ({ input }) => ({
    category: input.category,
    categories: [],
    targetId: '',
    error: null,
    moved: 0,
    deleted: false,
  }),
  initial: 'checking',
  on: { CANCEL: '.cancelled' },
  states: {
    checking: {
      invoke: {
        src: 'loadCategories',
        onDone: [
          { guard: 'alreadyGone', target: 'deleted', actions: 'setCategories' },
          { guard: 'hasItems', target: 'notEmpty', actions: 'setCategories' },
          { target: 'confirming', actions: 'setCategories' },
        ],
        // Without fresh counts the server still refuses a non-empty category: ask anyway.
        onError: 'confirming',
      },
    },
    confirming: {
      on: { CONFIRM: { target: 'deleting', actions: 'clearError' } },
    },
    deleting: {
      // Busy: closing now would hide the outcome.
      on: { CANCEL: {} },
      invoke: {
        src: 'deleteCategory',
        input: ({ context }) => context.category.id,
        onDone: 'deleted',
        onError: [
          // Someone added an item since the dialog opened: read again, then offer the move.
          { guard: 'notEmpty', target: 'checking' },
          { guard: 'notFound', target: 'deleted' },
          { target: 'confirming', actions: ['showFailure', 'notifyFailure'] },
        ],
      },
    },
    notEmpty: {
      on: {
        CHOOSE_TARGET: { actions: 'chooseTarget' },
        MOVE_AND_DELETE: { guard: 'hasTarget', target: 'moving', actions: 'clearError' },
      },
    },
    moving: {
      on: { CANCEL: {} },
      invoke: {
        src: 'moveAndDelete',
        input: ({ context }) => ({ fromId: context.category.id, toId: context.targetId }),
        onDone: { target: 'deleted', actions: 'keepMoved' },
        // Some items may have moved: read the counts again, keeping the reason on screen.
        onError: { target: 'checking', actions: ['showFailure', 'notifyFailure'] },
      },
    },
    deleted: { type: 'final', entry: assign({ deleted: true }) },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => ({
    deleted: context.deleted,
    moved: context.moved,
    movedTo: context.categories.find((c) => c.id === context.targetId) ?? null,
  }),
});
