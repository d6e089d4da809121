// Answers to Idempotency-Keys last the keep period (IDEMPOTENCY_KEEP_HOURS, 48 by default),
// and not a moment longer: an older one is never replayed, even before it is deleted (also on
// the stock adjustments' own path), and a timer deletes them with no write traffic at all.
// Rows are aged by moving their created_at back, so no test waits for hours.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends())('idempotent answers expire on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    categoryId = (
      await server.request('POST', '/api/categories', {
        token: manager.idToken,
        body: { name: `Expiry ${Date.now()}` },
      })
    ).body.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (path: string, body: unknown, key: string) =>
    server.request('POST', path, { token: manager.idToken, body, headers: { 'idempotency-key': key } });
  const age = (key: string, hours: number) =>
    sql`update http_idempotency set created_at = now() - make_interval(hours => ${hours}) where key = ${key}`.execute(
      server.store.database.db,
    );

  it('within the keep period a key answers as before; past it, the key is free for a new request', async () => {
    const key = `cat-${Date.now()}`;
    const first = await post('/api/categories', { name: `First ${key}` }, key);
    expect(first.status).toBe(201);
    await age(key, 47);
    const other = await post('/api/categories', { name: `Second ${key}` }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'Idempotency-Key was already used for a different request' });

    await age(key, 49);
    const again = await post('/api/categories', { name: `Second ${key}` }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.name).toBe(`Second ${key}`);
    // Its answer now replaces the expired one.
    const replay = await post('/api/categories', { name: `Second ${key}` }, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(again.body.id);
  });

  it('a stock adjustment (answered by its own batch) is not replayed past the keep period', async () => {
    const item = (
      await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: { name: 'Aged', sku: `AGE-${Date.now()}`, category_id: categoryId, quantity: 10, price: 1, threshold: 0 },
      })
    ).body;
    const key = `adjust-${Date.now()}`;
    expect((await post(`/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'restock' }, key)).body.quantity).toBe(
      11,
    );
    await age(key, 49);
    const later = await post(`/api/inventory/${item.id}/adjust`, { delta: 5, reason: 'restock' }, key);
    expect(later.status).toBe(200);
    expect(later.body.quantity).toBe(16);
  });

  it('a token creation retried past the keep period creates no second token and shows no token', async () => {
    const key = `tok-${Date.now()}`;
    const body = { name: 'Late retry', permissions: ['inventory:view'], expiresAt: inAWeek() };
    const first = await post('/api/tokens', body, key);
    expect(first.status).toBe(201);
    await age(key, 49);
    // Same request, its stored answer expired: the event store still knows the key, so the
    // token made then is answered, without a token value (none is kept) and saying so.
    const late = await post('/api/tokens', body, key);
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBeNull();
    expect(late.body).toEqual({ apiToken: first.body.apiToken, token: null, secretShownOnce: true });
    const listed = (await server.request('GET', '/api/tokens', { token: manager.idToken })).body.tokens.filter(
      (t: { name: string }) => t.name === 'Late retry',
    );
    expect(listed).toHaveLength(1);
  });

  it('an endpoint creation retried past the keep period creates no second endpoint and shows no secret', async () => {
    const key = `hook-${Date.now()}`;
    const body = { url: 'https://hooks.example.com/late-retry', eventTypes: ['*'] };
    const first = await post('/api/webhooks', body, key);
    expect(first.status).toBe(201);
    await age(key, 49);
    const late = await post('/api/webhooks', body, key);
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBeNull();
    expect(late.body).toEqual({ endpoint: first.body.endpoint, secret: null, secretShownOnce: true });
    const listed = (await server.request('GET', '/api/webhooks', { token: manager.idToken })).body.endpoints.filter(
      (e: { url: string }) => e.url === body.url,
    );
    expect(listed).toHaveLength(1);
  });
});

describe.each(backends())(
  'expired answers are deleted without any writes on $name',
  { timeout: 120_000 },
  (backend) => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer(backend, { env: { IDEMPOTENCY_SWEEP_EVERY_MS: '200' } });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a timer deletes answers older than the keep period and leaves the younger ones', async () => {
      const manager = await accountWithRole(server, 'manager');
      const [old, young] = [`old-${Date.now()}`, `young-${Date.now()}`];
      for (const key of [old, young]) {
        const res = await server.request('POST', '/api/categories', {
          token: manager.idToken,
          body: { name: key },
          headers: { 'idempotency-key': key },
        });
        expect(res.status).toBe(201);
      }
      const db = server.store.database.db;
      await sql`update http_idempotency set created_at = now() - interval '49 hours' where key = ${old}`.execute(db);
      await sql`update http_idempotency set created_at = now() - interval '47 hours' where key = ${young}`.execute(db);
      // No request from here on: only the timer can delete.
      const keys = async () =>
        (
          await sql<{ key: string }>`select key from http_idempotency where key in (${old}, ${young})`.execute(db)
        ).rows.map((r) => r.key);
      const deadline = Date.now() + 10_000;
      while ((await keys()).includes(old) && Date.now() < deadline) await sleep(100);
      expect(await keys()).toEqual([young]);
    });
  },
);
