// Two server instances on one PostgreSQL, both running a deliverer: each event reaches the
// receiver exactly once (the endpoint's lease lets one instance deliver at a time), whichever
// instance took the write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { openSecondInstanceStore } from '../helpers/second-instance-store.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const FAST = {
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '10000',
  WEBHOOK_POLL_MS: '200',
};

reportMissingServer('webhooks across instances');

describe.each(serverBackends())('webhooks across instances on $name', { timeout: 300_000 }, (backend) => {
  let storeA: TestStore;
  let storeB: TestStore;
  let a: TestServer;
  let b: TestServer;
  let manager: TestAccount;
  let receiver: Receiver;

  beforeAll(async () => {
    storeA = await openTestStore(backend, { poolSize: 10 });
    storeB = await openSecondInstanceStore(backend, storeA);
    a = await startTestServer(backend, { store: storeA, env: FAST });
    b = await startTestServer(backend, { store: storeB, env: FAST });
    manager = await accountWithRole(a, 'manager');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
    await storeB?.close();
    await storeA?.close();
  });

  it('each event is delivered once, though both instances deliver and both take writes', async () => {
    const created = await a.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes: ['*'] },
    });
    expect(created.status).toBe(201);
    const category = await b.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: `Two ${Date.now()}` },
    });
    const items: string[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 ? b : a;
      const item = await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: `Shared ${i}`,
          sku: `SH-${i}-${Date.now()}`,
          category_id: category.body.id,
          quantity: 1000,
          price: 1,
          threshold: 0,
        },
      });
      items.push(item.body.id);
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        while (next < 300) {
          const n = next++;
          const server = worker % 2 ? b : a;
          const res = await server.request('POST', `/api/inventory/${items[n % items.length]}/adjust`, {
            token: manager.idToken,
            body: { delta: -1, reason: 'sale' },
          });
          expect(res.status).toBe(200);
        }
      }),
    );
    // 1 category + 6 items + 300 adjustments.
    await receiver.waitFor((r) => r.distinctIds().length >= 307, 120_000, 'every event');
    // Some time for a duplicate to show up, if a second instance were delivering too.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.length).toBe(307);
    expect(receiver.distinctIds().length).toBe(307);
    receiver.verifyAll(created.body.secret);
  });
});
