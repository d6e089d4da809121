// The Profile screen: loads my account, switches between viewing and editing (Edit
// Profile), saves name and email (only what changed) and tells the app, so the header and
// menu show the new name at once. A new email takes a fresh sign-in: when the server asks
// for one (401), the screen asks for the password, re-authenticates with Firebase (the
// `reauthenticate` actor, provided by the app) and saves again. The email itself changes
// only when its owner follows the link the server has Firebase mail to the new address.
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Profile, ProfileUpdate, Role } from '../../../shared/accounts';
import { errorMessage, isStatus } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { profileApi } from './api';
import { passwordErrorMessage } from './change-password.machine';

type Changes = { name?: string; email?: string };

export interface ProfileContext {
  profile: Profile | null;
  roles: Role[];
  error: string | null;
  saveError: string | null;
  /** What the last Save sends (and sends again after signing in again). */
  pending: Changes | null;
  /** Why the password given to sign in again was refused. */
  reauthError: string | null;
  /** Where the last email change link went, until the page is left. */
  emailSentTo: string | null;
}

export type ProfileEvent =
  | { type: 'EDIT' }
  | { type: 'CANCEL' }
  | { type: 'SAVE'; name: string; email: string }
  | { type: 'RETRY' }
  | { type: 'CONFIRM_PASSWORD'; password: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What to send: trimmed fields that changed; or the problem with the form. */
export function profileChanges(
  profile: Profile,
  name: string,
  email: string,
): { changes: Changes } | { error: string } {
  const n = name.trim();
  const e = email.trim();
  if (!n) return { error: 'Full Name is required' };
  if (profile.user.email !== null && !EMAIL.test(e)) return { error: 'Invalid email address' };
  const changes: Changes = {};
  if (n !== profile.user.name) changes.name = n;
  if (profile.user.email !== null && e.toLowerCase() !== profile.user.email.toLowerCase()) changes.email = e;
  return { changes };
}

/** The toast after a save: a new email waits for its link to be followed. */
export function savedMessage(update: ProfileUpdate): string {
  return update.emailVerificationSentTo
    ? `We sent a link to ${update.emailVerificationSentTo}: your email changes when you follow it`
    : 'Profile updated';
}

export const profileMachine = setup({
  types: { context: {} as ProfileContext, events: {} as ProfileEvent },
  actors: {
    load: fromPromise<{ profile: Profile; roles: Role[] }, void>(async () => {
      const [profile, roles] = await Promise.all([profileApi.read(), profileApi.roles()]);
      return { profile, roles };
    }),
    save: fromPromise<ProfileUpdate, Changes>(({ input }) => profileApi.update(input)),
    // Replaced by the app with Firebase's re-authentication with the password.
    reauthenticate: fromPromise<void, { password: string }>(() => Promise.reject(new Error('not available'))),
  },
  guards: {
    formProblem: ({ context, event }) =>
      event.type === 'SAVE' && !!context.profile && 'error' in profileChanges(context.profile, event.name, event.email),
    nothingChanged: ({ context, event }) => {
      if (event.type !== 'SAVE' || !context.profile) return false;
      const result = profileChanges(context.profile, event.name, event.email);
      return 'changes' in result && Object.keys(result.changes).length === 0;
    },
    // The server wants a fresh sign-in for a new email; a password account can give one here.
    needsSignInAgain: ({ context, event }) =>
      isStatus((event as unknown as { error: unknown }).error, 401) &&
      context.pending?.email !== undefined &&
      context.profile?.user.provider === 'password',
    blankPassword: ({ event }) => event.type === 'CONFIRM_PASSWORD' && !event.password,
  },
  actions: {
    setLoaded: assign(({ event }) => {
      const out = (event as unknown as { output: { profile: Profile; roles: Role[] } }).output;
      return { profile: out.profile, roles: out.roles, error: null };
    }),
    setError: assign({
      error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load your profile'),
    }),
    rejectForm: assign({
      saveError: ({ context, event }) => {
        if (event.type !== 'SAVE' || !context.profile) return null;
        const result = profileChanges(context.profile, event.name, event.email);
        return 'error' in result ? result.error : null;
      },
    }),
    clearSaveError: assign({ saveError: null, reauthError: null }),
    setPending: assign({
      pending: ({ context, event }) => {
        if (event.type !== 'SAVE' || !context.profile) return null;
        const result = profileChanges(context.profile, event.name, event.email);
        return 'changes' in result ? result.changes : null;
      },
    }),
    setSaved: enqueueActions(({ event, enqueue }) => {
      const update = (event as unknown as { output: ProfileUpdate }).output;
      enqueue.assign({
        profile: { user: update.user, preferences: update.preferences },
        saveError: null,
        reauthError: null,
        pending: null,
        emailSentTo: ({ context }) => update.emailVerificationSentTo ?? context.emailSentTo,
      });
      enqueue('profileSaved');
      toast.success(savedMessage(update));
    }),
    setSaveError: assign({
      saveError: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to update your profile'),
    }),
    askPassword: assign({ reauthError: 'Please enter your password' }),
    setReauthError: assign({
      reauthError: ({ event }) => passwordErrorMessage((event as unknown as { error: unknown }).error),
    }),
    // The app refreshes the session (name in the header and menu); provided by the page.
    profileSaved: () => undefined,
  },
}).createMachine({
  id: 'profile',
  context: {
    profile: null,
    roles: [],
    error: null,
    saveError: null,
    pending: null,
    reauthError: null,
    emailSentTo: null,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'viewing', actions: 'setLoaded' },
        onError: { target: 'error', actions: 'setError' },
      },
    },
    error: { on: { RETRY: 'loading' } },
    viewing: { on: { EDIT: { target: 'editing', actions: 'clearSaveError' } } },
    editing: {
      on: {
        CANCEL: { target: 'viewing', actions: 'clearSaveError' },
        SAVE: [
          { guard: 'formProblem', actions: 'rejectForm' },
          { guard: 'nothingChanged', target: 'viewing', actions: 'clearSaveError' },
          { target: 'saving', actions: ['clearSaveError', 'setPending'] },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => context.pending ?? {},
        onDone: { target: 'viewing', actions: 'setSaved' },
        onError: [
          { guard: 'needsSignInAgain', target: 'confirmingPassword' },
          { target: 'editing', actions: 'setSaveError' },
        ],
      },
    },
    // "Sign in again to change your email": the password, then the same save again.
    confirmingPassword: {
      on: {
        CONFIRM_PASSWORD: [{ guard: 'blankPassword', actions: 'askPassword' }, { target: 'reauthenticating' }],
        CANCEL: { target: 'editing', actions: 'clearSaveError' },
      },
    },
    reauthenticating: {
      invoke: {
        src: 'reauthenticate',
        input: ({ event }) => ({ password: event.type === 'CONFIRM_PASSWORD' ? event.password : '' }),
        onDone: { target: 'saving' },
        onError: { target: 'confirmingPassword', actions: 'setReauthError' },
      },
    },
  },
});
