// Roles API with real emulator accounts: built-in and custom roles, a custom role assigned
// like a built-in one (a View-inventory-only role reads items and cannot adjust stock),
// edits that take effect on the next request, and roles in use that cannot be deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, newMember, type SignedIn } from './accounts-fixtures.js';

describe.each(backends())('roles API on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let guest: SignedIn;
  let itemId: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    ({ manager, staff, guest } = await cast(server));
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Tools' },
    });
    const item = await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: 'Hammer', sku: 'HAM-1', category_id: category.body.id, quantity: 5, price: 12.5, threshold: 2 },
    });
    expect(item.status).toBe(201);
    itemId = item.body.id;
  });
  afterAll(() => server?.close());

  it('lists the built-in roles with their permissions and user counts to anyone signed in', async () => {
    const res = await server.request('GET', '/api/roles', { token: guest.idToken });
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.id, r.builtIn, r.userCount])).toEqual([
      ['manager', true, 1],
      ['staff', true, 1],
      ['guest', true, 1],
    ]);
    expect(res.body[1].permissions).toEqual([
      'inventory:view',
      'inventory:create',
      'stock:update',
      'reports:view',
      'profile:view',
    ]);
  });

  it('gives a custom role with only View inventory read access and a 403 on adjust', async () => {
    const created = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { name: 'Auditor', description: 'Looks, never touches', permissions: ['inventory:view'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Auditor',
      permissions: ['inventory:view'],
      builtIn: false,
      userCount: 0,
    });
    expect(created.body.id).toMatch(/^role-[0-9a-f-]{36}$/);

    const auditor = await newMember(server);
    const assigned = await server.request('PUT', `/api/users/${auditor.uid}/role`, {
      token: manager.idToken,
      body: { role: created.body.id },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.role).toBe(created.body.id);

    const me = await server.request('GET', '/api/me', { token: auditor.idToken });
    expect(me.body).toMatchObject({ role: created.body.id, permissions: ['inventory:view'] });
    const list = await server.request('GET', '/api/inventory', { token: auditor.idToken });
    expect(list.status).toBe(200);
    expect(list.body.map((i: any) => i.id)).toContain(itemId);
    expect((await server.request('GET', `/api/inventory/${itemId}`, { token: auditor.idToken })).status).toBe(200);

    const adjust = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: auditor.idToken,
      body: { delta: -1, reason: 'sale' },
    });
    expect(adjust.status).toBe(403);
    expect(adjust.body).toEqual({ error: "You don't have permission to update stock levels" });
    // Staff, for comparison, may adjust.
    const staffAdjust = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta: -1, reason: 'sale' },
    });
    expect(staffAdjust.status).toBe(200);

    // An edit of the role applies at the auditor's next request.
    const edited = await server.request('PUT', `/api/roles/${created.body.id}`, {
      token: manager.idToken,
      body: { name: 'Auditor', description: 'Counts too', permissions: ['inventory:view', 'stock:update'] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.userCount).toBe(1);
    const adjusted = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: auditor.idToken,
      body: { delta: 1, reason: 'count' },
    });
    expect(adjusted.status).toBe(200);

    // In use: not deletable. Free again: deleted, and gone from the list.
    const inUse = await server.request('DELETE', `/api/roles/${created.body.id}`, { token: manager.idToken });
    expect(inUse.status).toBe(409);
    expect(inUse.body).toEqual({ error: 'Role is in use' });
    await server.request('PUT', `/api/users/${auditor.uid}/role`, { token: manager.idToken, body: { role: 'staff' } });
    const deleted = await server.request('DELETE', `/api/roles/${created.body.id}`, { token: manager.idToken });
    expect(deleted.status).toBe(204);
    const roles = await server.request('GET', '/api/roles', { token: manager.idToken });
    expect(roles.body.map((r: any) => r.id)).not.toContain(created.body.id);
    const reassign = await server.request('PUT', `/api/users/${auditor.uid}/role`, {
      token: manager.idToken,
      body: { role: created.body.id },
    });
    expect(reassign.status).toBe(400);
  });

  it('refuses to change or delete a built-in role', async () => {
    const put = await server.request('PUT', '/api/roles/staff', {
      token: manager.idToken,
      body: { name: 'Staff', description: 'More power', permissions: ['users:manage'] },
    });
    expect(put.status).toBe(409);
    expect(put.body).toEqual({ error: 'Built-in roles cannot be changed' });
    const del = await server.request('DELETE', '/api/roles/manager', { token: manager.idToken });
    expect(del.status).toBe(409);
  });

  it('keeps role names unique, built-in names included', async () => {
    const body = { name: 'Night Shift', description: 'After hours', permissions: ['inventory:view', 'stock:update'] };
    expect((await server.request('POST', '/api/roles', { token: manager.idToken, body })).status).toBe(201);
    const again = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { ...body, name: 'night shift ' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'A role named "night shift" already exists' });
    const builtIn = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { ...body, name: 'Store Manager' },
    });
    expect(builtIn.status).toBe(409);
  });

  it('answers 404 for an unknown custom role', async () => {
    const body = { name: 'Ghost', description: 'Not there', permissions: ['inventory:view'] };
    expect((await server.request('PUT', '/api/roles/role-nope', { token: manager.idToken, body })).status).toBe(404);
    expect((await server.request('DELETE', '/api/roles/role-nope', { token: manager.idToken })).status).toBe(404);
  });

  it('lets only Manage users change roles', async () => {
    const body = { name: 'Sneaky', description: 'Should not exist', permissions: ['users:manage'] };
    for (const who of [staff, guest]) {
      const res = await server.request('POST', '/api/roles', { token: who.idToken, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "You don't have permission to manage users" });
    }
  });

  it('leaves projections identical to a rebuild from the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
