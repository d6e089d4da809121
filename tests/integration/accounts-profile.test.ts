// The profile API with real emulator accounts: name and email persisted (email through
// firebase-admin, unique), alert preferences per user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { signIn, signUp, uniqueEmail } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, type SignedIn } from './accounts-fixtures.js';

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

  it('persists a new name and email, in Firebase too, and the new email signs in', async () => {
    const email = uniqueEmail('renamed');
    const res = await server.request('PUT', '/api/profile', { token: staff.idToken, body: { name: ' Samira Staff ', email } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Samira Staff', email });
    const record = await server.verifier.auth.getUser(staff.uid);
    expect(record).toMatchObject({ displayName: 'Samira Staff', email });
    const again = await signIn(email, staff.password!);
    expect(again.uid).toBe(staff.uid);
    // Activity written after this carries the new name.
    const me = await server.request('GET', '/api/me', { token: again.idToken });
    expect(me.body.name).toBe('Samira Staff');
    staff.idToken = again.idToken;
  });

  it("refuses an email another account uses with 409 'Email already in use', changing nothing", async () => {
    const before = await server.store.store.readStream(`user-${staff.uid}`);
    const res = await server.request('PUT', '/api/profile', { token: staff.idToken, body: { email: manager.email, name: 'Changed Too' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Email already in use' });
    expect(await server.store.store.readStream(`user-${staff.uid}`)).toHaveLength(before.length);
    expect((await server.verifier.auth.getUser(staff.uid)).displayName).toBe('Samira Staff');
  });

  it('keeps alert preferences per user', async () => {
    const on = await server.request('PUT', '/api/profile/preferences', { token: staff.idToken, body: { browserNotifications: true } });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ browserNotifications: true });
    expect((await server.request('GET', '/api/profile', { token: staff.idToken })).body.preferences).toEqual({ browserNotifications: true });
    expect((await server.request('GET', '/api/profile', { token: manager.idToken })).body.preferences).toEqual({ browserNotifications: false });
    // A guest's wall display may want notifications too.
    const guestOn = await server.request('PUT', '/api/profile/preferences', { token: guest.idToken, body: { browserNotifications: true } });
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
