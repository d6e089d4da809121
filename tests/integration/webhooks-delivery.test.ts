// Webhooks delivered to a real local receiver: every stock adjustment arrives, signed, in
// order per item; a receiver that is down, failing or slow gets everything once it is back,
// with retries spaced out; an endpoint moved to a new URL mid-delivery sends there from then
// on; a server restart mid-delivery loses nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, type Receiver, type Received } from '../helpers/webhook-receiver.js';

/** Fast retries so a test sees several in seconds; everything else as in production. */
export const FAST_WEBHOOKS = {
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_LEASE_MS: '5000',
  WEBHOOK_POLL_MS: '200',
};

/** Per stream, the stream versions in the order each event first arrived. */
function firstSeenVersions(received: Received[]): Map<string, number[]> {
  const seen = new Set<string>();
  const byStream = new Map<string, number[]>();
  for (const r of received) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    const { stream, streamVersion } = r.payload.data.event;
    byStream.set(stream, [...(byStream.get(stream) ?? []), streamVersion]);
  }
  return byStream;
}

/**
 * Each stream's events first arrived in version order. When not, the failure says what came
 * when, and how the log orders that stream's events (tx_id, position): whether the log or the
 * deliverer put them out of order. (Twice in CI at a load of about 6, a stream's version 5
 * arrived before 2, 3 and 4: the deliverer's, after an answer lost to a timeout; see the
 * test of lost answers below.)
 */
async function expectInOrderPerStream(received: Received[], db: Kysely<any>): Promise<void> {
  for (const [stream, versions] of firstSeenVersions(received)) {
    const sorted = [...versions].sort((a, b) => a - b);
    let story = '';
    if (versions.join() !== sorted.join()) {
      const arrivals = received
        .filter((r) => r.payload.data.event.stream === stream)
        .map((r) => `v${r.payload.data.event.streamVersion} cursor ${r.payload.data.cursor} at ${r.at}`);
      const log = await sql<{
        v: number;
        tx: string;
        position: number;
      }>`select stream_version as v, tx_id::text as tx, position
        from events where stream_id = ${stream} order by events.tx_id, events.position`.execute(db);
      story = `\narrivals: ${arrivals.join('; ')}\nthe log's order: ${log.rows.map((r) => `v${r.v}@${r.tx}:${r.position}`).join(' ')}`;
    }
    expect(versions, `${stream}${story}`).toEqual(sorted);
  }
}

describe.each(backends())('webhook delivery on $name', { timeout: 300_000 }, (backend) => {
  let store: TestStore;
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;
  const receivers: Receiver[] = [];

  async function receiverFor(eventTypes: string[]): Promise<{ receiver: Receiver; secret: string; id: string }> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const res = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes },
    });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_/);
    return { receiver, secret: res.body.secret, id: res.body.endpoint.id };
  }

  async function createItems(count: number, prefix: string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: `${prefix} ${i}`,
          sku: `${prefix}-${i}-${Date.now()}`,
          category_id: categoryId,
          quantity: 100_000,
          price: 1,
          threshold: 0,
        },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return ids;
  }

  /** `total` adjustments spread round-robin over the items, `parallel` requests at a time. */
  async function adjust(items: string[], total: number, parallel = 8): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < total) {
          const n = next++;
          const res = await server.request('POST', `/api/inventory/${items[n % items.length]}/adjust`, {
            token: manager.idToken,
            body: { delta: -1, reason: 'sale' },
          });
          expect(res.status).toBe(200);
        }
      }),
    );
  }

  /** The StockAdjusted event ids of these items, from the log. */
  async function adjustedIds(items: string[]): Promise<string[]> {
    const rows = await sql<{ event_id: string }>`select event_id::text as event_id from events
      where type = 'StockAdjusted' and stream_id in (${sql.join(items.map((i) => `item-${i}`))})`.execute(
      store.database.db,
    );
    return rows.rows.map((r) => r.event_id);
  }

  beforeAll(async () => {
    store = await openTestStore(backend);
    server = await startTestServer(backend, { store, env: FAST_WEBHOOKS });
    manager = await accountWithRole(server, 'manager');
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: `Hooks ${Date.now()}` },
    });
    categoryId = category.body.id;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await store?.close();
  });

  it('1,000 adjustments over 20 items reach the receiver signed, in order per item, none missing', async () => {
    const { receiver, secret } = await receiverFor(['stock.adjusted']);
    const items = await createItems(20, 'Bulk');
    await adjust(items, 1000);
    const expected = await adjustedIds(items);
    expect(expected).toHaveLength(1000);
    await receiver.waitFor((r) => r.distinctIds().length >= 1000, 180_000, '1,000 deliveries');
    expect(new Set(receiver.distinctIds())).toEqual(new Set(expected));
    // Only what was asked for: no ItemCreated of the setup.
    expect(receiver.received.every((r) => r.payload.type === 'stock.adjusted')).toBe(true);
    receiver.verifyAll(secret);
    expect(() =>
      receiver.verifyAll(`whsec_${Buffer.from('not the secret at all, 32 bytes').toString('base64')}`),
    ).toThrow();
    await expectInOrderPerStream(receiver.received, store.database.db);
    // Each event's payload names its place in the log.
    expect(receiver.received[0]!.payload.data.cursor).toMatch(/^\d+:\d+$/);
  });

  it('a receiver that is down, then failing, then slow gets everything once back, retries spaced out', async () => {
    const { receiver, id } = await receiverFor(['stock.adjusted']);
    const items = await createItems(2, 'Flaky');
    await receiver.down(); // connection refused
    await adjust(items, 10, 2);
    // Connection refused, retried: the delivery log shows the attempts.
    await waitUntil(async () => {
      const log = await server.request('GET', `/api/webhooks/${id}/deliveries`, { token: manager.idToken });
      return log.body.deliveries.some(
        (d: { status: string; attempts: number }) => d.status === 'retrying' && d.attempts >= 2,
      );
    }, 'retries while connections are refused');
    receiver.mode = { kind: 'status', status: 500 };
    await receiver.up();
    await receiver.waitFor((r) => r.received.length >= 3, 60_000, 'three 500 answers');
    receiver.mode = { kind: 'slow', delayMs: 1500 }; // past WEBHOOK_TIMEOUT_MS: the answer is lost
    await receiver.waitFor((r) => r.received.length >= 5, 60_000, 'two slow answers');
    receiver.mode = { kind: 'ok' };

    const expected = await adjustedIds(items);
    await receiver.waitFor((r) => r.distinctIds().length >= 10, 120_000, 'all ten after recovery');
    expect(new Set(receiver.distinctIds())).toEqual(new Set(expected));
    await expectInOrderPerStream(receiver.received, store.database.db);
    // Everything but the first message arrived once: only the message being retried repeats.
    const first = receiver.received[0]!.id;
    const counts = new Map<string, number>();
    for (const r of receiver.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    for (const [messageId, count] of counts) if (messageId !== first) expect(count, messageId).toBe(1);
    // Retries were spaced out: at least half the base delay between attempts, and growing.
    const attempts = receiver.received.filter((r) => r.id === first).map((r) => r.at);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(4);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(100);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(400);
    // The log shows one row for the retried message, with every attempt counted, now delivered
    // (the log is written a moment after the deliveries: progress is written in batches).
    let row: { status: string; responseCode: number | null; attempts: number } | undefined;
    await waitUntil(async () => {
      const log = await server.request('GET', `/api/webhooks/${id}/deliveries`, { token: manager.idToken });
      row = log.body.deliveries.find((d: { messageId: string }) => d.messageId === first);
      return row?.status === 'delivered';
    }, 'the retried message logged as delivered');
    expect(row).toMatchObject({ status: 'delivered', responseCode: 200 });
    expect(row!.attempts).toBeGreaterThanOrEqual(5);
  });

  it('an endpoint pointed at a new URL mid-delivery: the old one soon gets nothing more, the new one everything after', async () => {
    const { receiver: before, id } = await receiverFor(['stock.adjusted']);
    const after = await startReceiver();
    receivers.push(after);
    const items = await createItems(4, 'Moved');
    // Writes keep coming throughout, so the delivery run never goes idle on its own.
    let writing = true;
    const writes = (async () => {
      while (writing) await adjust(items, 8, 4);
    })();
    await before.waitFor((r) => r.distinctIds().length >= 20, 60_000, 'deliveries to the first URL');
    const moved = await server.request('PATCH', `/api/webhooks/${id}`, {
      token: manager.idToken,
      body: { url: after.url },
    });
    expect(moved.status).toBe(200);
    await after.waitFor((r) => r.distinctIds().length >= 20, 60_000, 'deliveries to the new URL');
    const oldCount = before.received.length;
    await after.waitFor((r) => r.distinctIds().length >= 60, 60_000, 'more deliveries to the new URL');
    writing = false;
    await writes;
    expect(before.received.length).toBe(oldCount);
    const expected = await adjustedIds(items);
    await after.waitFor(
      (r) => new Set([...before.distinctIds(), ...r.distinctIds()]).size >= expected.length,
      60_000,
      'every adjustment at one URL or the other',
    );
    expect(new Set([...before.distinctIds(), ...after.distinctIds()])).toEqual(new Set(expected));
    await expectInOrderPerStream(after.received, store.database.db);
  });

  it('a server restart in the middle of delivery loses nothing', async () => {
    const { receiver } = await receiverFor(['stock.adjusted']);
    // Slow enough that 200 take seconds even with several messages in flight.
    receiver.mode = { kind: 'slow', delayMs: 500 };
    const items = await createItems(5, 'Restart');
    await adjust(items, 200);
    await receiver.waitFor((r) => r.distinctIds().length >= 20, 60_000, 'the first deliveries');
    await server.close();
    expect(receiver.distinctIds().length).toBeLessThan(200); // stopped in the middle
    server = await startTestServer(backend, { store, env: FAST_WEBHOOKS });
    receiver.mode = { kind: 'ok' };
    const expected = await adjustedIds(items);
    await receiver.waitFor((r) => r.distinctIds().length >= 200, 120_000, 'every delivery after the restart');
    expect(new Set(receiver.distinctIds())).toEqual(new Set(expected));
    await expectInOrderPerStream(receiver.received, store.database.db);
  });

  it('answers lost to timeouts now and then while adjustments keep coming: every item still first arrives in order, none missing', async () => {
    // Once a send has failed, nothing of its stream may go out ahead of the retry. (A message
    // once did, ahead of its stream's messages waiting for the retry, and was then skipped as
    // delivered.)
    await server.close();
    server = await startTestServer(backend, { store, env: { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '100' } });
    const { receiver } = await receiverFor(['stock.adjusted']);
    receiver.mode = { kind: 'slowEvery', every: 25, delayMs: 250 };
    const items = await createItems(10, 'Lost');
    await adjust(items, 300, 4);
    const expected = await adjustedIds(items);
    await receiver.waitFor((r) => r.distinctIds().length >= 300, 120_000, 'all 300 despite the lost answers');
    expect(receiver.received.length).toBeGreaterThan(300); // answers were lost: some went twice
    expect(new Set(receiver.distinctIds())).toEqual(new Set(expected));
    await expectInOrderPerStream(receiver.received, store.database.db);
  });

  it('more endpoints than WEBHOOK_CONCURRENCY take turns: each gets every event', async () => {
    // The earlier tests' endpoints are still there and caught up: always due, they once took
    // the only slot scan after scan, and endpoints after them in the table got nothing.
    await server.close();
    server = await startTestServer(backend, { store, env: { ...FAST_WEBHOOKS, WEBHOOK_CONCURRENCY: '1' } });
    const hooks = await Promise.all([1, 2, 3].map(() => receiverFor(['stock.adjusted'])));
    const items = await createItems(2, 'Turns');
    await adjust(items, 20, 2);
    const expected = await adjustedIds(items);
    for (const { receiver } of hooks) {
      await receiver.waitFor(
        (r) => expected.every((id) => r.distinctIds().includes(id)),
        60_000,
        'every adjustment at each endpoint',
      );
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
