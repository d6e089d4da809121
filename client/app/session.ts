// The signed-in session for the whole app: one auth machine actor with its real Firebase
// actors, wired to the API client's token, the live feed (connected while signed in), the
// landing page's signed-in hint, and toasts for failures. Loaded lazily with the sign-in
// pages or the signed-in app, never by the landing page.
import { createActor } from 'xstate';
import { useSelector } from '@xstate/react';
import { CLOSE_CODES } from '../../shared/realtime';
import { api } from '../lib/api-client';
import { rememberSignedIn } from '../lib/auth-hint';
import { onFeed, startFeed, stopFeed } from '../lib/realtime';
import { toast } from '../lib/toasts';
import { authActors } from '../features/auth/auth-actors';
import { authMachine } from '../features/auth/auth.machine';
import { idToken } from '../features/auth/firebase';

api.setTokenSource(() => idToken(false));

export const authActor = createActor(
  authMachine.provide({
    actors: authActors,
    actions: {
      signedInEffects: () => {
        rememberSignedIn(true);
        startFeed((force) => idToken(force));
      },
      signedOutEffects: () => {
        rememberSignedIn(false);
        stopFeed();
      },
      logoutFailedEffects: () => {
        toast.error('Failed to logout');
      },
    },
  }),
);
authActor.start();

// The server closed the feed for good: the account was disabled or guests were turned off.
onFeed('fatal', ({ code, reason }) => {
  if (code === CLOSE_CODES.accountDisabled || code === CLOSE_CODES.guestsDisabled) {
    toast.error(reason || 'Your session has ended');
    authActor.send({ type: 'LOGOUT' });
  }
});

// A change to the signed-in user's own account (role approved or changed) refreshes the
// session, so permissions and the token's role claim follow without signing out.
onFeed('event', ({ event }) => {
  const uid = authActor.getSnapshot().context.user?.uid;
  if (!uid || event.streamType !== 'user') return;
  if (event.stream === `user-${uid}` || (event.data as { userId?: string } | null)?.userId === uid) {
    authActor.send({ type: 'REFRESH_SESSION' });
  }
});

/** loading: Firebase is restoring a session; signingIn: the user asked to sign in and waits. */
export type AuthStatus = 'loading' | 'signingIn' | 'signedIn' | 'signedOut';

export function authStatusOf(snapshot: ReturnType<typeof authActor.getSnapshot>): AuthStatus {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('signingIn')) return snapshot.context.flow === 'session' ? 'loading' : 'signingIn';
  if (snapshot.matches('signedIn') || snapshot.matches('signingOut')) return 'signedIn';
  return 'signedOut';
}

export function useAuthStatus(): AuthStatus {
  return useSelector(authActor, authStatusOf);
}

export function useAuthSnapshot() {
  return useSelector(authActor, (snapshot) => snapshot);
}
