// Webhooks name the currency of the prices they carry: a new item's price
// and a changed price go out with `data.currency`, the store's currency at that event's place
// in the log (a delivery replayed after the store moved to euros still says its price was in
// dollars); events without a price are sent as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Received, type Receiver } from '../helpers/webhook-receiver.js';

/** Fast polls and retries, as in webhooks-delivery.test.ts (imported, that file's tests would run here too). */
const FAST_WEBHOOKS = {
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '5000',
  WEBHOOK_POLL_MS: '200',
};

describe.each(backends())('webhook currency on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let receiver: Receiver;
  let endpointId: string;
  let itemId: string;
  const dataOf = (r: Received) => r.payload.data.event.data as Record<string, unknown>;
  const ofType = (type: string) => receiver.received.filter((r) => r.payload.data.event.type === type);

  beforeAll(async () => {
    server = await startTestServer(backend, { env: FAST_WEBHOOKS });
    manager = await accountWithRole(server, 'manager');
    receiver = await startReceiver();
    const created = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes: ['item.created', 'item.updated', 'stock.adjusted'] },
    });
    expect(created.status).toBe(201);
    endpointId = created.body.endpoint.id;
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const ok = async (method: string, path: string, body: unknown) => {
    const res = await server.request(method, path, { token: manager.idToken, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };

  it("puts the store's currency beside a new item's price, and nothing beside a stock movement", async () => {
    const category = await ok('POST', '/api/categories', { name: 'Coffee' });
    itemId = (
      await ok('POST', '/api/inventory', {
        name: 'Beans',
        sku: 'CF-1',
        category_id: category.id,
        quantity: 10,
        price: 4.5,
        threshold: 1,
      })
    ).id;
    await ok('POST', `/api/inventory/${itemId}/adjust`, { delta: -1, reason: 'sale' });
    await receiver.waitFor(() => ofType('StockAdjusted').length > 0, 30_000, 'the adjustment');
    const [created] = ofType('ItemCreated');
    expect(dataOf(created!)).toMatchObject({ name: 'Beans', price: 4.5, currency: 'USD' });
    expect(dataOf(ofType('StockAdjusted')[0]!)).not.toHaveProperty('currency');
  });

  it('after the store moves to euros, a changed price goes out in euros; a change without a price as it was', async () => {
    await ok('PUT', '/api/settings', { currency: 'EUR', locale: 'fr-FR' });
    await ok('PUT', `/api/inventory/${itemId}`, { price: 5 });
    await ok('PUT', `/api/inventory/${itemId}`, { description: 'Whole beans' });
    await receiver.waitFor(() => ofType('ItemUpdated').length >= 2, 30_000, 'both updates');
    const [repriced, described] = ofType('ItemUpdated');
    expect(dataOf(repriced!)).toEqual({ changes: { price: { from: 4.5, to: 5 } }, currency: 'EUR' });
    expect(dataOf(described!)).not.toHaveProperty('currency');
  });

  it('a replay from before the move says the first price was in dollars: the currency of its moment', async () => {
    const [created] = ofType('ItemCreated');
    const before = created!.payload.data.cursor!.replace(/:(\d+)$/, (_, p) => `:${Number(p) - 1}`);
    const replay = await server.request('POST', `/api/webhooks/${endpointId}/replay`, {
      token: manager.idToken,
      body: { cursor: before },
    });
    expect(replay.status).toBe(200);
    await receiver.waitFor(
      () => ofType('ItemCreated').length === 2 && ofType('ItemUpdated').length >= 4,
      30_000,
      'the replayed events',
    );
    expect(ofType('ItemCreated').map((r) => dataOf(r).currency)).toEqual(['USD', 'USD']);
    const repricedAgain = ofType('ItemUpdated').filter((r) => r.id === ofType('ItemUpdated')[0]!.id);
    expect(repricedAgain.map((r) => dataOf(r).currency)).toEqual(['EUR', 'EUR']);
  });
});
