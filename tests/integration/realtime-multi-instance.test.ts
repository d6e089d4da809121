// Two server instances on one PostgreSQL: an event committed through one instance reaches
// WebSocket clients of the other. The backstop poll is off on both, so only the after-commit
// NOTIFY can have woken the other instance's dispatcher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed, type FeedClient } from '../helpers/feed-client.js';
import { openSecondInstanceStore } from '../helpers/second-instance-store.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const NO_POLL = { REALTIME_POLL_MS: '0' };

reportMissingServer('feed across instances');

describe.each(serverBackends())('feed across instances on $name', { timeout: 120_000 }, (backend) => {
  let storeA: TestStore;
  let storeB: TestStore;
  let a: TestServer;
  let b: TestServer;
  let staff: TestAccount;
  let itemId: string;
  const open: FeedClient[] = [];

  async function feed(server: TestServer, cursor?: string): Promise<FeedClient> {
    const client = await connectFeed(server.url, { token: staff.idToken, cursor });
    open.push(client);
    await client.waitFor((m) => m.some((x) => x.type === 'hello'));
    return client;
  }

  beforeAll(async () => {
    storeA = await openTestStore(backend, { poolSize: 10 });
    storeB = await openSecondInstanceStore(backend, storeA);
    a = await startTestServer(backend, { store: storeA, env: NO_POLL });
    b = await startTestServer(backend, { store: storeB, env: NO_POLL });
    const manager = await accountWithRole(a, 'manager');
    staff = await accountWithRole(a, 'staff');
    const category = await a.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Two instances' },
    });
    const item = await a.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: {
        name: 'Shared Widget',
        sku: `SW-${Date.now()}`,
        category_id: category.body.id,
        quantity: 10,
        price: 3,
        threshold: 2,
      },
    });
    expect(item.status).toBe(201);
    itemId = item.body.id;
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await b?.close();
    await a?.close();
    await storeB?.close();
    await storeA?.close();
  });

  /** This item's stock events, not the setup's ItemCreated, which may arrive late. */
  const isStockEvent = (e: { stream: string; type: string }) =>
    e.stream === `item-${itemId}` && e.type !== 'ItemCreated';

  it('an adjustment through instance A reaches a client on instance B, and the other way round', async () => {
    const onB = await feed(b);
    const onA = await feed(a);
    const viaA = await a.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta: -3, reason: 'sale' },
    });
    expect(viaA.status).toBe(200);
    const [event] = await onB.waitForMatching(isStockEvent);
    expect(event!.event).toMatchObject({
      type: 'StockAdjusted',
      stream: `item-${itemId}`,
      data: { delta: -3, quantity: 7 },
    });

    const viaB = await b.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta: 1, reason: 'restock' },
    });
    expect(viaB.status).toBe(200);
    const onAEvents = await onA.waitForMatching(isStockEvent, 2);
    expect(onAEvents.map((e) => (e.event.data as { quantity: number }).quantity)).toEqual([7, 8]);
    // Both instances deliver the same events with the same cursors.
    expect((await onB.waitForMatching(isStockEvent, 2)).map((e) => e.cursor)).toEqual(onAEvents.map((e) => e.cursor));
  });

  it('a low-stock alert raised through A is pushed by B; a client resumes on B with a cursor from A', async () => {
    const onA = await feed(a);
    const onB = await feed(b);
    const res = await a.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta: -7, reason: 'sale' },
    });
    expect(res.status).toBe(200); // 8 - 7 = 1 <= threshold 2
    await onB.waitFor((m) => m.some((x) => x.type === 'alert'));
    expect(onB.messages.find((m) => m.type === 'alert')).toMatchObject({
      item: { id: itemId, name: 'Shared Widget' },
      quantity: 1,
      threshold: 2,
    });

    const seenOnA = await onA.waitForMatching(isStockEvent, 2); // StockAdjusted, ItemWentLow
    expect(seenOnA.map((e) => e.event.type)).toEqual(['StockAdjusted', 'ItemWentLow']);
    const cursorFromA = seenOnA[0]!.cursor;
    await onA.close();
    const resumed = await feed(b, cursorFromA);
    const [replayed] = await resumed.waitForEvents(1);
    expect(replayed).toEqual(seenOnA[1]);
  });
});
