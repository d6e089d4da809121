// The Add Role / Edit Role dialog: checks name, description and at least one permission,
// then creates or updates the role; the server's refusals (a taken name) show in place.
import { assign, fromPromise, setup } from 'xstate';
import type { Role, RoleBody } from '../../../shared/accounts';
import { errorMessage } from '../../lib/api-client';
import { rolesApi } from './api';

export interface RoleFormContext {
  /** The role being edited; null when adding one. */
  editing: Role | null;
  error: string | null;
  saved: Role | null;
}

export function checkRole(body: RoleBody): string | null {
  if (!body.name.trim() || !body.description.trim()) return 'Role name and description are required';
  if (body.permissions.length === 0) return 'Choose at least one permission';
  return null;
}

export const roleFormMachine = setup({
  types: {
    context: {} as RoleFormContext,
    events: {} as { type: 'SUBMIT'; body: RoleBody },
    input: {} as { editing: Role | null },
  },
  actors: {
    save: fromPromise<Role, { id: string | null; body: RoleBody }>(({ input }) =>
      input.id ? rolesApi.update(input.id, input.body) : rolesApi.create(input.body),
    ),
  },
  guards: { invalid: ({ event }) => checkRole(event.body) !== null },
  actions: {
    rejectForm: assign({ error: ({ event }) => checkRole(event.body) }),
    clearError: assign({ error: null }),
    setSaved: assign({ saved: ({ event }) => (event as unknown as { output: Role }).output }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to save the role'),
    }),
  },
}).createMachine({
  id: 'roleForm',
  context: ({ input }) => ({ editing: input.editing, error: null, saved: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          { guard: 'invalid', actions: 'rejectForm' },
          { target: 'saving', actions: 'clearError' },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context, event }) => {
          const body = (event as { body: RoleBody }).body;
          return {
            id: context.editing?.id ?? null,
            body: { ...body, name: body.name.trim(), description: body.description.trim() },
          };
        },
        onDone: { target: 'done', actions: 'setSaved' },
        onError: { target: 'editing', actions: 'setError' },
      },
    },
    done: { type: 'final' },
  },
});
