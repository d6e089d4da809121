// Secrets shown once stay shown once: the answer to an API token's or a webhook endpoint's
// creation is replayed for its Idempotency-Key without the secret (saying it was shown once),
// no stored answer holds one, webhook signing secrets are encrypted at rest (nowhere in the
// clear: not their table, not the events) and deliveries are still signed with them. Secrets
// stored in the clear by an earlier version are sealed at start, and a server given another
// key refuses to start rather than sign with secrets it cannot read.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const FAST = {
  WEBHOOK_POLL_MS: '200',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '5000',
};

describe.each(backends())('one-time secrets on $name', { timeout: 180_000 }, (backend) => {
  let store: TestStore;
  let server: TestServer;
  let manager: TestAccount;
  let receiver: Receiver;
  let categoryId: string;

  beforeAll(async () => {
    store = await openTestStore(backend);
    server = await startTestServer(backend, { store, env: FAST });
    manager = await accountWithRole(server, 'manager');
    receiver = await startReceiver();
    categoryId = (
      await server.request('POST', '/api/categories', {
        token: manager.idToken,
        body: { name: `Secrets ${Date.now()}` },
      })
    ).body.id;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await store?.close();
  });

  const db = () => store.database.db;
  const withKey = (key: string) => ({ 'idempotency-key': key });
  const storedBodies = async (like: string) =>
    (
      await sql<{ body: string }>`select body from http_idempotency where body like ${`%${like}%`}`.execute(db())
    ).rows.map((r) => r.body);

  it('a replayed token creation answers the same token record without the token, and says it was shown once', async () => {
    const key = `token-${Date.now()}`;
    const body = { name: 'Till replay', permissions: ['inventory:view'], expiresAt: inAWeek() };
    const first = await server.request('POST', '/api/tokens', { token: manager.idToken, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(first.body.token).toMatch(/^srk_/);
    expect((await server.request('GET', '/api/inventory', { token: first.body.token })).status).toBe(200);

    const replay = await server.request('POST', '/api/tokens', { token: manager.idToken, body, headers: withKey(key) });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ apiToken: first.body.apiToken, token: null, secretShownOnce: true });
    expect(JSON.stringify(replay.body)).not.toContain('srk_');
    expect(await storedBodies('srk_')).toEqual([]);
  });

  it('a replayed endpoint creation answers the same endpoint without its signing secret', async () => {
    const key = `hook-${Date.now()}`;
    const body = { url: 'https://hooks.example.com/replayed', eventTypes: ['item.created'] };
    const first = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body,
      headers: withKey(key),
    });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    const replay = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body,
      headers: withKey(key),
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ endpoint: first.body.endpoint, secret: null, secretShownOnce: true });
    expect(await storedBodies('whsec_')).toEqual([]);
  });

  it('signing secrets are in the clear neither in their table nor in events, and deliveries are signed with them', async () => {
    const created = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes: ['item.created'], categoryIds: [categoryId] },
    });
    expect(created.status).toBe(201);
    const secret: string = created.body.secret;
    const id: string = created.body.endpoint.id;
    const rows = await sql<{ secret: string }>`select secret from webhook_secrets`.execute(db());
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      expect(row.secret).toMatch(/^enc:v1:/);
      expect(row.secret).not.toContain('whsec_');
    }
    const secretBody = secret.slice('whsec_'.length);
    const inEvents = await sql<{ n: number }>`select count(*)::int as n from events
      where data::text like '%whsec_%' or metadata::text like '%whsec_%' or strpos(data::text, ${secretBody}) > 0`.execute(
      db(),
    );
    expect(inEvents.rows[0]!.n).toBe(0);

    await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: 'Signed', sku: `SIG-${Date.now()}`, category_id: categoryId, quantity: 1, price: 1, threshold: 0 },
    });
    const test = await server.request('POST', `/api/webhooks/${id}/test`, { token: manager.idToken, body: {} });
    expect(test.status).toBe(202);
    await receiver.waitFor(
      (r) =>
        r.received.some((x) => x.payload.type === 'item.created') &&
        r.received.some((x) => x.id === test.body.messageId),
      30_000,
      'the item and the test event',
    );
    receiver.verifyAll(secret);
    expect(() =>
      receiver.verifyAll(`whsec_${Buffer.from('not the secret at all, 32 bytes').toString('base64')}`),
    ).toThrow();
  });

  it('a secret stored in the clear by an earlier version is sealed at start and still signs', async () => {
    const created = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes: ['item.created'] },
    });
    const id: string = created.body.endpoint.id;
    const plain = `whsec_${Buffer.from('an older version kept this plain').toString('base64')}`;
    await sql`update webhook_secrets set secret = ${plain} where endpoint_id = ${id}`.execute(db());
    const restarted = await startTestServer(backend, { store, env: FAST });
    try {
      const row = await sql<{ secret: string }>`select secret from webhook_secrets where endpoint_id = ${id}`.execute(
        db(),
      );
      expect(row.rows[0]!.secret).toMatch(/^enc:v1:/);
      const test = await restarted.request('POST', `/api/webhooks/${id}/test`, { token: manager.idToken, body: {} });
      await receiver.waitFor((r) => r.received.some((x) => x.id === test.body.messageId), 30_000, 'the test event');
      const signed = receiver.received.filter((x) => x.id === test.body.messageId);
      const { Webhook } = await import('standardwebhooks');
      for (const message of signed) {
        expect(() =>
          new Webhook(plain).verify(message.body, {
            'webhook-id': message.id,
            'webhook-timestamp': message.timestamp,
            'webhook-signature': message.signature,
          }),
        ).not.toThrow();
      }
    } finally {
      await restarted.close();
    }
  });

  it('a server started with another key refuses to start, naming the problem', async () => {
    await expect(startTestServer(backend, { store, env: { SECRETS_KEY: 'b'.repeat(64) } })).rejects.toThrow(
      /secrets key does not open the signing secrets/,
    );
  });
});

describe('the embedded store generates its secrets key into the data folder', { timeout: 120_000 }, () => {
  it('on first start (owner-only), and reuses it on the next', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'stockroom-key-'));
    const store = await openTestStore({ name: 'pglite' });
    try {
      const env = { SECRETS_KEY: '', DATA_DIR: dataDir };
      const first = await startTestServer({ name: 'pglite' }, { store, env });
      const manager = await accountWithRole(first, 'manager');
      const created = await first.request('POST', '/api/webhooks', {
        token: manager.idToken,
        body: { url: 'https://hooks.example.com/k', eventTypes: ['*'] },
      });
      expect(created.status).toBe(201);
      await first.close();
      const file = await stat(path.join(dataDir, 'secrets.key'));
      expect(file.mode & 0o777).toBe(0o600);
      // The next start opens what the first sealed (it would refuse to start otherwise).
      const second = await startTestServer({ name: 'pglite' }, { store, env });
      await second.close();
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
