// POST /api/session with real emulator accounts: who becomes manager, staff or guest, the
// role claim kept in step, manager requests, and two first sign-ups racing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { refreshIdToken, signUp, type TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { newGuest, newMember } from './accounts-fixtures.js';

function claimsOf(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8'));
}

describe.each(backends())('POST /api/session on $name', (backend) => {
  let server: TestServer;
  let founder: TestAccount;
  let founderSession: { status: number; body: any };
  beforeAll(async () => {
    server = await startTestServer(backend);
    founder = await signUp({ displayName: 'Frances First' });
    // Asking for staff does not matter: the first account of a store runs it.
    founderSession = await server.request('POST', '/api/session', {
      token: founder.idToken,
      body: { requestedRole: 'staff' },
    });
  });
  afterAll(() => server?.close());

  it('makes the first sign-up the manager and sets the role claim', async () => {
    expect(founderSession.status).toBe(200);
    expect(founderSession.body.user).toMatchObject({
      id: founder.uid,
      name: 'Frances First',
      role: 'manager',
      status: 'active',
      managerRequest: null,
    });
    expect(founderSession.body.permissions).toContain('users:manage');
    expect(founderSession.body.refreshToken).toBe(true);

    const fresh = await refreshIdToken(founder);
    expect(claimsOf(fresh).role).toBe('manager');
    const again = await server.request('POST', '/api/session', { token: fresh, body: {} });
    expect(again.body.refreshToken).toBe(false);
    expect(again.body.user.role).toBe('manager');
  });

  it('gives a later sign-up asking for manager staff plus a pending request that a manager approves', async () => {
    const asker = await newMember(server, { requestedRole: 'manager', name: 'Ashley Asker' });
    expect(asker.session.user).toMatchObject({ role: 'staff', managerRequest: 'pending' });
    expect(asker.session.permissions).not.toContain('users:manage');
    expect(claimsOf(asker.idToken).role).toBe('staff');
    const listed = await server.request('GET', '/api/users', { token: founder.idToken });
    expect(listed.body.find((u: any) => u.id === asker.uid)).toMatchObject({ managerRequest: 'pending' });

    const approved = await server.request('POST', `/api/users/${asker.uid}/manager-request/approve`, {
      token: founder.idToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ role: 'manager', managerRequest: null });

    // The server acts on it at once, even with the old token...
    const me = await server.request('GET', '/api/me', { token: asker.idToken });
    expect(me.body.role).toBe('manager');
    // ...and the claim the client reads is updated: visible after a token refresh.
    const fresh = await refreshIdToken(asker);
    expect(claimsOf(fresh).role).toBe('manager');
    const events = await server.store.store.readStream(`user-${asker.uid}`);
    expect(events.map((e) => e.type)).toEqual([
      'UserRegistered',
      'ManagerAccessRequested',
      'ManagerAccessApproved',
      'UserRoleChanged',
    ]);
    expect(events[2]!.metadata.actor).toEqual({ uid: founder.uid, name: 'Frances First' });
  });

  it('gives a later sign-up asking for staff no request', async () => {
    const member = await newMember(server, { requestedRole: 'staff' });
    expect(member.session.user).toMatchObject({ role: 'staff', managerRequest: null });
    expect(member.session.permissions).toEqual([
      'inventory:view',
      'inventory:create',
      'stock:update',
      'reports:view',
      'profile:view',
    ]);
  });

  it('rejecting clears a request without a role change, and a second answer is refused', async () => {
    const asker = await newMember(server, { requestedRole: 'manager' });
    const rejected = await server.request('POST', `/api/users/${asker.uid}/manager-request/reject`, {
      token: founder.idToken,
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ role: 'staff', managerRequest: null });
    const again = await server.request('POST', `/api/users/${asker.uid}/manager-request/approve`, {
      token: founder.idToken,
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'No pending manager request' });
  });

  it('makes an anonymous account a guest with read-only permissions', async () => {
    const guest = await newGuest(server);
    expect(guest.session.user).toMatchObject({ role: 'guest', provider: 'anonymous', name: 'Guest', email: null });
    expect(guest.session.permissions).toEqual(['inventory:view', 'reports:view']);
  });

  it('accepts a session call without a body and registers only once', async () => {
    const account = await signUp();
    const first = await server.request('POST', '/api/session', { token: account.idToken });
    const second = await server.request('POST', '/api/session', { token: account.idToken });
    expect(first.status).toBe(200);
    expect(second.body.user).toEqual(first.body.user);
    const events = await server.store.store.readStream(`user-${account.uid}`);
    expect(events.map((e) => e.type)).toEqual(['UserRegistered']);
  });

  it('registers one account once when the client calls twice at the same moment', async () => {
    const account = await signUp();
    const both = await Promise.all(
      [1, 2].map(() => server.request('POST', '/api/session', { token: account.idToken, body: {} })),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await server.store.store.readStream(`user-${account.uid}`)).length).toBe(1);
  });

  it('keeps the accounts projections identical to a rebuild from events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});

describe.each(backends())('two first sign-ups at once on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());

  it('makes exactly one of them manager', async () => {
    const accounts = await Promise.all([1, 2, 3, 4].map(() => signUp()));
    const answers = await Promise.all(
      accounts.map((a) =>
        server.request('POST', '/api/session', { token: a.idToken, body: { requestedRole: 'manager' } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const roles = answers.map((r) => r.body.user.role).sort();
    expect(roles).toEqual(['manager', 'staff', 'staff', 'staff']);
    // The others asked for manager too: they wait for the new manager's approval.
    expect(answers.filter((r) => r.body.user.managerRequest === 'pending')).toHaveLength(3);
  });
});
