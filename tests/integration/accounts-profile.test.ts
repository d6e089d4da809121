// The profile API with real emulator accounts: the name persisted at once, a new email only
// through a confirmation link its owner follows (asked for by the person themself, freshly
// signed in, never by an API token), alert preferences per user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { forgeToken, signIn, signUp, uniqueEmail } from '../helpers/emulator-accounts.js';
import { emailChangeLinks, followOobCode, oobCodes, requestPasswordReset } from '../helpers/emulator-oob.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, eventCount, startSession, type SignedIn } from './accounts-fixtures.js';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

describe.each(backends())('profile API on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let guest: SignedIn;
  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ manager, staff, guest } = await cast(server));
  });
  afterAll(() => server?.close());

  it('shows my account and preferences', async () => {
    const res = await server.request('GET', '/api/profile', { token: staff.idToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ id: staff.uid, name: 'Sam Staff', email: staff.email, role: 'staff' }),
      preferences: { browserNotifications: false },
    });
    const guestProfile = await server.request('GET', '/api/profile', { token: guest.idToken });
    expect(guestProfile.body.user).toMatchObject({ role: 'guest', provider: 'anonymous' });
  });

  it('answers 404 before the account is registered', async () => {
    const stranger = await signUp();
    const res = await server.request('GET', '/api/profile', { token: stranger.idToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Account not registered: sign in again' });
  });

  it('changes the name at once; a new email only once its owner follows the link mailed to it', async () => {
    const oldEmail = staff.email!;
    const email = uniqueEmail('renamed');
    const fresh = await signIn(oldEmail, staff.password!); // signed in just now
    const res = await server.request('PUT', '/api/profile', {
      token: fresh.idToken,
      body: { name: ' Samira Staff ', email },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ name: 'Samira Staff', email: oldEmail }),
      preferences: { browserNotifications: false },
      emailVerificationSentTo: email,
    });
    // Firebase has the name, and still the old email: the new one does not sign in yet.
    expect(await server.verifier.auth.getUser(staff.uid)).toMatchObject({
      displayName: 'Samira Staff',
      email: oldEmail,
    });
    await expect(signIn(email, staff.password!)).rejects.toThrow(/EMAIL_NOT_FOUND/);
    const [link, ...more] = await emailChangeLinks(email);
    expect(more).toEqual([]);
    expect(link).toMatchObject({ email: oldEmail, newEmail: email });

    // Its owner follows the link: the new email signs in as the same account, the old one no longer.
    await followOobCode(link!.oobCode);
    const again = await signIn(email, staff.password!);
    expect(again.uid).toBe(staff.uid);
    await expect(signIn(oldEmail, staff.password!)).rejects.toThrow(/EMAIL_NOT_FOUND/);
    // The server records it at the next sign-in, from Firebase's record.
    const session = await startSession(server, again);
    expect(session.session.user).toMatchObject({ id: staff.uid, email, name: 'Samira Staff' });
    expect((await server.request('GET', '/api/profile', { token: again.idToken })).body.user.email).toBe(email);
    // Activity written after this carries the new name.
    const me = await server.request('GET', '/api/me', { token: again.idToken });
    expect(me.body).toMatchObject({ name: 'Samira Staff', email });
    // An older token still naming the previous address changes nothing back.
    await server.request('GET', '/api/profile', { token: fresh.idToken });
    expect((await server.request('GET', '/api/profile', { token: again.idToken })).body.user.email).toBe(email);
    Object.assign(staff, { idToken: again.idToken, refreshToken: again.refreshToken, email });
  });

  it("never lets an API token with View personal profile change its owner's email: no link, no takeover", async () => {
    const created = await server.request('POST', '/api/tokens', {
      token: manager.idToken,
      body: { name: 'Profile reader', expiresAt: inAWeek(), permissions: ['profile:view'] },
    });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    const attacker = uniqueEmail('attacker');
    const linksBefore = (await oobCodes()).length;
    const eventsBefore = await eventCount(server);

    const res = await server.request('PUT', '/api/profile', { token, body: { email: attacker } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'An API token cannot change your email or password' });
    // Nothing changed and nothing was sent: the attacker's address neither signs in nor gets a reset.
    expect((await server.verifier.auth.getUser(manager.uid)).email).toBe(manager.email);
    expect(await oobCodes()).toHaveLength(linksBefore);
    expect(await eventCount(server)).toBe(eventsBefore);
    await expect(signIn(attacker, manager.password!)).rejects.toThrow(/EMAIL_NOT_FOUND/);
    expect(await requestPasswordReset(attacker)).toMatch(/EMAIL_NOT_FOUND/);
    // Together with a name: refused whole, the name unchanged.
    const both = await server.request('PUT', '/api/profile', { token, body: { name: 'Taken Over', email: attacker } });
    expect(both.status).toBe(403);
    expect((await server.request('GET', '/api/profile', { token: manager.idToken })).body.user.name).toBe(
      'Morgan Manager',
    );
  });

  it('asks for a fresh sign-in (401) when the last one is older than five minutes; the name still changes', async () => {
    const now = Math.floor(Date.now() / 1000);
    // A genuine token of this account, as the emulator-mode server accepts them, signed in 10 minutes ago.
    const stale = forgeToken({
      sub: manager.uid,
      user_id: manager.uid,
      email: manager.email,
      auth_time: now - 600,
      iat: now - 60,
    });
    const wanted = uniqueEmail('late');
    const res = await server.request('PUT', '/api/profile', { token: stale, body: { email: wanted } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Sign in again to change your email or password' });
    expect(await emailChangeLinks(wanted)).toEqual([]);
    const renamed = await server.request('PUT', '/api/profile', { token: stale, body: { name: 'Morgan M.' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      user: { name: 'Morgan M.', email: manager.email },
      emailVerificationSentTo: null,
    });
    await server.request('PUT', '/api/profile', { token: manager.idToken, body: { name: 'Morgan Manager' } });
  });

  it("refuses an email another account uses with 409 'Email already in use', changing nothing", async () => {
    const before = await server.store.store.readStream(`user-${staff.uid}`);
    const res = await server.request('PUT', '/api/profile', {
      token: staff.idToken,
      body: { email: manager.email, name: 'Changed Too' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Email already in use' });
    expect(await server.store.store.readStream(`user-${staff.uid}`)).toHaveLength(before.length);
    expect((await server.verifier.auth.getUser(staff.uid)).displayName).toBe('Samira Staff');
  });

  it('keeps alert preferences per user', async () => {
    const on = await server.request('PUT', '/api/profile/preferences', {
      token: staff.idToken,
      body: { browserNotifications: true },
    });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ browserNotifications: true });
    expect((await server.request('GET', '/api/profile', { token: staff.idToken })).body.preferences).toEqual({
      browserNotifications: true,
    });
    expect((await server.request('GET', '/api/profile', { token: manager.idToken })).body.preferences).toEqual({
      browserNotifications: false,
    });
    // A guest's wall display may want notifications too.
    const guestOn = await server.request('PUT', '/api/profile/preferences', {
      token: guest.idToken,
      body: { browserNotifications: true },
    });
    expect(guestOn.status).toBe(200);
  });

  it('does not let a guest edit a profile', async () => {
    const res = await server.request('PUT', '/api/profile', { token: guest.idToken, body: { name: 'Visitor' } });
    expect(res.status).toBe(403);
  });

  it('leaves projections identical to a rebuild from the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
