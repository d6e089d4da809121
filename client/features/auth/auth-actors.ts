// The auth machine's real actors: Firebase steps (with the sign-in method lookups some
// messages need, e.g. "this email signs in with Google") and POST /api/session. Kept apart
// from the machine so unit tests can run
// the machine with stand-ins.
import { fromCallback, fromPromise } from 'xstate';
import type { SessionBody, SessionResponse } from '../../../shared/accounts';
import { startSession } from './api';
import { authErrorCode } from './auth-errors';
import type { AuthEvent, AuthFailure, LoginInput, SignupInput } from './auth.machine';
import {
  emailSignIn,
  emailSignUp,
  googleSignIn,
  guestSignIn,
  idToken,
  signInMethods,
  signOutUser,
  watchAuthState,
  type AuthUser,
} from './firebase-lazy';

const RETRY_CONFIG_MS = 3000;

/** Firebase starts once this settles (a warm start holds it back behind the first screen). */
let firebaseMayStart: Promise<unknown> = Promise.resolve();

export function startFirebaseAfter(ready: Promise<unknown>): void {
  firebaseMayStart = ready.catch(() => undefined);
}

function failure(error: unknown, methods?: string[]): AuthFailure {
  return { code: authErrorCode(error), ...(methods ? { methods } : {}) };
}

export const authActors = {
  authState: fromCallback<AuthEvent>(({ sendBack }) => {
    let stop: () => void = () => undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const watch = () => {
      if (stopped) return;
      stop = watchAuthState(
        (user) => sendBack({ type: 'FIREBASE_USER', user }),
        (error) => {
          // The client config could not be fetched (server restarting, offline): try again.
          console.error('Sign-in is unavailable for now', error);
          timer = setTimeout(watch, RETRY_CONFIG_MS);
        },
      );
    };
    void firebaseMayStart.then(watch);
    return () => {
      stopped = true;
      clearTimeout(timer);
      stop();
    };
  }),
  emailSignIn: fromPromise<AuthUser, LoginInput>(async ({ input }) => {
    try {
      return await emailSignIn(input.email, input.password);
    } catch (error) {
      console.error('Login failed', error);
      const code = authErrorCode(error);
      // The message depends on the email's sign-in methods: a Google-only account is told to use Google.
      const methods =
        code === 'invalid-credential' || code === 'wrong-password' ? await signInMethods(input.email) : undefined;
      throw failure(error, methods);
    }
  }),
  emailSignUp: fromPromise<AuthUser, SignupInput>(async ({ input }) => {
    const existing = await signInMethods(input.email);
    if (existing.length > 0) throw { code: 'email-already-in-use', methods: existing } satisfies AuthFailure;
    try {
      return await emailSignUp(input.name.trim(), input.email, input.password);
    } catch (error) {
      console.error('Signup failed', error);
      const code = authErrorCode(error);
      throw failure(error, code === 'email-already-in-use' ? await signInMethods(input.email) : undefined);
    }
  }),
  googleSignIn: fromPromise<AuthUser, void>(async () => {
    try {
      return await googleSignIn();
    } catch (error) {
      console.error('Google sign-in failed', error);
      throw failure(error);
    }
  }),
  guestSignIn: fromPromise<AuthUser, void>(async () => {
    try {
      return await guestSignIn();
    } catch (error) {
      console.error('Anonymous sign-in failed', error);
      throw failure(error);
    }
  }),
  startSession: fromPromise<SessionResponse, SessionBody>(({ input }) => startSession(input)),
  refreshToken: fromPromise<void, void>(async () => {
    await idToken(true);
  }),
  signOut: fromPromise<void, void>(async () => {
    try {
      await signOutUser();
    } catch (error) {
      console.error('Logout failed', error);
      throw failure(error);
    }
  }),
};
