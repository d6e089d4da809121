// The Users page API with real emulator accounts: list and search, real account creation,
// role changes, disable (existing tokens refused at once) and enable, and the last manager.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { ALL_PERMISSIONS } from '../../shared/permissions.js';
import { backends } from '../helpers/backends.js';
import { refreshIdToken, signIn, uniqueEmail } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, newMember, startSession, type SignedIn } from './accounts-fixtures.js';

describe.each(backends())('users API on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let guest: SignedIn;
  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ manager, staff, guest } = await cast(server));
  });
  afterAll(() => server?.close());

  it('lists accounts for managers and searches name, email and role', async () => {
    const all = await server.request('GET', '/api/users', { token: manager.idToken });
    expect(all.status).toBe(200);
    expect(all.body.map((u: any) => u.id)).toEqual(expect.arrayContaining([manager.uid, staff.uid, guest.uid]));

    const byName = await server.request('GET', '/api/users?q=sam', { token: manager.idToken });
    expect(byName.body.map((u: any) => u.id)).toEqual([staff.uid]);
    const byEmail = await server.request('GET', `/api/users?q=${encodeURIComponent(manager.email!.slice(0, 12))}`, {
      token: manager.idToken,
    });
    expect(byEmail.body.map((u: any) => u.id)).toEqual([manager.uid]);
    const byRoleName = await server.request('GET', '/api/users?q=store%20manager', { token: manager.idToken });
    expect(byRoleName.body.map((u: any) => u.id)).toEqual([manager.uid]);
    const byRoleId = await server.request('GET', '/api/users?q=guest', { token: manager.idToken });
    expect(byRoleId.body.map((u: any) => u.id)).toEqual([guest.uid]);
    // LIKE wildcards are matched literally.
    const wildcard = await server.request('GET', '/api/users?q=%25', { token: manager.idToken });
    expect(wildcard.body).toEqual([]);
  });

  it('refuses the list to staff and guests', async () => {
    for (const who of [staff, guest]) {
      const res = await server.request('GET', '/api/users', { token: who.idToken });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "You don't have permission to view users" });
    }
  });

  it('creates a real account that can sign in with its role', async () => {
    const email = uniqueEmail('added');
    const res = await server.request('POST', '/api/users', {
      token: manager.idToken,
      body: { name: 'Added Person', email, password: 'secret123', role: 'staff' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Added Person',
      email,
      role: 'staff',
      status: 'active',
      provider: 'password',
    });

    const account = await signIn(email, 'secret123');
    expect(account.uid).toBe(res.body.id);
    const session = await startSession(server, account);
    // Registered already, with the claim set: nothing to refresh, no second registration.
    expect(session.session.refreshToken).toBe(false);
    expect(session.session.user).toMatchObject({ id: account.uid, role: 'staff' });

    const taken = await server.request('POST', '/api/users', {
      token: manager.idToken,
      body: { name: 'Again', email, password: 'secret123', role: 'staff' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'Email already in use' });
  });

  it('refuses an unknown or guest role before creating any account', async () => {
    const email = uniqueEmail('norole');
    for (const role of ['role-does-not-exist', 'guest']) {
      const res = await server.request('POST', '/api/users', {
        token: manager.idToken,
        body: { name: 'No Role', email, password: 'secret123', role },
      });
      expect(res.status).toBe(400);
    }
    await expect(signIn(email, 'secret123')).rejects.toThrow(/EMAIL_NOT_FOUND|INVALID/);
  });

  it('changes a role: the server acts on it at the next request and the claim follows', async () => {
    const member = await newMember(server);
    const before = await server.request('POST', '/api/inventory', { token: member.idToken, body: {} });
    expect(before.status).not.toBe(403);

    const res = await server.request('PUT', `/api/users/${member.uid}/role`, {
      token: manager.idToken,
      body: { role: 'guest' },
    });
    expect(res.status).toBe(400);
    const promoted = await server.request('PUT', `/api/users/${member.uid}/role`, {
      token: manager.idToken,
      body: { role: 'manager' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('manager');
    const me = await server.request('GET', '/api/me', { token: member.idToken });
    expect(me.body.role).toBe('manager');
    const fresh = await refreshIdToken(member);
    expect(JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString()).role).toBe('manager');

    // Back to staff: the (still valid) token no longer manages users.
    await server.request('PUT', `/api/users/${member.uid}/role`, { token: manager.idToken, body: { role: 'staff' } });
    const denied = await server.request('GET', '/api/users', { token: member.idToken });
    expect(denied.status).toBe(403);
  });

  it('refuses a disabled user’s existing token at once, and lets it back in when enabled', async () => {
    const member = await newMember(server);
    expect((await server.request('GET', '/api/me', { token: member.idToken })).status).toBe(200);

    const disabled = await server.request('POST', `/api/users/${member.uid}/disable`, { token: manager.idToken });
    expect(disabled.status).toBe(200);
    expect(disabled.body.status).toBe('disabled');
    // The token is still unexpired, yet every route refuses it. (With the emulator,
    // firebase-admin also sees the revocation and answers 401 first.)
    for (const [method, path] of [
      ['GET', '/api/me'],
      ['GET', '/api/settings'],
      ['POST', '/api/session'],
    ] as const) {
      const res = await server.request(method, path, {
        token: member.idToken,
        body: method === 'POST' ? {} : undefined,
      });
      expect([401, 403], path).toContain(res.status);
    }
    // Firebase stops it too: no sign-in.
    await expect(signIn(member.email!, member.password!)).rejects.toThrow(/USER_DISABLED/);

    // The server's own record decides, whatever Firebase says: re-enabled behind its back
    // with a brand-new token, the account is still refused.
    await server.verifier.auth.updateUser(member.uid, { disabled: false });
    const sneaky = await signIn(member.email!, member.password!);
    const refused = await server.request('GET', '/api/me', { token: sneaky.idToken });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'Account disabled' });
    await server.verifier.auth.updateUser(member.uid, { disabled: true });

    const enabled = await server.request('POST', `/api/users/${member.uid}/enable`, {
      token: manager.idToken,
      body: {},
    });
    expect(enabled.body.status).toBe('active');
    const again = await signIn(member.email!, member.password!);
    expect((await server.request('GET', '/api/me', { token: again.idToken })).status).toBe(200);
  });

  it('keeps the last active manager: no demotion, no disabling; nobody changes their own role or disables themself', async () => {
    const users = (await server.request('GET', '/api/users', { token: manager.idToken })).body as any[];
    expect(users.filter((u) => u.role === 'manager' && u.status === 'active').map((u) => u.id)).toEqual([manager.uid]);

    const demote = await server.request('PUT', `/api/users/${manager.uid}/role`, {
      token: manager.idToken,
      body: { role: 'staff' },
    });
    expect(demote.status).toBe(403);
    expect(demote.body).toEqual({ error: 'You cannot change your own role' });
    const self = await server.request('POST', `/api/users/${manager.uid}/disable`, { token: manager.idToken });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ error: 'You cannot disable your own account' });

    // Someone else holding every permission (a custom role) still cannot take the last manager away.
    const coOwnerRole = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { name: 'Co-owner', description: 'Everything a manager has', permissions: ALL_PERMISSIONS },
    });
    expect(coOwnerRole.status).toBe(201);
    const coOwner = await newMember(server);
    expect(
      (
        await server.request('PUT', `/api/users/${coOwner.uid}/role`, {
          token: manager.idToken,
          body: { role: coOwnerRole.body.id },
        })
      ).status,
    ).toBe(200);
    const demoteLast = await server.request('PUT', `/api/users/${manager.uid}/role`, {
      token: coOwner.idToken,
      body: { role: 'staff' },
    });
    expect(demoteLast.status).toBe(409);
    expect(demoteLast.body).toEqual({ error: 'The last active manager cannot be demoted' });
    const disableLast = await server.request('POST', `/api/users/${manager.uid}/disable`, { token: coOwner.idToken });
    expect(disableLast.status).toBe(409);
    expect(disableLast.body).toEqual({ error: 'The last active manager cannot be disabled' });

    // With a second manager, the first may be demoted by the second, and then the second is the last one.
    const second = await newMember(server);
    await server.request('PUT', `/api/users/${second.uid}/role`, { token: manager.idToken, body: { role: 'manager' } });
    const stepDown = await server.request('PUT', `/api/users/${manager.uid}/role`, {
      token: second.idToken,
      body: { role: 'staff' },
    });
    expect(stepDown.status).toBe(200);
    const byCoOwner = await server.request('PUT', `/api/users/${second.uid}/role`, {
      token: coOwner.idToken,
      body: { role: 'staff' },
    });
    expect(byCoOwner.status).toBe(409);
    // Restore the original manager for the tests after this one.
    expect(
      (
        await server.request('PUT', `/api/users/${manager.uid}/role`, {
          token: second.idToken,
          body: { role: 'manager' },
        })
      ).status,
    ).toBe(200);
    await server.request('PUT', `/api/users/${coOwner.uid}/role`, { token: manager.idToken, body: { role: 'staff' } });
    await server.request('DELETE', `/api/roles/${coOwnerRole.body.id}`, { token: manager.idToken });
  });

  it('answers 404 for an unknown account', async () => {
    for (const [method, path, body] of [
      ['PUT', '/api/users/nobody-here/role', { role: 'staff' }],
      ['POST', '/api/users/nobody-here/disable', undefined],
      ['POST', '/api/users/nobody-here/enable', undefined],
      ['POST', '/api/users/nobody-here/manager-request/approve', undefined],
      ['POST', '/api/users/nobody-here/manager-request/reject', undefined],
    ] as const) {
      const res = await server.request(method, path, { token: manager.idToken, body });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'User not found' });
    }
  });

  it('refuses a role for a guest account', async () => {
    const res = await server.request('PUT', `/api/users/${guest.uid}/role`, {
      token: manager.idToken,
      body: { role: 'staff' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Guest accounts cannot be given a role' });
  });

  it('leaves projections identical to a rebuild from the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});

describe.each(backends())('two managers demoting each other at once on $name', (backend) => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('leaves exactly one manager', async () => {
    server = await startTestServer(backend);
    const founder = await newMember(server);
    const a = await newMember(server);
    const b = await newMember(server);
    for (const m of [a, b])
      await server.request('PUT', `/api/users/${m.uid}/role`, { token: founder.idToken, body: { role: 'manager' } });
    expect(
      (await server.request('PUT', `/api/users/${founder.uid}/role`, { token: a.idToken, body: { role: 'staff' } }))
        .status,
    ).toBe(200);

    const [ab, ba] = await Promise.all([
      server.request('PUT', `/api/users/${b.uid}/role`, { token: a.idToken, body: { role: 'staff' } }),
      server.request('PUT', `/api/users/${a.uid}/role`, { token: b.idToken, body: { role: 'staff' } }),
    ]);
    // One wins; the other is refused: 409 if it was already past the permission check,
    // 403 if it arrived after its sender stopped being a manager.
    const statuses = [ab.status, ba.status];
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect([403, 409]).toContain(statuses.find((status) => status !== 200));
    const winner = ab.status === 200 ? a : b;
    const users = (await server.request('GET', '/api/users', { token: winner.idToken })).body as any[];
    expect(users.filter((u) => u.role === 'manager').map((u) => u.id)).toEqual([winner.uid]);
  });
});
