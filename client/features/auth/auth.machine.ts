// Who is signed in, as a state machine: loading (Firebase restoring its session), signed
// out, signing in (a Firebase credential step, then POST /api/session, then a token refresh
// when the server changed the role claim), signed in, and error (signed out with the
// message to show in the red box). Every Firebase step is an actor, so tests run the
// machine without Firebase; error codes become the messages of auth-errors.ts here.
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { SessionBody, SessionResponse } from '../../../shared/accounts';
import { errorMessage } from '../../lib/api-client';
import type { AuthUser } from './firebase';
import {
  AUTH_MESSAGES,
  authErrorCode,
  googleErrorMessage,
  guestErrorMessage,
  loginErrorMessage,
  signupErrorMessage,
  type AuthFlow,
} from './auth-errors';

export type RequestedRole = 'staff' | 'manager';

export interface LoginInput {
  email: string;
  password: string;
}

export interface SignupInput {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: RequestedRole;
}

/** A failed Firebase step: the error, plus the email's sign-in methods when the flow looked them up. */
export interface AuthFailure {
  code: string;
  methods?: string[];
}

export type AuthEvent =
  | { type: 'FIREBASE_USER'; user: AuthUser | null }
  /** A returning user's last grant and Firebase's stored user (warm start): render now, confirm after. */
  | { type: 'WARM_START'; user: AuthUser; session: SessionResponse }
  | ({ type: 'LOGIN' } & LoginInput)
  | ({ type: 'SIGNUP' } & SignupInput)
  | { type: 'GOOGLE'; mode: 'login' | 'signup'; role?: RequestedRole }
  | { type: 'GUEST' }
  | { type: 'LOGOUT' }
  | { type: 'REFRESH_SESSION' }
  | { type: 'CLEAR_ERROR' };

export interface AuthContext {
  user: AuthUser | null;
  session: SessionResponse | null;
  error: string | null;
  flow: AuthFlow | null;
  /** What POST /api/session will send for this sign-in. */
  sessionBody: SessionBody;
}

/** The message for a failed step of a flow. */
export function messageForFailure(flow: AuthFlow | null, error: unknown): string {
  const failure = error as AuthFailure | null;
  const code = failure?.code ?? authErrorCode(error);
  const methods = failure?.methods ?? [];
  switch (flow) {
    case 'login':
      return loginErrorMessage(code, methods);
    case 'signup':
      return signupErrorMessage(code, methods);
    case 'google-login':
      return googleErrorMessage(code, 'login');
    case 'google-signup':
      return googleErrorMessage(code, 'signup');
    case 'guest':
      return guestErrorMessage(code);
    case 'logout':
      return AUTH_MESSAGES.logoutDefault;
    default:
      return errorMessage(error, AUTH_MESSAGES.loginDefault);
  }
}

const signInEvents = {
  LOGIN: { target: '#auth.signingIn.email', actions: ['beginLogin'] },
  SIGNUP: [
    { guard: 'passwordsDiffer', target: '#auth.error', actions: ['rejectPasswords'] },
    { target: '#auth.signingIn.signup', actions: ['beginSignup'] },
  ],
  GOOGLE: { target: '#auth.signingIn.google', actions: ['beginGoogle'] },
  GUEST: { target: '#auth.signingIn.guest', actions: ['beginGuest'] },
} as const;

/**
 * A signed-in user's grant asked for again (POST /api/session with nothing to register): the
 * answer replaces it, with a token refresh when the server changed the role claim. What a
 * failure does is the caller's: a background refresh keeps the grant, a warm start's
 * confirmation ends the session when the server refuses.
 */
function askAgainForGrant<OnError>(onError: OnError) {
  return {
    invoke: {
      src: 'startSession',
      input: () => ({}),
      onDone: [
        { guard: 'mustRefreshToken', target: 'refreshingToken', actions: 'setSession' },
        { target: 'idle', actions: 'setSession' },
      ],
      onError,
    },
  } as const;
}

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    // The real implementations live in auth-actors.ts; these stand-ins never settle.
    authState: fromCallback<AuthEvent>(() => () => undefined),
    emailSignIn: fromPromise<AuthUser, LoginInput>(() => new Promise(() => undefined)),
    emailSignUp: fromPromise<AuthUser, SignupInput>(() => new Promise(() => undefined)),
    googleSignIn: fromPromise<AuthUser, void>(() => new Promise(() => undefined)),
    guestSignIn: fromPromise<AuthUser, void>(() => new Promise(() => undefined)),
    startSession: fromPromise<SessionResponse, SessionBody>(() => new Promise(() => undefined)),
    refreshToken: fromPromise<void, void>(() => Promise.resolve()),
    signOut: fromPromise<void, void>(() => Promise.resolve()),
  },
  guards: {
    passwordsDiffer: ({ event }) => event.type === 'SIGNUP' && event.password !== event.confirmPassword,
    hasUser: ({ event }) => event.type === 'FIREBASE_USER' && event.user !== null,
    noUser: ({ event }) => event.type === 'FIREBASE_USER' && event.user === null,
    otherUser: ({ context, event }) =>
      event.type === 'FIREBASE_USER' && event.user !== null && event.user.uid !== context.user?.uid,
    mustRefreshToken: ({ event }) => (event as unknown as { output?: SessionResponse }).output?.refreshToken === true,
    /** The server answered no (account disabled, guests off), as opposed to no answer at all. */
    sessionRefused: ({ event }) => {
      const status = (event as unknown as { error?: { status?: unknown } }).error?.status;
      return status === 401 || status === 403;
    },
  },
  actions: {
    beginLogin: assign({ error: null, flow: 'login' as AuthFlow, sessionBody: {} }),
    beginSignup: assign(({ event }) => ({
      error: null,
      flow: 'signup' as AuthFlow,
      sessionBody: event.type === 'SIGNUP' ? { requestedRole: event.role, name: event.name.trim() } : {},
    })),
    beginGoogle: assign(({ event }) => ({
      error: null,
      flow: (event.type === 'GOOGLE' && event.mode === 'signup' ? 'google-signup' : 'google-login') as AuthFlow,
      sessionBody:
        event.type === 'GOOGLE' && event.mode === 'signup' && event.role ? { requestedRole: event.role } : {},
    })),
    beginGuest: assign({ error: null, flow: 'guest' as AuthFlow, sessionBody: {} }),
    warmStart: assign(({ event }) =>
      event.type === 'WARM_START'
        ? { user: event.user, session: event.session, flow: 'session' as AuthFlow, sessionBody: {}, error: null }
        : {},
    ),
    beginRestore: assign(({ event }) => ({
      user: event.type === 'FIREBASE_USER' ? event.user : null,
      flow: 'session' as AuthFlow,
      sessionBody: {},
      error: null,
    })),
    rejectPasswords: assign({ error: AUTH_MESSAGES.passwordsDiffer, flow: 'signup' as AuthFlow }),
    setUser: assign({ user: ({ event }) => (event as unknown as { output: AuthUser }).output }),
    setSession: assign({ session: ({ event }) => (event as unknown as { output: SessionResponse }).output }),
    setFailure: assign({
      error: ({ context, event }) => messageForFailure(context.flow, (event as unknown as { error: unknown }).error),
    }),
    setSessionFailure: assign({
      error: ({ event }) =>
        errorMessage((event as unknown as { error: unknown }).error, 'Failed to start your session'),
    }),
    setLogoutFailure: assign({ error: AUTH_MESSAGES.logoutDefault }),
    clearError: assign({ error: null }),
    forgetUser: assign({ user: null, session: null }),
    // Side effects the app listens for (hint for the landing page, toasts); no-ops here.
    signedInEffects: () => undefined,
    signedOutEffects: () => undefined,
    logoutFailedEffects: () => undefined,
  },
}).createMachine({
  id: 'auth',
  context: { user: null, session: null, error: null, flow: null, sessionBody: {} },
  invoke: { src: 'authState' },
  initial: 'loading',
  states: {
    loading: {
      on: {
        FIREBASE_USER: [
          { guard: 'hasUser', target: 'signingIn.session', actions: 'beginRestore' },
          { target: 'signedOut' },
        ],
        WARM_START: { target: 'signedIn.warm', actions: 'warmStart' },
      },
    },
    signedOut: {
      entry: ['forgetUser', 'signedOutEffects'],
      on: {
        ...signInEvents,
        FIREBASE_USER: { guard: 'hasUser', target: 'signingIn.session', actions: 'beginRestore' },
      },
    },
    error: {
      entry: ['forgetUser', 'signedOutEffects'],
      on: {
        ...signInEvents,
        CLEAR_ERROR: { target: 'signedOut', actions: 'clearError' },
      },
    },
    signingIn: {
      initial: 'email',
      states: {
        email: {
          invoke: {
            src: 'emailSignIn',
            input: ({ event }) =>
              event.type === 'LOGIN' ? { email: event.email, password: event.password } : { email: '', password: '' },
            onDone: { target: 'session', actions: 'setUser' },
            onError: { target: '#auth.error', actions: 'setFailure' },
          },
        },
        signup: {
          invoke: {
            src: 'emailSignUp',
            input: ({ event }) =>
              event.type === 'SIGNUP'
                ? {
                    name: event.name,
                    email: event.email,
                    password: event.password,
                    confirmPassword: event.confirmPassword,
                    role: event.role,
                  }
                : { name: '', email: '', password: '', confirmPassword: '', role: 'staff' as const },
            onDone: { target: 'session', actions: 'setUser' },
            onError: { target: '#auth.error', actions: 'setFailure' },
          },
        },
        google: {
          invoke: {
            src: 'googleSignIn',
            onDone: { target: 'session', actions: 'setUser' },
            onError: { target: '#auth.error', actions: 'setFailure' },
          },
        },
        guest: {
          invoke: {
            src: 'guestSignIn',
            onDone: { target: 'session', actions: 'setUser' },
            onError: { target: '#auth.error', actions: 'setFailure' },
          },
        },
        session: {
          invoke: {
            src: 'startSession',
            input: ({ context }) => context.sessionBody,
            onDone: [
              { guard: 'mustRefreshToken', target: 'refreshingToken', actions: 'setSession' },
              { target: '#auth.signedIn', actions: 'setSession' },
            ],
            onError: { target: 'leaving', actions: 'setSessionFailure' },
          },
          on: { FIREBASE_USER: { guard: 'noUser', target: '#auth.signedOut' } },
        },
        refreshingToken: {
          invoke: {
            src: 'refreshToken',
            onDone: '#auth.signedIn',
            // The server decides by its own records; a stale claim only delays what the token says.
            onError: '#auth.signedIn',
          },
        },
        // The server refused the session (account disabled, guests turned off): sign out of Firebase too.
        leaving: {
          invoke: {
            src: 'signOut',
            onDone: '#auth.error',
            onError: '#auth.error',
          },
        },
      },
    },
    signedIn: {
      entry: 'signedInEffects',
      initial: 'idle',
      on: {
        LOGOUT: 'signingOut',
        FIREBASE_USER: [
          { guard: 'noUser', target: 'signedOut' },
          { guard: 'otherUser', target: 'signingIn.session', actions: 'beginRestore' },
        ],
      },
      states: {
        idle: {
          on: { REFRESH_SESSION: 'refreshing' },
        },
        // Rendering from the last grant; Firebase has not spoken yet. The same user confirms
        // it and the grant is asked for again (the server may have changed it meanwhile).
        warm: {
          on: {
            FIREBASE_USER: [
              { guard: 'noUser', target: '#auth.signedOut' },
              { guard: 'otherUser', target: '#auth.signingIn.session', actions: 'beginRestore' },
              { target: 'confirming' },
            ],
          },
        },
        confirming: askAgainForGrant([
          { guard: 'sessionRefused', target: '#auth.signingIn.leaving', actions: 'setSessionFailure' },
          // No answer (offline, restarting): keep the grant; the session watch asks again.
          { target: 'idle' },
        ] as const),
        refreshing: askAgainForGrant('idle'),
        refreshingToken: {
          invoke: { src: 'refreshToken', onDone: 'idle', onError: 'idle' },
        },
      },
    },
    signingOut: {
      invoke: {
        src: 'signOut',
        onDone: 'signedOut',
        onError: { target: 'signedIn', actions: ['setLogoutFailure', 'logoutFailedEffects'] },
      },
    },
  },
});
