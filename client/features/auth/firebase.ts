// Firebase Auth, set up from GET /api/client-config (and pointed at the emulator when the
// server runs one). This module is only reached through lazy chunks, so the landing page
// never downloads the SDK. Everything the auth machine needs from Firebase is here.
import { initializeApp, type FirebaseApp } from 'firebase/app';
import {
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  fetchSignInMethodsForEmail,
  GoogleAuthProvider,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  signInAnonymously,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
  updateProfile,
  type Auth,
  type User as FirebaseUser,
} from 'firebase/auth';

export interface ClientConfig {
  projectId: string;
  apiKey: string;
  authDomain: string;
  authEmulatorUrl: string | null;
  /** The store allows guest sign-in (a manager's setting): the sign-in screen offers it only then. */
  guestSignIn?: boolean;
}

/** The parts of a Firebase user the app uses. */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  isAnonymous: boolean;
  providerId: string;
}

let ready: Promise<Auth> | null = null;
let config: Promise<ClientConfig> | null = null;

/** GET /api/client-config, asked once per page load (again only after a failure). */
export function clientConfig(): Promise<ClientConfig> {
  config ??= (async () => {
    const res = await fetch('/api/client-config', { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
    return (await res.json()) as ClientConfig;
  })().catch((error) => {
    config = null;
    throw error;
  });
  return config;
}

export function firebaseAuth(): Promise<Auth> {
  ready ??= (async () => {
    const config = await clientConfig();
    const app: FirebaseApp = initializeApp({
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
    });
    const auth = initializeAuth(app, {
      persistence: [indexedDBLocalPersistence, browserLocalPersistence],
      // No popupRedirectResolver here: it loads Google's gapi script at start-up on every
      // page; the Google sign-in passes it to signInWithPopup, the only place it is needed.
    });
    if (config.authEmulatorUrl) connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });
    return auth;
  })().catch((error) => {
    ready = null; // let the next caller try again
    throw error;
  });
  return ready;
}

export function toAuthUser(user: FirebaseUser): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    isAnonymous: user.isAnonymous,
    providerId: user.providerData[0]?.providerId ?? (user.isAnonymous ? 'anonymous' : 'password'),
  };
}

/** Calls back with the signed-in user (or null) now and on every change; returns the unsubscribe. */
export function watchAuthState(
  callback: (user: AuthUser | null) => void,
  onError: (error: unknown) => void,
): () => void {
  let unsubscribe: (() => void) | null = null;
  let cancelled = false;
  firebaseAuth().then(
    (auth) => {
      if (cancelled) return;
      unsubscribe = onAuthStateChanged(auth, (user) => callback(user ? toAuthUser(user) : null));
    },
    (error) => onError(error),
  );
  return () => {
    cancelled = true;
    unsubscribe?.();
  };
}

export async function idToken(forceRefresh = false): Promise<string | null> {
  const auth = await firebaseAuth();
  // Right after start-up the stored user is still being restored (a warm start asks early).
  await auth.authStateReady();
  const user = auth.currentUser;
  return user ? user.getIdToken(forceRefresh) : null;
}

export async function emailSignIn(email: string, password: string): Promise<AuthUser> {
  const auth = await firebaseAuth();
  return toAuthUser((await signInWithEmailAndPassword(auth, email, password)).user);
}

export async function emailSignUp(name: string, email: string, password: string): Promise<AuthUser> {
  const auth = await firebaseAuth();
  const { user } = await createUserWithEmailAndPassword(auth, email, password);
  if (name) {
    await updateProfile(user, { displayName: name });
    // The first token was minted without the name; the server reads it from the token.
    await user.getIdToken(true);
  }
  return toAuthUser(user);
}

export async function googleSignIn(): Promise<AuthUser> {
  const auth = await firebaseAuth();
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: 'select_account' });
  return toAuthUser((await signInWithPopup(auth, provider, browserPopupRedirectResolver)).user);
}

export async function guestSignIn(): Promise<AuthUser> {
  const auth = await firebaseAuth();
  return toAuthUser((await signInAnonymously(auth)).user);
}

export async function signOutUser(): Promise<void> {
  await signOut(await firebaseAuth());
}

/** Sign-in methods registered for an email ([] when unknown or when the lookup is refused). */
export async function signInMethods(email: string): Promise<string[]> {
  try {
    return await fetchSignInMethodsForEmail(await firebaseAuth(), email);
  } catch {
    return [];
  }
}
