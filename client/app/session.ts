// The signed-in session for the whole app: one auth machine actor with its real Firebase
// actors, wired to the API client's token, the live feed (connected while signed in), the
// landing page's signed-in hint, and toasts for failures. Loaded lazily with the sign-in
// pages or the signed-in app, never by the landing page.
import { createActor, fromPromise } from 'xstate';
import { useSelector } from '@xstate/react';
import { CLOSE_CODES } from '../../shared/realtime';
import { api } from '../lib/api-client';
import { rememberSignedIn } from '../lib/auth-hint';
import { onFeed, startFeed, stopFeed } from '../lib/realtime';
import { toast } from '../lib/toasts';
import type { SessionBody, SessionResponse } from '../../shared/accounts';
import { startSession } from '../features/auth/api';
import { authActors, startFirebaseAfter } from '../features/auth/auth-actors';
import { authMachine } from '../features/auth/auth.machine';
import { firebaseAuth, idToken } from '../features/auth/firebase-lazy';
import { cachedGrant, forgetGrant, startSessionOrCached } from './session-grant';
import { earlyReadsSettled } from '../lib/first-data';
import { readWarmToken, markWarmStartChecked, type WarmToken } from './warm-start';

// Until Firebase has spoken, a warm start's stored token answers (see warm-start.ts).
let warm: WarmToken | null = null;
/** A token near its end is left to Firebase, which refreshes it. */
const WARM_TOKEN_MARGIN_MS = 60_000;

function requestToken(forceRefresh: boolean): Promise<string | null> {
  if (!forceRefresh && warm && warm.expiresAt - Date.now() > WARM_TOKEN_MARGIN_MS) return Promise.resolve(warm.token);
  return idToken(forceRefresh);
}

api.setTokenSource(() => requestToken(false));

/** The longest a warm start holds Firebase back. */
const FIREBASE_HOLD_MAX_MS = 3000;

// A returning user with a valid stored token and this device's last grant for them renders
// at once (auth.machine.ts's signedIn.warm); Firebase starts once the first screen's early
// reads are answered (it would compete with them for a phone's bandwidth), then confirms.
const warmCheck = readWarmToken().then((found) => ({ found, grant: found ? cachedGrant(found.user.uid) : null }));
startFirebaseAfter(
  warmCheck.then(({ found, grant }) =>
    found && grant
      ? Promise.race([earlyReadsSettled(), new Promise((resolve) => setTimeout(resolve, FIREBASE_HOLD_MAX_MS))])
      : undefined,
  ),
);

export const authActor = createActor(
  authMachine.provide({
    actors: {
      ...authActors,
      // Offline, a restored Firebase user opens the app with the last grant this device saw.
      startSession: fromPromise<SessionResponse, SessionBody>(async ({ input }) =>
        startSessionOrCached(input, (await firebaseAuth()).currentUser?.uid ?? null, startSession),
      ),
    },
    actions: {
      signedInEffects: () => {
        rememberSignedIn(true);
        startFeed((force) => requestToken(force));
      },
      signedOutEffects: () => {
        rememberSignedIn(false);
        forgetGrant();
        stopFeed();
      },
      logoutFailedEffects: () => {
        toast.error('Failed to logout');
      },
    },
  }),
);
authActor.start();

// Firebase confirmed, replaced or signed out the warm-started user: its tokens from now on.
authActor.subscribe((snapshot) => {
  if (warm && !snapshot.matches({ signedIn: 'warm' })) warm = null;
});

void warmCheck
  .then(({ found, grant }) => {
    if (!found || !grant || !authActor.getSnapshot().matches('loading')) return;
    warm = found;
    authActor.send({ type: 'WARM_START', user: found.user, session: grant });
  })
  .finally(markWarmStartChecked);

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
