// Change Password: checks the form (every field, the two new ones equal, 6+ characters),
// then re-authenticates with the current password and sets the new one. The Firebase step
// is the `changePassword` actor, provided by the app.
import { assign, fromPromise, setup } from 'xstate';

export interface PasswordForm {
  current: string;
  next: string;
  confirm: string;
}

export interface ChangePasswordContext {
  error: string | null;
  done: boolean;
}

export function checkPasswordForm(form: PasswordForm): string | null {
  if (!form.current || !form.next || !form.confirm) return 'Please fill in all password fields';
  if (form.next !== form.confirm) return 'Passwords do not match';
  if (form.next.length < 6) return 'Password is too weak. Please use a stronger password';
  if (form.next === form.current) return 'The new password must differ from the current one';
  return null;
}

/** Firebase error codes turned into the words the other sign-in screens use (and a few more). */
export function passwordErrorMessage(error: unknown): string {
  const code = String((error as { code?: unknown })?.code ?? '').replace(/^auth\//, '');
  switch (code) {
    case 'wrong-password':
    case 'invalid-credential':
    case 'invalid-login-credentials':
      return 'Current password is incorrect';
    case 'weak-password':
      return 'Password is too weak. Please use a stronger password';
    case 'too-many-requests':
      return 'Too many failed login attempts. Please try again later';
    case 'network-request-failed':
      return 'Network error';
    case 'requires-recent-login':
      return 'Please sign in again, then change your password';
    default:
      return 'Failed to change password';
  }
}

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as { type: 'SUBMIT'; form: PasswordForm } | { type: 'RESET' },
  },
  actors: {
    // Replaced by the app with Firebase's re-authenticate and update.
    changePassword: fromPromise<void, { current: string; next: string }>(() =>
      Promise.reject(new Error('not available')),
    ),
  },
  guards: { invalid: ({ event }) => event.type === 'SUBMIT' && checkPasswordForm(event.form) !== null },
  actions: {
    rejectForm: assign({
      error: ({ event }) => (event.type === 'SUBMIT' ? checkPasswordForm(event.form) : null),
      done: false,
    }),
    clear: assign({ error: null, done: false }),
    succeed: assign({ error: null, done: true }),
    fail: assign({ error: ({ event }) => passwordErrorMessage((event as unknown as { error: unknown }).error) }),
  },
}).createMachine({
  id: 'changePassword',
  context: { error: null, done: false },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SUBMIT: [
          { guard: 'invalid', actions: 'rejectForm' },
          { target: 'submitting', actions: 'clear' },
        ],
        RESET: { actions: 'clear' },
      },
    },
    submitting: {
      invoke: {
        src: 'changePassword',
        input: ({ event }) => {
          const form = (event as { form: PasswordForm }).form;
          return { current: form.current, next: form.next };
        },
        onDone: { target: 'idle', actions: 'succeed' },
        onError: { target: 'idle', actions: 'fail' },
      },
    },
  },
});
