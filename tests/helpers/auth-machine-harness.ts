// The auth machine with stand-ins for its Firebase and session actors (vi.fn spies), and a
// way to play Firebase's onAuthStateChanged: shared by the auth machine's unit tests.
import { vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { SessionBody, SessionResponse } from '../../shared/accounts.js';
import { authMachine, type AuthEvent } from '../../client/features/auth/auth.machine.js';
import type { AuthUser } from '../../client/features/auth/firebase.js';

export const testUser: AuthUser = {
  uid: 'u1',
  email: 'sam@stockroom.test',
  displayName: 'Sam',
  isAnonymous: false,
  providerId: 'password',
};

export function testSession(overrides: Partial<SessionResponse> = {}): SessionResponse {
  return {
    user: {
      id: 'u1',
      name: 'Sam',
      email: 'sam@stockroom.test',
      role: 'staff',
      status: 'active',
      provider: 'password',
      createdAt: '',
      avatar: null,
      managerRequest: null,
    },
    permissions: ['inventory:view', 'stock:update'],
    refreshToken: false,
    ...overrides,
  };
}

export function startAuthMachine(options: {
  signIn?: () => Promise<AuthUser>;
  signUp?: () => Promise<AuthUser>;
  google?: () => Promise<AuthUser>;
  guest?: () => Promise<AuthUser>;
  startSession?: (body: SessionBody) => Promise<SessionResponse>;
  signOut?: () => Promise<void>;
  refreshToken?: () => Promise<void>;
}) {
  let emit: (event: AuthEvent) => void = () => undefined;
  const spies = {
    signIn: vi.fn(options.signIn ?? (async () => testUser)),
    signUp: vi.fn(options.signUp ?? (async () => testUser)),
    google: vi.fn(options.google ?? (async () => testUser)),
    guest: vi.fn(options.guest ?? (async () => ({ ...testUser, isAnonymous: true }))),
    startSession: vi.fn(options.startSession ?? (async () => testSession())),
    signOut: vi.fn(options.signOut ?? (async () => undefined)),
    refreshToken: vi.fn(options.refreshToken ?? (async () => undefined)),
    signedIn: vi.fn(),
    signedOut: vi.fn(),
    logoutFailed: vi.fn(),
  };
  const actor = createActor(
    authMachine.provide({
      actors: {
        authState: fromCallback<AuthEvent>(({ sendBack }) => {
          emit = sendBack;
          return () => undefined;
        }),
        emailSignIn: fromPromise(() => spies.signIn()),
        emailSignUp: fromPromise(() => spies.signUp()),
        googleSignIn: fromPromise(() => spies.google()),
        guestSignIn: fromPromise(() => spies.guest()),
        startSession: fromPromise(({ input }: { input: SessionBody }) => spies.startSession(input)),
        refreshToken: fromPromise(() => spies.refreshToken()),
        signOut: fromPromise(() => spies.signOut()),
      },
      actions: {
        signedInEffects: () => spies.signedIn(),
        signedOutEffects: () => spies.signedOut(),
        logoutFailedEffects: () => spies.logoutFailed(),
      },
    }),
  );
  actor.start();
  return { actor, spies, firebaseUser: (u: AuthUser | null) => emit({ type: 'FIREBASE_USER', user: u }) };
}
