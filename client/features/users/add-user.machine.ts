// The Add User dialog: checks the form (name, email, password, role), creates a real
// account on the server, and reports the server's refusal (an email already in use) in place.
import { assign, fromPromise, setup } from 'xstate';
import type { CreateUserBody, User } from '../../../shared/accounts';
import { errorMessage } from '../../lib/api-client';
import { usersApi } from './api';

export interface AddUserContext {
  error: string | null;
  created: User | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first problem with the form, in the words a person would use; null when it is fine. */
export function checkNewUser(body: CreateUserBody): string | null {
  if (!body.name.trim() || !body.email.trim() || !body.password || !body.role)
    return 'Please fill in all required fields';
  if (!EMAIL.test(body.email.trim())) return 'Please enter a valid email address';
  if (body.password.length < 6) return 'The password needs at least 6 characters';
  return null;
}

export const addUserMachine = setup({
  types: { context: {} as AddUserContext, events: {} as { type: 'SUBMIT'; body: CreateUserBody } },
  actors: {
    create: fromPromise<User, CreateUserBody>(({ input }) => usersApi.create(input)),
  },
  guards: {
    invalid: ({ event }) => checkNewUser(event.body) !== null,
  },
  actions: {
    rejectForm: assign({ error: ({ event }) => checkNewUser(event.body) }),
    clearError: assign({ error: null }),
    setCreated: assign({ created: ({ event }) => (event as unknown as { output: User }).output }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to add user'),
    }),
  },
}).createMachine({
  id: 'addUser',
  context: { error: null, created: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          { guard: 'invalid', actions: 'rejectForm' },
          { target: 'submitting', actions: 'clearError' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'create',
        input: ({ event }) => {
          const body = (event as { body: CreateUserBody }).body;
          return { ...body, name: body.name.trim(), email: body.email.trim() };
        },
        onDone: { target: 'done', actions: 'setCreated' },
        onError: { target: 'editing', actions: 'setError' },
      },
    },
    done: { type: 'final' },
  },
});
