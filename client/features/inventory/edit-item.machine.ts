// The Edit page (/inventory/{id}/edit): load the item and categories, edit, save only the
// changed fields with the version loaded (If-Match). When someone else changed the item
// first the server answers 409 with the current item: the page shows what changed and
// lets the user reload (take theirs) or overwrite (save mine over theirs). Deleting asks
// for confirmation first. A failed save or delete shows the error and re-enables the form,
// the user's input kept.
import { assign, fromPromise, setup } from 'xstate';
import type { Category, Item, UpdateItemBody } from '../../../shared/inventory';
import { ApiError, errorMessage } from '../../lib/api-client';
import { withUndo } from '../../components/undo';
import { orQueued } from '../../offline/outbox';
import { inventoryApi } from './api';
import { deleteChange, editChange } from './undo-labels';
import {
  changedBody,
  differingFields,
  draftFromItem,
  EMPTY_DRAFT,
  firstProblem,
  refusedProblem,
  type DraftField,
  type ItemDraft,
} from './item-draft';

export interface Conflict {
  current: Item;
  /** Fields someone else changed since this page loaded the item. */
  fields: string[];
}

export interface EditContext {
  id: string;
  original: Item | null;
  values: ItemDraft;
  categories: Category[];
  error: string | null;
  invalidField: DraftField | null;
  conflict: Conflict | null;
}

export type EditEvent =
  | { type: 'CHANGE'; field: DraftField; value: string }
  | { type: 'SAVE' }
  | { type: 'CANCEL' }
  | { type: 'DELETE' }
  | { type: 'CONFIRM_DELETE' }
  | { type: 'CANCEL_DELETE' }
  | { type: 'RELOAD' }
  | { type: 'OVERWRITE' }
  | { type: 'RETRY' };

const errorOf = (event: unknown) => (event as { error: unknown }).error;
const currentFrom409 = (error: unknown): Item | null => {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const current = (error.body as { current?: Item } | null)?.current;
  return current && typeof current === 'object' ? current : null;
};

export const editItemMachine = setup({
  types: {
    context: {} as EditContext,
    events: {} as EditEvent,
    input: {} as { id: string },
  },
  actors: {
    load: fromPromise<{ item: Item; categories: Category[] }, string>(async ({ input }) => {
      const [item, categories] = await Promise.all([inventoryApi.item(input), inventoryApi.categories()]);
      return { item, categories };
    }),
    // A saved change or a delete offers Undo of exactly that write.
    // Offline, the edit waits in the outbox with the version it was based on: null.
    update: fromPromise<Item | null, { id: string; body: UpdateItemBody; version: number; name: string }>(({ input }) =>
      orQueued(() =>
        withUndo(
          (key) =>
            inventoryApi.updateItemOrQueue(
              input.id,
              input.body,
              input.version,
              `Edit ${input.name}: ${Object.keys(input.body).join(', ')}`,
              key,
            ),
          () => 'Changes saved',
          editChange(input.name, input.body),
        ),
      ),
    ),
    remove: fromPromise<void, { id: string; version: number; name: string }>(({ input }) =>
      withUndo(
        (key) => inventoryApi.deleteItem(input.id, input.version, key),
        () => `"${input.name}" deleted`,
        deleteChange(input.name),
      ),
    ),
  },
  guards: {
    isNotFound: ({ event }) => errorOf(event) instanceof ApiError && (errorOf(event) as ApiError).status === 404,
    invalid: ({ context }) =>
      firstProblem(
        context.values,
        context.categories.map((c) => c.id),
      ) !== null,
    unchanged: ({ context }) =>
      context.original !== null && Object.keys(changedBody(context.original, context.values)).length === 0,
    isConflict: ({ event }) => currentFrom409(errorOf(event)) !== null,
  },
  actions: {
    setLoaded: assign(({ event }) => {
      const { item, categories } = (event as unknown as { output: { item: Item; categories: Category[] } }).output;
      return { original: item, values: draftFromItem(item), categories, error: null, conflict: null };
    }),
    // Editing the input a message is about takes the message away (the user is fixing it).
    change: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const fixing = event.field === context.invalidField;
      return {
        values: { ...context.values, [event.field]: event.value },
        ...(fixing ? { error: null, invalidField: null } : {}),
      };
    }),
    showProblem: assign(({ context }) => {
      const problem = firstProblem(
        context.values,
        context.categories.map((c) => c.id),
      );
      return { error: problem?.message ?? null, invalidField: problem?.field ?? null };
    }),
    clearError: assign({ error: null, invalidField: null }),
    setLoadError: assign({ error: ({ event }) => errorMessage(errorOf(event), 'Failed to load inventory data') }),
    // A refusal about one input (the server's `field`) shows at that input; anything else above the form.
    setSaveError: assign(({ event }) => {
      const refused = refusedProblem(errorOf(event));
      return refused
        ? { error: refused.message, invalidField: refused.field }
        : { error: errorMessage(errorOf(event), 'Failed to update item'), invalidField: null };
    }),
    setDeleteError: assign({ error: ({ event }) => errorMessage(errorOf(event), 'Failed to delete item') }),
    setConflict: assign(({ context, event }) => {
      const current = currentFrom409(errorOf(event))!;
      return { conflict: { current, fields: context.original ? differingFields(context.original, current) : [] } };
    }),
    takeTheirs: assign(({ context }) => {
      const current = context.conflict!.current;
      return { original: current, values: draftFromItem(current), conflict: null, error: null };
    }),
    // Overwrite: keep my values, but build on the version that is current now.
    adoptCurrentVersion: assign(({ context }) => ({ original: context.conflict!.current, conflict: null })),
    keepSaved: assign({
      original: ({ context, event }) => (event as unknown as { output: Item | null }).output ?? context.original,
    }),
  },
}).createMachine({
  id: 'editItem',
  context: ({ input }) => ({
    id: input.id,
    original: null,
    values: EMPTY_DRAFT,
    categories: [],
    error: null,
    invalidField: null,
    conflict: null,
  }),
  initial: 'loading',
  on: { CHANGE: { actions: 'change' } },
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => context.id,
        onDone: { target: 'editing', actions: 'setLoaded' },
        onError: [
          { guard: 'isNotFound', target: 'notFound' },
          { target: 'loadFailed', actions: 'setLoadError' },
        ],
      },
    },
    loadFailed: {
      on: { RETRY: { target: 'loading', actions: 'clearError' } },
    },
    editing: {
      on: {
        SAVE: [
          { guard: 'invalid', actions: 'showProblem' },
          { guard: 'unchanged', target: 'saved', actions: 'clearError' },
          { target: 'saving', actions: 'clearError' },
        ],
        DELETE: { target: 'confirmingDelete', actions: 'clearError' },
        CANCEL: 'cancelled',
      },
    },
    saving: {
      invoke: {
        src: 'update',
        input: ({ context }) => ({
          id: context.id,
          body: changedBody(context.original!, context.values),
          version: context.original!.version,
          name: context.original!.name,
        }),
        onDone: { target: 'saved', actions: 'keepSaved' },
        onError: [
          { guard: 'isConflict', target: 'conflict', actions: 'setConflict' },
          { guard: 'isNotFound', target: 'notFound' },
          { target: 'editing', actions: 'setSaveError' },
        ],
      },
    },
    conflict: {
      on: {
        RELOAD: { target: 'editing', actions: 'takeTheirs' },
        OVERWRITE: [
          { guard: 'invalid', target: 'editing', actions: ['adoptCurrentVersion', 'showProblem'] },
          { target: 'saving', actions: 'adoptCurrentVersion' },
        ],
        CANCEL: 'cancelled',
      },
    },
    confirmingDelete: {
      on: {
        CONFIRM_DELETE: 'deleting',
        CANCEL_DELETE: 'editing',
      },
    },
    deleting: {
      invoke: {
        src: 'remove',
        input: ({ context }) => ({ id: context.id, version: context.original!.version, name: context.original!.name }),
        onDone: 'deleted',
        onError: [
          { guard: 'isConflict', target: 'conflict', actions: 'setConflict' },
          { guard: 'isNotFound', target: 'deleted' },
          { target: 'editing', actions: 'setDeleteError' },
        ],
      },
    },
    saved: { type: 'final' },
    deleted: { type: 'final' },
    cancelled: { type: 'final' },
    notFound: { type: 'final' },
  },
});
