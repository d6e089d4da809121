// The Firebase functions the session uses, loading the SDK on first use. The signed-in app
// can then render (from a warm start) while Firebase is still on its way, instead of
// waiting for the SDK's chunk before its first paint. Same names and shapes as firebase.ts.
import type { AuthUser } from './firebase';

const load = () => import('./firebase');

export type { AuthUser };

/** Like firebase.ts's watchAuthState; an SDK that fails to load reports through onError. */
export function watchAuthState(
  callback: (user: AuthUser | null) => void,
  onError: (error: unknown) => void,
): () => void {
  let cancelled = false;
  let stop: (() => void) | null = null;
  load().then(
    (firebase) => {
      if (!cancelled) stop = firebase.watchAuthState(callback, onError);
    },
    (error) => onError(error),
  );
  return () => {
    cancelled = true;
    stop?.();
  };
}

export const firebaseAuth = async () => (await load()).firebaseAuth();
/** Whether the store allows guest sign-in (from the same client config Firebase starts with). */
export const guestSignInOffered = async () => (await (await load()).clientConfig()).guestSignIn === true;
export const idToken = async (forceRefresh = false) => (await load()).idToken(forceRefresh);
export const emailSignIn = async (email: string, password: string) => (await load()).emailSignIn(email, password);
export const emailSignUp = async (name: string, email: string, password: string) =>
  (await load()).emailSignUp(name, email, password);
export const googleSignIn = async () => (await load()).googleSignIn();
export const guestSignIn = async () => (await load()).guestSignIn();
export const signOutUser = async () => (await load()).signOutUser();
export const signInMethods = async (email: string) => (await load()).signInMethods(email);
