// Bad input on every accounts route: missing fields, wrong types, extra fields and
// oversized strings get 400 with a message naming the problem, and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { signIn, signUp, uniqueEmail, type TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, eventCount, type SignedIn } from './accounts-fixtures.js';

type Case = [label: string, method: string, path: string, body: unknown, message: RegExp, status?: number];

const long = (n: number) => 'x'.repeat(n);
const validRole = { name: 'Checker', description: 'Checks', permissions: ['inventory:view'] };

/** Built per run: ids of real accounts and roles, so only the input is wrong. */
function cases(ids: { staff: string; role: string; email: string }): Case[] {
  const user = `/api/users/${ids.staff}`;
  const role = `/api/roles/${ids.role}`;
  const newUser = { name: 'New Person', email: ids.email, password: 'secret123', role: 'staff' };
  return [
    [
      'session: unknown requested role',
      'POST',
      '/api/session',
      { requestedRole: 'owner' },
      /^requestedRole must be equal to one of the allowed values/,
    ],
    ['session: name of the wrong type', 'POST', '/api/session', { name: 42 }, /^name must be string$/],
    ['session: extra field', 'POST', '/api/session', { role: 'manager' }, /^Unknown field: role$/],
    [
      'session: oversized name',
      'POST',
      '/api/session',
      { name: long(101) },
      /^name must NOT have more than 100 characters$/,
    ],
    ['session: body not an object', 'POST', '/api/session', ['manager'], /must be object,null|must be object/],

    [
      'users list: oversized search',
      'GET',
      `/api/users?q=${long(101)}`,
      undefined,
      /q must NOT have more than 100 characters/,
    ],
    ['users list: unknown parameter', 'GET', '/api/users?role=manager', undefined, /Unknown field: role/],

    [
      'create user: missing password',
      'POST',
      '/api/users',
      { ...newUser, password: undefined },
      /^password is required$/,
    ],
    ['create user: missing body', 'POST', '/api/users', undefined, /body must be object|is required/],
    ['create user: email of the wrong type', 'POST', '/api/users', { ...newUser, email: 7 }, /^email must be string$/],
    [
      'create user: not an email',
      'POST',
      '/api/users',
      { ...newUser, email: 'nobody' },
      /^email must match format "email"$/,
    ],
    ['create user: extra field', 'POST', '/api/users', { ...newUser, admin: true }, /^Unknown field: admin$/],
    [
      'create user: oversized name',
      'POST',
      '/api/users',
      { ...newUser, name: long(101) },
      /^name must NOT have more than 100 characters$/,
    ],
    [
      'create user: empty name',
      'POST',
      '/api/users',
      { ...newUser, name: '' },
      /^name must NOT have fewer than 1 characters$/,
    ],
    [
      'create user: short password',
      'POST',
      '/api/users',
      { ...newUser, password: '12345' },
      /^password must NOT have fewer than 6 characters$/,
    ],
    [
      'create user: oversized password',
      'POST',
      '/api/users',
      { ...newUser, password: long(129) },
      /^password must NOT have more than 128 characters$/,
    ],
    [
      'create user: oversized role',
      'POST',
      '/api/users',
      { ...newUser, role: long(65) },
      /^role must NOT have more than 64 characters$/,
    ],

    ['role change: missing role', 'PUT', `${user}/role`, {}, /^role is required$/],
    ['role change: role of the wrong type', 'PUT', `${user}/role`, { role: ['manager'] }, /^role must be string$/],
    ['role change: extra field', 'PUT', `${user}/role`, { role: 'manager', force: true }, /^Unknown field: force$/],
    [
      'role change: oversized role',
      'PUT',
      `${user}/role`,
      { role: long(65) },
      /^role must NOT have more than 64 characters$/,
    ],
    [
      'role change: malformed id',
      'PUT',
      '/api/users/not%20an%20id/role',
      { role: 'manager' },
      /^id must match pattern/,
    ],
    [
      'role change: oversized id',
      'PUT',
      `/api/users/${long(129)}/role`,
      { role: 'manager' },
      /^id must NOT have more than 100 characters$/,
    ],

    ['disable: extra field', 'POST', `${user}/disable`, { reason: 'x' }, /^Unknown field: reason$/],
    ['disable: malformed id', 'POST', '/api/users/a.b/disable', undefined, /^id must match pattern/],
    ['enable: extra field', 'POST', `${user}/enable`, { now: true }, /^Unknown field: now$/],
    ['approve: extra field', 'POST', `${user}/manager-request/approve`, { role: 'manager' }, /^Unknown field: role$/],
    [
      'reject: oversized id',
      'POST',
      `/api/users/${long(129)}/manager-request/reject`,
      undefined,
      /^id must NOT have more than 100 characters$/,
    ],

    [
      'create role: missing description',
      'POST',
      '/api/roles',
      { ...validRole, description: undefined },
      /^description is required$/,
    ],
    [
      'create role: permissions not a list',
      'POST',
      '/api/roles',
      { ...validRole, permissions: 'inventory:view' },
      /^permissions must be array$/,
    ],
    [
      'create role: unknown permission',
      'POST',
      '/api/roles',
      { ...validRole, permissions: ['root'] },
      /^permissions.0 must be equal to one of the allowed values/,
    ],
    [
      'create role: repeated permission',
      'POST',
      '/api/roles',
      { ...validRole, permissions: ['inventory:view', 'inventory:view'] },
      /^permissions must NOT have duplicate items/,
    ],
    [
      'create role: no permission',
      'POST',
      '/api/roles',
      { ...validRole, permissions: [] },
      /^Choose at least one permission$/,
    ],
    ['create role: blank name', 'POST', '/api/roles', { ...validRole, name: '   ' }, /^Role name is required$/],
    ['create role: extra field', 'POST', '/api/roles', { ...validRole, builtIn: true }, /^Unknown field: builtIn$/],
    [
      'create role: oversized name',
      'POST',
      '/api/roles',
      { ...validRole, name: long(51) },
      /^name must NOT have more than 50 characters$/,
    ],
    [
      'create role: oversized description',
      'POST',
      '/api/roles',
      { ...validRole, description: long(201) },
      /^description must NOT have more than 200 characters$/,
    ],
    ['edit role: missing name', 'PUT', role, { ...validRole, name: undefined }, /^name is required$/],
    ['edit role: name of the wrong type', 'PUT', role, { ...validRole, name: 5 }, /^name must be string$/],
    ['edit role: extra field', 'PUT', role, { ...validRole, id: 'manager' }, /^Unknown field: id$/],
    ['edit role: malformed id', 'PUT', '/api/roles/a.b', validRole, /^id must match pattern/],
    [
      'delete role: oversized id',
      'DELETE',
      `/api/roles/${long(65)}`,
      undefined,
      /^id must NOT have more than 64 characters$/,
    ],

    ['settings: nothing to change', 'PUT', '/api/settings', {}, /must NOT have fewer than 1 properties/],
    ['settings: store name of the wrong type', 'PUT', '/api/settings', { storeName: 5 }, /^storeName must be string$/],
    [
      'settings: negative threshold',
      'PUT',
      '/api/settings',
      { lowStockThreshold: -1 },
      /^lowStockThreshold cannot be negative$/,
    ],
    [
      'settings: fractional threshold',
      'PUT',
      '/api/settings',
      { lowStockThreshold: 2.5 },
      /^lowStockThreshold must be integer$/,
    ],
    [
      'settings: threshold as text',
      'PUT',
      '/api/settings',
      { lowStockThreshold: '10' },
      /^lowStockThreshold must be integer$/,
    ],
    ['settings: switch as text', 'PUT', '/api/settings', { allowGuests: 'no' }, /^allowGuests must be boolean$/],
    ['settings: extra field', 'PUT', '/api/settings', { theme: 'dark' }, /^Unknown field: theme$/],
    [
      'settings: oversized store name',
      'PUT',
      '/api/settings',
      { storeName: long(101) },
      /^storeName must NOT have more than 100 characters$/,
    ],
    [
      'settings: oversized email',
      'PUT',
      '/api/settings',
      { email: `${long(250)}@x.io` },
      /^email must NOT have more than 254 characters$/,
    ],

    ['profile: nothing to change', 'PUT', '/api/profile', {}, /must NOT have fewer than 1 properties/],
    ['profile: name of the wrong type', 'PUT', '/api/profile', { name: true }, /^name must be string$/],
    ['profile: not an email', 'PUT', '/api/profile', { email: 'nope' }, /^email must match format "email"$/],
    ['profile: extra field', 'PUT', '/api/profile', { role: 'manager' }, /^Unknown field: role$/],
    [
      'profile: oversized name',
      'PUT',
      '/api/profile',
      { name: long(101) },
      /^name must NOT have more than 100 characters$/,
    ],
    ['profile: blank name', 'PUT', '/api/profile', { name: '  ' }, /^Name is required$/],
    ['preferences: missing switch', 'PUT', '/api/profile/preferences', {}, /^browserNotifications is required$/],
    [
      'preferences: switch as text',
      'PUT',
      '/api/profile/preferences',
      { browserNotifications: 'true' },
      /^browserNotifications must be boolean$/,
    ],
    [
      'preferences: extra field',
      'PUT',
      '/api/profile/preferences',
      { browserNotifications: true, sound: true },
      /^Unknown field: sound$/,
    ],
  ];
}

describe.each(backends())('bad input on the accounts routes on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let newcomer: TestAccount;
  let roleId: string;
  const email = uniqueEmail('never-created');
  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ manager, staff } = await cast(server));
    roleId = (await server.request('POST', '/api/roles', { token: manager.idToken, body: validRole })).body.id;
    newcomer = await signUp();
  });
  afterAll(() => server?.close());

  it('covers every accounts route', () => {
    const covered = new Set(
      cases({ staff: 'x', role: 'y', email }).map(([, method, path]) => `${method} ${routeOf(path)}`),
    );
    expect([...covered].sort()).toEqual(
      [
        'POST /api/session',
        'GET /api/users',
        'POST /api/users',
        'PUT /api/users/:id/role',
        'POST /api/users/:id/disable',
        'POST /api/users/:id/enable',
        'POST /api/users/:id/manager-request/approve',
        'POST /api/users/:id/manager-request/reject',
        'POST /api/roles',
        'PUT /api/roles/:id',
        'DELETE /api/roles/:id',
        'PUT /api/settings',
        'PUT /api/profile',
        'PUT /api/profile/preferences',
      ].sort(),
    );
  });

  it('answers 400 with a clear message and writes nothing', async () => {
    const before = await eventCount(server);
    const list = cases({ staff: staff.uid, role: roleId, email });
    for (const [label, method, path, body, message, status = 400] of list) {
      // The session cases use an account that is not registered yet: a 400 must not register it.
      const token = path === '/api/session' ? newcomer.idToken : manager.idToken;
      const res = await server.request(method, path, { token, body });
      expect(res.status, label).toBe(status);
      expect(Object.keys(res.body), label).toEqual(['error']);
      expect(res.body.error, label).toMatch(message);
    }
    expect(await eventCount(server)).toBe(before);
    // No Firebase account was made either.
    await expect(signIn(email, 'secret123')).rejects.toThrow(/EMAIL_NOT_FOUND|INVALID/);
    expect((await server.request('GET', '/api/profile', { token: newcomer.idToken })).status).toBe(404);
    const settings = await server.request('GET', '/api/settings', { token: manager.idToken });
    expect(settings.body.storeName).toBe('My Store');
  });
});

/** '/api/users/abc/role' -> '/api/users/:id/role' (ids are anything in an id position). */
function routeOf(path: string): string {
  const bare = path.split('?')[0]!;
  return bare
    .replace(/^\/api\/users\/[^/]+/, (m) => (m === '/api/users' ? m : '/api/users/:id'))
    .replace(/^\/api\/roles\/[^/]+/, '/api/roles/:id');
}
