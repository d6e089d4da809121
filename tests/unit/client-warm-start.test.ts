// Warm start (the signed-in first paint): a returning user renders from this
// device's last grant and Firebase's stored token, then Firebase confirms, replaces or
// ends it; and the stored Firebase record is read only when its token is still good.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import type { SessionBody, SessionResponse } from '../../shared/accounts.js';
import { ApiError } from '../../client/lib/api-client.js';
import { warmTokenFrom } from '../../client/app/warm-start.js';
import { startAuthMachine, testSession, testUser as user } from '../helpers/auth-machine-harness.js';

function grant(role = 'staff'): SessionResponse {
  return testSession({ permissions: ['inventory:view'], user: { ...testSession().user, role } });
}

const start = (startSession: (body: SessionBody) => Promise<SessionResponse>) => startAuthMachine({ startSession });

describe('warm start in the auth machine', () => {
  it('is signed in from the stored grant before Firebase speaks, asking the server nothing yet', () => {
    const { actor, spies } = start(async () => grant('manager'));
    actor.send({ type: 'WARM_START', user, session: grant() });
    expect(actor.getSnapshot().matches({ signedIn: 'warm' })).toBe(true);
    expect(actor.getSnapshot().context.session?.user.role).toBe('staff');
    expect(spies.signedIn).toHaveBeenCalledTimes(1);
    expect(spies.startSession).not.toHaveBeenCalled();
  });

  it('asks for the grant again once Firebase confirms the same user, and takes the new one', async () => {
    const { actor, spies, firebaseUser } = start(async () => grant('manager'));
    actor.send({ type: 'WARM_START', user, session: grant() });
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    expect(spies.startSession).toHaveBeenCalledWith({});
    expect(actor.getSnapshot().context.session?.user.role).toBe('manager');
    expect(spies.signedIn).toHaveBeenCalledTimes(1);
  });

  it('signs out when Firebase has no user after all (signed out in another tab meanwhile)', () => {
    const { actor, firebaseUser } = start(async () => grant());
    actor.send({ type: 'WARM_START', user, session: grant() });
    firebaseUser(null);
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context.session).toBeNull();
  });

  it('starts a fresh session when Firebase restores someone else', async () => {
    const other = { ...user, uid: 'u2' };
    const { actor, firebaseUser } = start(async () => ({
      ...grant('manager'),
      user: { ...grant('manager').user, id: 'u2' },
    }));
    actor.send({ type: 'WARM_START', user, session: grant() });
    firebaseUser(other);
    expect(actor.getSnapshot().matches({ signingIn: 'session' })).toBe(true);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context.user?.uid).toBe('u2');
  });

  it("ends the session with the server's message when it refuses the account now", async () => {
    const { actor, spies, firebaseUser } = start(() =>
      Promise.reject(new ApiError('Your account has been disabled', 403)),
    );
    actor.send({ type: 'WARM_START', user, session: grant() });
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches('error'));
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.error).toBe('Your account has been disabled');
  });

  it('keeps the stored grant when the server does not answer (offline)', async () => {
    const { actor, firebaseUser } = start(() => Promise.reject(new ApiError('All retry attempts failed', 0)));
    actor.send({ type: 'WARM_START', user, session: grant() });
    firebaseUser(user);
    await waitFor(actor, (s) => s.matches({ signedIn: 'idle' }));
    expect(actor.getSnapshot().context.session?.user.role).toBe('staff');
  });

  it('is ignored once Firebase has already spoken', async () => {
    const { actor, firebaseUser } = start(async () => grant('manager'));
    firebaseUser(null);
    actor.send({ type: 'WARM_START', user, session: grant() });
    expect(actor.getSnapshot().value).toBe('signedOut');
  });
});

describe("reading Firebase's stored user", () => {
  const now = Date.UTC(2026, 10, 24, 12);
  const stored = (expiresInMs: number) => ({
    uid: 'u1',
    email: 'sam@stockroom.test',
    displayName: 'Sam',
    isAnonymous: false,
    providerData: [{ providerId: 'password' }],
    stsTokenManager: { accessToken: 'header.payload.sig', refreshToken: 'r', expirationTime: now + expiresInMs },
  });

  it('gives the user and the token while the token has minutes to live', () => {
    expect(warmTokenFrom(stored(30 * 60_000), now)).toEqual({
      user,
      token: 'header.payload.sig',
      expiresAt: now + 30 * 60_000,
    });
  });

  it('gives nothing for a token about to expire, or a record of another shape', () => {
    expect(warmTokenFrom(stored(60_000), now)).toBeNull();
    expect(warmTokenFrom({ uid: 'u1' }, now)).toBeNull();
    expect(warmTokenFrom(null, now)).toBeNull();
  });

  it('reads an anonymous guest as one', () => {
    const guest = { ...stored(30 * 60_000), email: null, displayName: null, isAnonymous: true, providerData: [] };
    expect(warmTokenFrom(guest, now)?.user).toEqual({
      uid: 'u1',
      email: null,
      displayName: null,
      isAnonymous: true,
      providerId: 'anonymous',
    });
  });
});
