// The auth machine: restoring a session, each sign-in flow through POST /api/session, the
// token refresh when the server changed the role claim, the client-side password check,
// the error messages of each flow, and logout.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ApiError } from '../../client/lib/api-client.js';
import {
  AUTH_MESSAGES,
  googleErrorMessage,
  loginErrorMessage,
  signupErrorMessage,
} from '../../client/features/auth/auth-errors.js';
import {
  startAuthMachine as start,
  testSession as session,
  testUser as user,
} from '../helpers/auth-machine-harness.js';

const signup = {
  name: 'Sam Staff',
  email: 'sam@stockroom.test',
  password: 'secret123',
  confirmPassword: 'secret123',
  role: 'manager' as const,
};

describe('auth machine', () => {
  it('starts loading and settles signed out when Firebase has no user', () => {
    const { actor, firebaseUser, spies } = start({});
    expect(actor.getSnapshot().value).toBe('loading');
    firebaseUser(null);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(spies.signedOut).toHaveBeenCalled();
  });

  it('restores a remembered user through POST /api/session', async () => {
    const { actor, firebaseUser, spies } = start({});
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(spies.startSession).toHaveBeenCalledWith({});
    expect(actor.getSnapshot().context.session?.permissions).toEqual(['inventory:view', 'stock:update']);
    expect(spies.signedIn).toHaveBeenCalledTimes(1);
  });

  it('signs in with email and password, then starts the session', async () => {
    const { actor, firebaseUser, spies } = start({});
    firebaseUser(null);
    actor.send({ type: 'LOGIN', email: 'sam@stockroom.test', password: 'secret123' });
    expect(actor.getSnapshot().matches({ signingIn: 'email' })).toBe(true);
    // Firebase's listener reports the user meanwhile; the flow carries on regardless.
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(spies.signIn).toHaveBeenCalledTimes(1);
    expect(spies.startSession).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.user?.uid).toBe('u1');
  });

  it("stops a sign-up whose passwords differ with 'Passwords do not match', sending nothing", () => {
    const { actor, firebaseUser, spies } = start({});
    firebaseUser(null);
    actor.send({ type: 'SIGNUP', ...signup, confirmPassword: 'secret124' });
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.error).toBe('Passwords do not match');
    expect(spies.signUp).not.toHaveBeenCalled();
  });

  it('passes the role chosen at sign-up and the name to the session', async () => {
    const { actor, firebaseUser, spies } = start({});
    firebaseUser(null);
    actor.send({ type: 'SIGNUP', ...signup, name: '  Sam Staff ' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(spies.startSession).toHaveBeenCalledWith({ requestedRole: 'manager', name: 'Sam Staff' });
  });

  it('refreshes the ID token when the server changed the role claim', async () => {
    const { actor, firebaseUser, spies } = start({ startSession: async () => session({ refreshToken: true }) });
    firebaseUser(null);
    actor.send({ type: 'LOGIN', email: 'a@b.c', password: 'x' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(spies.refreshToken).toHaveBeenCalledTimes(1);
  });

  it('does not refresh the token when the claim is current', async () => {
    const { actor, firebaseUser, spies } = start({});
    firebaseUser(null);
    actor.send({ type: 'LOGIN', email: 'a@b.c', password: 'x' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(spies.refreshToken).not.toHaveBeenCalled();
  });

  it('re-reads the session on REFRESH_SESSION (a role approved meanwhile) and refreshes the token', async () => {
    let calls = 0;
    const { actor, firebaseUser, spies } = start({
      startSession: async () =>
        ++calls === 1 ? session() : session({ refreshToken: true, permissions: ['users:manage'] }),
    });
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    actor.send({ type: 'REFRESH_SESSION' });
    await waitFor(
      actor,
      (s) => s.matches({ signedIn: 'idle' }) && s.context.session?.permissions[0] === 'users:manage',
    );
    expect(spies.refreshToken).toHaveBeenCalledTimes(1);
  });

  it('maps a wrong password on a Google-only email to the Google message', async () => {
    const { actor, firebaseUser } = start({
      signIn: () => Promise.reject({ code: 'wrong-password', methods: ['google.com'] }),
    });
    firebaseUser(null);
    actor.send({ type: 'LOGIN', email: 'g@x.y', password: 'x' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe(
      'This email is associated with a Google account. Please sign in with Google.',
    );
  });

  it('clears the previous error on a new attempt', async () => {
    let fail = true;
    const { actor, firebaseUser } = start({
      signIn: () => (fail ? Promise.reject({ code: 'invalid-credential' }) : Promise.resolve(user)),
    });
    firebaseUser(null);
    actor.send({ type: 'LOGIN', email: 'a@b.c', password: 'x' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe('Invalid email or password');
    fail = false;
    actor.send({ type: 'LOGIN', email: 'a@b.c', password: 'y' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('signedIn'));
  });

  it("reports a closed Google popup as 'Sign in was cancelled'", async () => {
    const { actor, firebaseUser } = start({ google: () => Promise.reject({ code: 'popup-closed-by-user' }) });
    firebaseUser(null);
    actor.send({ type: 'GOOGLE', mode: 'login' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(actor.getSnapshot().context.error).toBe('Sign in was cancelled');
  });

  it('signs out of Firebase again when the server refuses the session', async () => {
    const { actor, firebaseUser, spies } = start({
      startSession: () => Promise.reject(new ApiError('Guest sign-in is turned off', 403)),
    });
    firebaseUser(null);
    actor.send({ type: 'GUEST' });
    await waitFor(actor, (s) => s.matches('error'));
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.error).toBe('Guest sign-in is turned off');
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it("logs out, and keeps the session with 'Failed to logout' when that fails", async () => {
    let fail = true;
    const { actor, firebaseUser, spies } = start({
      signOut: () => (fail ? Promise.reject(new Error('offline')) : Promise.resolve()),
    });
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (s) => s.matches('signedIn') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to logout');
    expect(spies.logoutFailed).toHaveBeenCalledTimes(1);
    fail = false;
    actor.send({ type: 'LOGOUT' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('follows a sign-out made elsewhere (another tab)', async () => {
    const { actor, firebaseUser } = start({});
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches('signedIn'));
    firebaseUser(null);
    expect(actor.getSnapshot().value).toBe('signedOut');
  });
});

describe('auth error catalogue', () => {
  it('maps login codes to their messages', () => {
    expect(loginErrorMessage('invalid-credential')).toBe('Invalid email or password');
    expect(loginErrorMessage('invalid-credential', ['google.com'])).toBe(AUTH_MESSAGES.googleAccountLogin);
    expect(loginErrorMessage('user-not-found')).toBe('No account found with this email');
    expect(loginErrorMessage('wrong-password', ['password'])).toBe('Incorrect password');
    expect(loginErrorMessage('too-many-requests')).toBe('Too many failed login attempts. Please try again later');
    expect(loginErrorMessage('something-else')).toBe('Failed to login');
  });

  it('maps sign-up codes to their messages', () => {
    expect(signupErrorMessage('email-already-in-use', ['google.com'])).toBe(
      'This email is already registered with Google. Please sign in with Google.',
    );
    expect(signupErrorMessage('email-already-in-use', ['password'])).toBe(
      'An account already exists with this email. Please sign in instead.',
    );
    expect(signupErrorMessage('email-already-in-use', ['facebook.com'])).toBe(
      'An account already exists with this email using a different sign-in method.',
    );
    expect(signupErrorMessage('weak-password')).toBe('Password is too weak. Please use a stronger password');
    expect(signupErrorMessage('invalid-email')).toBe('Invalid email address');
    expect(signupErrorMessage('boom')).toBe('Failed to signup');
  });

  it('maps Google codes to their messages', () => {
    expect(googleErrorMessage('popup-closed-by-user', 'login')).toBe('Sign in was cancelled');
    expect(googleErrorMessage('popup-blocked', 'login')).toBe('Pop-up was blocked by the browser');
    expect(googleErrorMessage('account-exists-with-different-credential', 'login')).toBe(
      'An account already exists with this email using a different sign-in method',
    );
    expect(googleErrorMessage('internal-error', 'login')).toBe('Failed to login with Google');
    expect(googleErrorMessage('internal-error', 'signup')).toBe('Failed to sign up with Google');
  });
});
