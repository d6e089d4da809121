// Manage users is not a way to become manager: a custom role with only View users
// and Manage users cannot make itself or anyone else manager, create a manager, or widen a
// role; an API token, whatever its permissions, never changes roles, edits roles or creates
// accounts. A manager still does all of it. Real emulator accounts, both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { ALL_PERMISSIONS } from '../../shared/permissions.js';
import { backends } from '../helpers/backends.js';
import { signIn, uniqueEmail } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, eventCount, newMember, type SignedIn } from './accounts-fixtures.js';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const MANAGER_BEYOND_HR =
  'View inventory, Add items and categories, Manage inventory, Update stock levels, View reports, Manage settings, Delete records, Revert changes, Run stocktakes, View personal profile';

describe.each(backends())('no escalation through Manage users on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let hrRoleId: string;
  let hr: SignedIn;
  let peer: SignedIn;

  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ manager, staff } = await cast(server));
    const role = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { name: 'People desk', description: 'Looks after accounts', permissions: ['users:view', 'users:manage'] },
    });
    expect(role.status).toBe(201);
    hrRoleId = role.body.id;
    hr = await newMember(server, { name: 'Hana HR' });
    peer = await newMember(server, { name: 'Pia Peer' });
    for (const who of [hr, peer]) {
      expect(
        (
          await server.request('PUT', `/api/users/${who.uid}/role`, {
            token: manager.idToken,
            body: { role: hrRoleId },
          })
        ).status,
      ).toBe(200);
    }
  });
  afterAll(() => server?.close());

  async function roleOf(uid: string): Promise<string> {
    const users = (await server.request('GET', '/api/users', { token: manager.idToken })).body as Array<{
      id: string;
      role: string;
    }>;
    return users.find((u) => u.id === uid)!.role;
  }

  it('refuses the holder making themself manager (the most direct way up)', async () => {
    const res = await server.request('PUT', `/api/users/${hr.uid}/role`, {
      token: hr.idToken,
      body: { role: 'manager' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'You cannot change your own role' });
    expect(await roleOf(hr.uid)).toBe(hrRoleId);
    expect((await server.request('GET', '/api/settings', { token: hr.idToken })).status).toBe(200);
    expect(
      (await server.request('PUT', '/api/settings', { token: hr.idToken, body: { storeName: 'Mine now' } })).status,
    ).toBe(403);
  });

  it('refuses giving anyone a role with permissions the giver lacks, or touching someone who holds more', async () => {
    const promote = await server.request('PUT', `/api/users/${peer.uid}/role`, {
      token: hr.idToken,
      body: { role: 'manager' },
    });
    expect(promote.status).toBe(403);
    expect(promote.body).toEqual({
      error: `You can't assign a role with permissions you don't have yourself: ${MANAGER_BEYOND_HR}`,
    });
    expect(await roleOf(peer.uid)).toBe(hrRoleId);

    const demote = await server.request('PUT', `/api/users/${manager.uid}/role`, {
      token: hr.idToken,
      body: { role: hrRoleId },
    });
    expect(demote.status).toBe(403);
    expect(demote.body.error).toMatch(
      /^You can't change the role of someone with permissions you don't have yourself: /,
    );
    const disable = await server.request('POST', `/api/users/${manager.uid}/disable`, { token: hr.idToken });
    expect(disable.status).toBe(403);
    expect(disable.body.error).toMatch(/^You can't disable someone with permissions you don't have yourself: /);
    expect(await roleOf(manager.uid)).toBe('manager');
  });

  it('refuses creating a manager account: no Firebase account is made', async () => {
    const email = uniqueEmail('hr-made');
    const res = await server.request('POST', '/api/users', {
      token: hr.idToken,
      body: { name: 'Sock Puppet', email, password: 'secret123', role: 'manager' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: `You can't create an account with permissions you don't have yourself: ${MANAGER_BEYOND_HR}`,
    });
    await expect(signIn(email, 'secret123')).rejects.toThrow(/EMAIL_NOT_FOUND/);
  });

  it('refuses creating or widening a role beyond the giver', async () => {
    const create = await server.request('POST', '/api/roles', {
      token: hr.idToken,
      body: { name: 'Everything', description: 'All of it', permissions: ALL_PERMISSIONS },
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({
      error: `You can't create a role with permissions you don't have yourself: ${MANAGER_BEYOND_HR}`,
    });
    const widen = await server.request('PUT', `/api/roles/${hrRoleId}`, {
      token: hr.idToken,
      body: {
        name: 'People desk',
        description: 'Looks after accounts',
        permissions: ['users:view', 'users:manage', 'settings:manage'],
      },
    });
    expect(widen.status).toBe(403);
    expect(widen.body).toEqual({ error: "You can't give a role permissions you don't have yourself: Manage settings" });
    // Within what the holder has: allowed.
    const narrow = await server.request('POST', '/api/roles', {
      token: hr.idToken,
      body: { name: 'Viewer of people', description: 'Looks', permissions: ['users:view'] },
    });
    expect(narrow.status).toBe(201);
  });

  it('never lets an API token change roles, edit roles or create accounts, whatever its permissions', async () => {
    const created = await server.request('POST', '/api/tokens', {
      token: manager.idToken,
      body: { name: 'Everything script', expiresAt: inAWeek(), permissions: ALL_PERMISSIONS },
    });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    const member = await newMember(server, { requestedRole: 'manager' });
    const before = await eventCount(server);
    const email = uniqueEmail('token-made');
    const refused: Array<[string, string, unknown, string]> = [
      [
        'POST',
        '/api/users',
        { name: 'Outlives the token', email, password: 'secret123', role: 'manager' },
        'An API token cannot create accounts: sign in to do this',
      ],
      [
        'PUT',
        `/api/users/${staff.uid}/role`,
        { role: 'manager' },
        'An API token cannot change roles: sign in to do this',
      ],
      [
        'POST',
        `/api/users/${member.uid}/manager-request/approve`,
        {},
        'An API token cannot change roles: sign in to do this',
      ],
      [
        'POST',
        '/api/roles',
        { name: 'Token role', description: 'No', permissions: ['inventory:view'] },
        'An API token cannot create, edit or delete roles: sign in to do this',
      ],
      [
        'PUT',
        `/api/roles/${hrRoleId}`,
        { name: 'People desk', description: 'Changed', permissions: ['users:view'] },
        'An API token cannot create, edit or delete roles: sign in to do this',
      ],
      [
        'DELETE',
        `/api/roles/${hrRoleId}`,
        undefined,
        'An API token cannot create, edit or delete roles: sign in to do this',
      ],
    ];
    for (const [method, path, body, error] of refused) {
      const res = await server.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error });
    }
    expect(await eventCount(server)).toBe(before);
    await expect(signIn(email, 'secret123')).rejects.toThrow(/EMAIL_NOT_FOUND/);
    expect(await roleOf(staff.uid)).toBe('staff');
    // The token still does what it is for.
    expect((await server.request('GET', '/api/users', { token })).status).toBe(200);
  });

  it('still lets a manager do all of it', async () => {
    const promoted = await server.request('PUT', `/api/users/${peer.uid}/role`, {
      token: manager.idToken,
      body: { role: 'manager' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('manager');
    const back = await server.request('PUT', `/api/users/${peer.uid}/role`, {
      token: manager.idToken,
      body: { role: 'staff' },
    });
    expect(back.status).toBe(200);
    const email = uniqueEmail('by-manager');
    const made = await server.request('POST', '/api/users', {
      token: manager.idToken,
      body: { name: 'New Manager', email, password: 'secret123', role: 'manager' },
    });
    expect(made.status).toBe(201);
    expect((await signIn(email, 'secret123')).uid).toBe(made.body.id);
    const widened = await server.request('PUT', `/api/roles/${hrRoleId}`, {
      token: manager.idToken,
      body: {
        name: 'People desk',
        description: 'Looks after accounts',
        permissions: ['users:view', 'users:manage', 'inventory:view'],
      },
    });
    expect(widened.status).toBe(200);
  });

  it('leaves projections identical to a rebuild from the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
