// The Profile screen: loads my account, switches between viewing and editing (Edit
// Profile), saves name and email (only what changed) and tells the app, so the header and
// menu show the new name at once.
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Profile, Role } from '../../../shared/accounts';
import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toasts';
import { profileApi } from './api';

export interface ProfileContext {
  profile: Profile | null;
  roles: Role[];
  error: string | null;
  saveError: string | null;
}

export type ProfileEvent = { type: 'EDIT' } | { type: 'CANCEL' } | { type: 'SAVE'; name: string; email: string } | { type: 'RETRY' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What to send: trimmed fields that changed; or the problem with the form. */
export function profileChanges(profile: Profile, name: string, email: string): { changes: { name?: string; email?: string } } | { error: string } {
  const n = name.trim();
  const e = email.trim();
  if (!n) return { error: 'Full Name is required' };
  if (profile.user.email !== null && !EMAIL.test(e)) return { error: 'Invalid email address' };
  const changes: { name?: string; email?: string } = {};
  if (n !== profile.user.name) changes.name = n;
  if (profile.user.email !== null && e.toLowerCase() !== profile.user.email.toLowerCase()) changes.email = e;
  return { changes };
}

export const profileMachine = setup({
  types: { context: {} as ProfileContext, events: {} as ProfileEvent },
  actors: {
    load: fromPromise<{ profile: Profile; roles: Role[] }, void>(async () => {
      const [profile, roles] = await Promise.all([profileApi.read(), profileApi.roles()]);
      return { profile, roles };
    }),
    save: fromPromise<Profile, { name?: string; email?: string }>(({ input }) => profileApi.update(input)),
  },
  guards: {
    formProblem: ({ context, event }) => event.type === 'SAVE' && !!context.profile && 'error' in profileChanges(context.profile, event.name, event.email),
    nothingChanged: ({ context, event }) => {
      if (event.type !== 'SAVE' || !context.profile) return false;
      const result = profileChanges(context.profile, event.name, event.email);
      return 'changes' in result && Object.keys(result.changes).length === 0;
    },
  },
  actions: {
    setLoaded: assign(({ event }) => {
      const out = (event as unknown as { output: { profile: Profile; roles: Role[] } }).output;
      return { profile: out.profile, roles: out.roles, error: null };
    }),
    setError: assign({ error: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to load your profile') }),
    rejectForm: assign({
      saveError: ({ context, event }) => {
        if (event.type !== 'SAVE' || !context.profile) return null;
        const result = profileChanges(context.profile, event.name, event.email);
        return 'error' in result ? result.error : null;
      },
    }),
    clearSaveError: assign({ saveError: null }),
    setSaved: enqueueActions(({ event, enqueue }) => {
      enqueue.assign({ profile: (event as unknown as { output: Profile }).output, saveError: null });
      enqueue('profileSaved');
      toast.success('Profile updated');
    }),
    setSaveError: assign({ saveError: ({ event }) => errorMessage((event as unknown as { error: unknown }).error, 'Failed to update your profile') }),
    // The app refreshes the session (name in the header and menu); provided by the page.
    profileSaved: () => undefined,
  },
}).createMachine({
  id: 'profile',
  context: { profile: null, roles: [], error: null, saveError: null },
  initial: 'loading',
  states: {
    loading: { invoke: { src: 'load', onDone: { target: 'viewing', actions: 'setLoaded' }, onError: { target: 'error', actions: 'setError' } } },
    error: { on: { RETRY: 'loading' } },
    viewing: { on: { EDIT: { target: 'editing', actions: 'clearSaveError' } } },
    editing: {
      on: {
        CANCEL: { target: 'viewing', actions: 'clearSaveError' },
        SAVE: [
          { guard: 'formProblem', actions: 'rejectForm' },
          { guard: 'nothingChanged', target: 'viewing', actions: 'clearSaveError' },
          { target: 'saving', actions: 'clearSaveError' },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context, event }) => {
          const e = event as Extract<ProfileEvent, { type: 'SAVE' }>;
          const result = profileChanges(context.profile!, e.name, e.email);
          return 'changes' in result ? result.changes : {};
        },
        onDone: { target: 'viewing', actions: 'setSaved' },
        onError: { target: 'editing', actions: 'setSaveError' },
      },
    },
  },
});
