// Each stream's events reach readers in version order, however the writers race. The feed
// and the projection rebuild read the log in commit-safe order (tx_id, position); PostgreSQL
// can hand a transaction its id while it still waits for the item's row lock, so without care
// a later version can carry an older tx_id: a screen would then apply quantity 10,005 after
// 10,006, and a rebuild would end on the wrong quantity. Two instances write one item here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { openSecondInstanceStore } from '../helpers/second-instance-store.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

reportMissingServer('stream order');

describe.each(serverBackends())('stream order under contention on $name', (backend) => {
  let store: TestStore;
  let secondStore: TestStore;
  let first: TestServer;
  let second: TestServer;
  let manager: TestAccount;

  beforeAll(async () => {
    store = await openTestStore(backend);
    secondStore = await openSecondInstanceStore(backend, store, 20);
    first = await startTestServer(backend, { store });
    second = await startTestServer(backend, { store: secondStore });
    manager = await accountWithRole(first, 'manager');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await secondStore?.close();
    await store?.close();
  });

  it('20 writers on two instances: log, feed and rebuild all follow the item versions', async () => {
    const category = (await first.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Hot' } }))
      .body.id;
    const item = (
      await first.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: { name: 'Hot item', sku: 'HOT-ORDER', category_id: category, quantity: 10_000, price: 2, threshold: 0 },
      })
    ).body;
    const stream = `item-${item.id}`;
    const feed = await connectFeed(first.url, { token: manager.idToken });
    await feed.waitFor((m) => m.some((x) => x.type === 'hello'));

    // Every fifth write is an edit (the locking path); the rest are adjustments (group commit).
    const isEdit = (i: number) => i % 5 === 4;
    const deltaOf = (i: number) => (i % 3 === 0 ? -1 : 2);
    const ops = Array.from({ length: 15 }, (_, i) => i);
    const adjustments = ops.filter((i) => !isEdit(i));
    const writes = 20 * adjustments.length;
    await Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        const server = w % 2 ? second : first;
        for (const i of ops) {
          if (isEdit(i)) {
            const res = await server.request('PUT', `/api/inventory/${item.id}`, {
              token: manager.idToken,
              body: { description: `writer ${w}, write ${i}` },
            });
            expect(res.status).toBe(200);
            continue;
          }
          const delta = deltaOf(i);
          const res = await server.request('POST', `/api/inventory/${item.id}/adjust`, {
            token: manager.idToken,
            body: { delta, reason: delta > 0 ? 'restock' : 'sale' },
          });
          expect(res.status).toBe(200);
        }
      }),
    );

    const outOfOrder = await sql<{ n: number }>`select count(*)::int as n from (
        select stream_version, row_number() over (order by tx_id, position) as rn from events where stream_id = ${stream}) o
      where rn <> stream_version`.execute(store.database.db);
    expect(outOfOrder.rows[0]!.n).toBe(0);

    const received = await feed.waitForMatching(
      (e) => e.stream === stream && e.type === 'StockAdjusted',
      writes,
      30_000,
    );
    const versions = received.map((m) => m.event.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const shown = (received.at(-1)!.event.data as { quantity: number }).quantity;
    const actual = (await first.request('GET', `/api/inventory/${item.id}`, { token: manager.idToken })).body.quantity;
    expect(shown).toBe(actual);
    expect(actual).toBe(10_000 + 20 * adjustments.reduce((sum, i) => sum + deltaOf(i), 0));
    expect(await verifyProjections(store.store)).toEqual([]);
    await feed.close();
  });
});
