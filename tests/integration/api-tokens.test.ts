// API tokens: a token works as its owner with only the token's permissions (never more than
// the owner's), under its own rate limit, shows in history as "{user} via {token}", is
// refused on the very next request once revoked or expired (on a second instance too, with
// PostgreSQL), and never appears in the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../shared/realtime.js';
import { backends, reportMissingServer, type Backend } from '../helpers/backends.js';
import { connectFeed } from '../helpers/feed-client.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { openSecondInstanceStore } from '../helpers/second-instance-store.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

// PGlite lives inside one process: there is no second instance to ask.
reportMissingServer('a revoked or expired API token is refused on a second instance');

describe.each(backends())('API tokens on $name', { timeout: 180_000 }, (backend: Backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;
  const log: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { LOG_LEVEL: 'debug' },
      context: { logStream: { write: (line) => void log.push(line) } },
    });
    manager = await accountWithRole(server, 'manager', 'Mina Manager');
    categoryId = (
      await server.request('POST', '/api/categories', {
        token: manager.idToken,
        body: { name: `Tokens ${Date.now()}` },
      })
    ).body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function createToken(
    body: { name: string; permissions: string[]; expiresAt?: string },
    token = manager.idToken,
    on = server,
  ) {
    return on.request('POST', '/api/tokens', { token, body: { expiresAt: inAWeek(), ...body } });
  }

  it('a staff-level token reads and adjusts stock but cannot do manager things', async () => {
    const created = await createToken({ name: 'Till 1', permissions: ['inventory:view', 'stock:update'] });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect(token).toMatch(/^srk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.apiToken).toMatchObject({
      name: 'Till 1',
      userName: 'Mina Manager',
      status: 'active',
      permissions: ['inventory:view', 'stock:update'],
      lastUsedAt: null,
    });

    expect((await server.request('GET', '/api/inventory', { token })).status).toBe(200);
    const item = await server.request('POST', '/api/inventory', {
      token,
      body: { name: 'Nope', sku: `NO-${Date.now()}`, category_id: categoryId, quantity: 1, price: 1, threshold: 0 },
    });
    expect(item.status).toBe(403);
    expect(item.body).toEqual({ error: "You don't have permission to add items or categories" });
    expect((await server.request('GET', '/api/webhooks', { token })).status).toBe(403);
    expect((await server.request('GET', '/api/users', { token })).status).toBe(403);
    expect((await server.request('GET', '/api/tokens', { token })).status).toBe(403);
    // The token is listed with its last use, never with the token itself.
    const listed = await server.request('GET', '/api/tokens', { token: manager.idToken });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(listed.body.tokens.find((t: { id: string }) => t.id === created.body.apiToken.id).lastUsedAt).not.toBeNull();
  });

  it("actions by a token show in history and activity as '{user} via {token name}'", async () => {
    const { token } = (
      await createToken({
        name: 'Shop script',
        permissions: ['inventory:view', 'inventory:create', 'stock:update', 'reports:view'],
      })
    ).body;
    const item = await server.request('POST', '/api/inventory', {
      token,
      body: { name: 'Scripted', sku: `SC-${Date.now()}`, category_id: categoryId, quantity: 5, price: 1, threshold: 0 },
    });
    expect(item.status).toBe(201);
    expect(
      (
        await server.request('POST', `/api/inventory/${item.body.id}/adjust`, {
          token,
          body: { delta: 2, reason: 'restock' },
        })
      ).status,
    ).toBe(200);
    const history = await server.request('GET', `/api/inventory/${item.body.id}/history`, { token: manager.idToken });
    expect(JSON.stringify(history.body)).toContain('Mina Manager via Shop script');
    const activity = await server.request('GET', '/api/activity', { token: manager.idToken });
    expect(JSON.stringify(activity.body)).toContain('Mina Manager via Shop script');
  });

  it("a token's permissions are capped by its creator's", async () => {
    const role = await server.request('POST', '/api/roles', {
      token: manager.idToken,
      body: {
        name: `Office ${Date.now()}`,
        description: 'settings, no users',
        permissions: ['inventory:view', 'settings:manage'],
      },
    });
    expect(role.status).toBe(201);
    const office = await accountWithRole(server, role.body.id, 'Olga Office');
    const tooMuch = await createToken(
      { name: 'Greedy', permissions: ['inventory:view', 'users:manage'] },
      office.idToken,
    );
    expect(tooMuch.status).toBe(403);
    expect(tooMuch.body).toEqual({
      error: "A token cannot have more than your permissions: you don't have permission to manage users",
    });
    const fine = await createToken({ name: 'Modest', permissions: ['inventory:view'] }, office.idToken);
    expect(fine.status).toBe(201);
    // Staff cannot create tokens at all; a token cannot create tokens.
    const staff = await accountWithRole(server, 'staff');
    expect((await createToken({ name: 'Mine', permissions: ['inventory:view'] }, staff.idToken)).status).toBe(403);
    const { token: full } = (await createToken({ name: 'Full', permissions: ['inventory:view', 'settings:manage'] }))
      .body;
    expect((await createToken({ name: 'Child', permissions: ['inventory:view'] }, full)).body).toEqual({
      error: 'An API token cannot create API tokens',
    });
  });

  it('a token has its own rate limit, apart from its owner', async () => {
    const limited = await startTestServer(backend, { store: server.store, env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const { token } = (await createToken({ name: 'Busy till', permissions: ['inventory:view'] })).body;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await limited.request('GET', '/api/categories', { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await limited.request('GET', '/api/categories', { token: manager.idToken })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  // With PostgreSQL a second instance (its own pool and caches) shares the database; on PGlite
  // the one server is all there is, and the case says so.
  const instances = backend.url ? 'on this instance and a second one' : 'on the one instance there is (PGlite)';
  it(`a revoked or expired token is refused on the very next request, ${instances}`, async () => {
    const other = backend.url ? await openSecondInstanceStore(backend, server.store) : null;
    const second = other ? await startTestServer(backend, { store: other }) : server;
    try {
      const created = await createToken({ name: 'Soon revoked', permissions: ['inventory:view'] });
      const token: string = created.body.token;
      expect((await second.request('GET', '/api/categories', { token })).status).toBe(200);
      expect(
        (await server.request('DELETE', `/api/tokens/${created.body.apiToken.id}`, { token: manager.idToken })).body
          .status,
      ).toBe('revoked');
      for (const instance of [second, server]) {
        const refused = await instance.request('GET', '/api/categories', { token });
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: 'This API token was revoked' });
      }

      const shortLived = await createToken({
        name: 'Short',
        permissions: ['inventory:view'],
        expiresAt: new Date(Date.now() + 2500).toISOString(),
      });
      expect((await second.request('GET', '/api/categories', { token: shortLived.body.token })).status).toBe(200);
      await new Promise((r) =>
        setTimeout(r, Math.max(0, Date.parse(shortLived.body.apiToken.expiresAt) - Date.now() + 50)),
      );
      for (const instance of [second, server]) {
        expect((await instance.request('GET', '/api/categories', { token: shortLived.body.token })).body).toEqual({
          error: 'This API token has expired',
        });
      }
      expect((await server.request('GET', '/api/categories', { token: 'srk_madeup' })).body).toEqual({
        error: 'Invalid API token',
      });
    } finally {
      if (other) {
        await second.close();
        await other.close();
      }
    }
  });

  it('a token follows the live feed with its own permissions, and a revoke closes that feed at once', async () => {
    const viewer = await createToken({ name: 'Shop sync', permissions: ['inventory:view'] });
    const narrow = await createToken({ name: 'Reports only', permissions: ['reports:view'] });
    const feed = await connectFeed(server.url, { token: viewer.body.token });
    const blind = await connectFeed(server.url, { token: narrow.body.token });
    await feed.waitFor((m) => m.some((x) => x.type === 'hello'), 10_000, 'hello');
    await blind.waitFor((m) => m.some((x) => x.type === 'hello'), 10_000, 'hello');
    const item = await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: {
        name: 'Feed item',
        sku: `FEED-${Date.now()}`,
        category_id: categoryId,
        quantity: 3,
        price: 1,
        threshold: 0,
      },
    });
    await feed.waitForMatching((e) => e.stream === `item-${item.body.id}`, 1, 10_000);
    // The reports-only token never sees items (its permissions, not its owner's), only what every signed-in screen sees.
    await server.request('PUT', '/api/settings', {
      token: manager.idToken,
      body: { storeName: `Tokens store ${Date.now()}` },
    });
    await blind.waitForMatching((e) => e.streamType === 'settings', 1, 10_000);
    expect(blind.events().some((m) => m.event.stream === `item-${item.body.id}`)).toBe(false);

    await server.request('DELETE', `/api/tokens/${viewer.body.apiToken.id}`, { token: manager.idToken });
    expect(await feed.closed).toEqual({ code: CLOSE_CODES.authRequired, reason: 'This API token was revoked' });
    const again = await connectFeed(server.url, { token: viewer.body.token });
    expect((await again.closed).code).toBe(CLOSE_CODES.authRequired);
    await blind.close();
  });

  it('tokens never appear in the log', async () => {
    const { token } = (await createToken({ name: 'Logged?', permissions: ['inventory:view'] })).body;
    await server.request('GET', '/api/categories', { token });
    await server.request('GET', '/api/webhooks', { token }); // refused: logged with a reason
    await server.request('DELETE', '/api/tokens/not-an-id', { token });
    const text = log.join('');
    expect(text).toContain('request refused'); // the log is on and has these requests
    expect(text).not.toContain(token);
    expect(text).not.toContain('srk_');
  });
});
