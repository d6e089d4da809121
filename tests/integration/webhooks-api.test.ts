// /api/webhooks as a manager and as staff: who may, what a URL may be, the secret shown
// once, the test event, replay, and an endpoint that fails for the whole retry window being
// disabled with a reason managers see, then switched on again and catching up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const FAST = {
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '300',
  WEBHOOK_RETRY_FOR_MS: '2000',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '5000',
  WEBHOOK_POLL_MS: '200',
  // A short delivery log, trimmed often, so the trim shows in seconds.
  WEBHOOK_LOG_KEEP: '20',
  WEBHOOK_LOG_TRIM_EVERY_MS: '200',
};

describe.each(backends())('webhooks API on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let receiver: Receiver;
  let categoryId: string;

  beforeAll(async () => {
    server = await startTestServer(backend, { env: FAST });
    manager = await accountWithRole(server, 'manager');
    staff = await accountWithRole(server, 'staff');
    receiver = await startReceiver();
    categoryId = (
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: `Api ${Date.now()}` } })
    ).body.id;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const create = (body: unknown, token = manager.idToken) => server.request('POST', '/api/webhooks', { token, body });

  it('staff may not list or add endpoints', async () => {
    expect((await server.request('GET', '/api/webhooks', { token: staff.idToken })).status).toBe(403);
    const res = await create({ url: receiver.url, eventTypes: ['*'] }, staff.idToken);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "You don't have permission to manage settings" });
  });

  it('checks URLs and bodies; the secret is shown once, never in the list', async () => {
    expect((await create({ url: 'http://example.com/hook', eventTypes: ['*'] })).body).toEqual({
      error: 'URL must use https (or http to localhost while developing)',
    });
    expect((await create({ url: 'not a url', eventTypes: ['*'] })).status).toBe(400);
    expect((await create({ url: receiver.url, eventTypes: ['item.exploded'] })).status).toBe(400);
    expect((await create({ url: receiver.url, eventTypes: ['*'], extra: 1 })).status).toBe(400);
    const ok = await create({
      url: 'https://hooks.example.com/stockroom',
      eventTypes: ['item.created'],
      description: 'Shop',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = await server.request('GET', '/api/webhooks', { token: manager.idToken });
    expect(JSON.stringify(list.body)).not.toContain(ok.body.secret);
    expect(list.body.endpoints.find((e: { id: string }) => e.id === ok.body.endpoint.id)).toMatchObject({
      url: 'https://hooks.example.com/stockroom',
      enabled: true,
      eventTypes: ['item.created'],
    });
    expect(
      (await server.request('DELETE', `/api/webhooks/${ok.body.endpoint.id}`, { token: manager.idToken })).status,
    ).toBe(204);
    expect(
      (await server.request('GET', `/api/webhooks/${ok.body.endpoint.id}`, { token: manager.idToken })).status,
    ).toBe(404);
  });

  it('sends a test event and logs it; replays from a cursor', async () => {
    const created = await create({ url: receiver.url, eventTypes: ['item.created'], categoryIds: [categoryId] });
    const id = created.body.endpoint.id;
    const test = await server.request('POST', `/api/webhooks/${id}/test`, { token: manager.idToken, body: {} });
    expect(test.status).toBe(202);
    await receiver.waitFor((r) => r.received.some((x) => x.id === test.body.messageId), 30_000, 'the test event');
    receiver.verifyAll(created.body.secret);
    await until(async () =>
      (await deliveries(id)).some(
        (d) => d.messageId === test.body.messageId && d.status === 'delivered' && d.responseCode === 200,
      ),
    );

    const other = (
      await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: `Other ${Date.now()}` } })
    ).body.id;
    for (const [name, category] of [
      ['Wanted', categoryId],
      ['Filtered out', other],
    ]) {
      await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: { name, sku: `${name}-${Date.now()}`, category_id: category, quantity: 1, price: 1, threshold: 0 },
      });
    }
    await receiver.waitFor((r) => r.received.some((x) => x.payload.type === 'item.created'), 30_000, 'the item');
    await new Promise((r) => setTimeout(r, 500));
    const items = receiver.received.filter((x) => x.payload.type === 'item.created');
    expect(items.map((x) => (x.payload.data.event.data as { name: string }).name)).toEqual(['Wanted']);

    // Replay from just before it: delivered again, with the same webhook-id.
    const before = items[0]!.payload.data.cursor!.replace(/:(\d+)$/, (_, p) => `:${Number(p) - 1}`);
    const replay = await server.request('POST', `/api/webhooks/${id}/replay`, {
      token: manager.idToken,
      body: { cursor: before },
    });
    expect(replay.status).toBe(200);
    await receiver.waitFor(
      (r) => r.received.filter((x) => x.id === items[0]!.id).length === 2,
      30_000,
      'the replayed item',
    );
    // The log lists it once, delivered twice (a replay turns the batch it was logged in into
    // rows of their own, and the second delivery updates its row).
    await until(async () => (await deliveries(id)).some((d) => d.messageId === items[0]!.id && d.attempts === 2));
    expect((await deliveries(id)).filter((d) => d.messageId === items[0]!.id)).toMatchObject([
      { status: 'delivered', attempts: 2, responseCode: 200 },
    ]);
    expect(
      (await server.request('POST', `/api/webhooks/${id}/replay`, { token: manager.idToken, body: {} })).status,
    ).toBe(400);
    await server.request('DELETE', `/api/webhooks/${id}`, { token: manager.idToken });
  });

  it('an endpoint failing for the whole retry window is disabled, with a reason; switched on again it catches up', async () => {
    const failing = await startReceiver();
    failing.mode = { kind: 'status', status: 503, retryAfter: '0' };
    const created = await create({ url: failing.url, eventTypes: ['item.created'] });
    const id = created.body.endpoint.id;
    await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: {
        name: 'Never arrives',
        sku: `NA-${Date.now()}`,
        category_id: categoryId,
        quantity: 1,
        price: 1,
        threshold: 0,
      },
    });
    await until(
      async () =>
        (await server.request('GET', `/api/webhooks/${id}`, { token: manager.idToken })).body.enabled === false,
      30_000,
    );
    const endpoint = (await server.request('GET', `/api/webhooks/${id}`, { token: manager.idToken })).body;
    expect(endpoint.disabledReason).toBe('Disabled after failing deliveries for too long');
    expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', responseCode: 503 });
    expect(failing.received.length).toBeGreaterThanOrEqual(3);
    // The disable is an event: it shows in the activity log as done by Stockroom.

    failing.mode = { kind: 'ok' };
    const enabled = await server.request('PATCH', `/api/webhooks/${id}`, {
      token: manager.idToken,
      body: { enabled: true },
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    await failing.waitFor((r) => r.received.some((x) => x.answered === 200), 30_000, 'delivery after re-enabling');
    await failing.close();
  });

  it('the delivery log keeps the newest rows per endpoint and lets older ones go', async () => {
    const logged = await startReceiver();
    const { id } = (await create({ url: logged.url, eventTypes: ['stock.adjusted'] })).body.endpoint;
    const item = (
      await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: 'Log item',
          sku: `LOG-${Date.now()}`,
          category_id: categoryId,
          quantity: 100,
          price: 1,
          threshold: 0,
        },
      })
    ).body;
    for (let i = 0; i < 45; i++) {
      expect(
        (
          await server.request('POST', `/api/inventory/${item.id}/adjust`, {
            token: manager.idToken,
            body: { delta: -1, reason: 'sale' },
          })
        ).status,
      ).toBe(200);
    }
    await logged.waitFor((r) => r.distinctIds().length >= 45, 60_000, '45 deliveries');
    // Deliveries are logged a batch per progress write (migration 017), and a batch goes whole:
    // the trim keeps the newest batches until they hold 20 messages, so every batch but the
    // oldest kept one holds fewer than 20 together.
    const batches = async () =>
      (
        await sql<{
          n: number;
        }>`select cardinality(message_ids) as n from webhook_delivered where endpoint_id = ${id} order by id desc`.execute(
          server.store.database.db,
        )
      ).rows.map((r) => Number(r.n));
    const ownRows = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${id}`.execute(
          server.store.database.db,
        )
      ).rows[0]!.n;
    // Progress is written down in batches: wait for the last delivery's row, then for the trim.
    const newest = logged.received.at(-1)!.id;
    await until(async () => (await deliveries(id)).some((d) => d.messageId === newest), 10_000);
    const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
    await until(async () => {
      const kept = await batches();
      return sum(kept) < 45 && sum(kept) >= 20 && sum(kept.slice(0, -1)) < 20;
    }, 30_000);
    expect(await ownRows()).toBe(0);
    // The newest stay: the last adjustment's delivery is still in the log.
    expect((await deliveries(id)).some((d) => d.messageId === newest)).toBe(true);
    await server.request('DELETE', `/api/webhooks/${id}`, { token: manager.idToken });
    await logged.close();
  });

  async function deliveries(
    id: string,
  ): Promise<Array<{ messageId: string; status: string; attempts: number; responseCode: number | null }>> {
    return (await server.request('GET', `/api/webhooks/${id}/deliveries`, { token: manager.idToken })).body.deliveries;
  }
});

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
