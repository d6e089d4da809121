// Webhook messages of different items go out side by side: a receiver holding one item's
// message (no answer yet) still gets every other item's messages, while that item's next
// messages wait for the answer. A crash with several messages in flight loses nothing, and
// the next holder sends again only those in flight, with the same webhook-ids.
//
// Nothing here depends on speed: the receiver holds messages until the test lets them go,
// and the timeout is far longer than any wait below.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import type { WebhookPayload } from '../../shared/webhooks.js';

const SLOW_TIMEOUT = {
  WEBHOOK_TIMEOUT_MS: '120000',
  WEBHOOK_LEASE_MS: '240000',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_MS: '1000',
  WEBHOOK_POLL_MS: '200',
};

interface Hit {
  id: string;
  stream: string;
  version: number;
}

/** A receiver that answers at once, except requests for the held streams: those wait for release(). */
interface GatedReceiver {
  url: string;
  hits: Hit[];
  hold(streams: string[]): void;
  release(): void;
  distinct(): Set<string>;
  waitFor(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function startGatedReceiver(): Promise<GatedReceiver> {
  const held = new Set<string>();
  const waiting: Array<() => void> = [];
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookPayload;
      const stream = payload.data.event.stream;
      hits.push({ id: String(req.headers['webhook-id']), stream, version: payload.data.event.streamVersion });
      const answer = () => res.end('{}');
      if (held.has(stream)) waiting.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiver: GatedReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hits,
    hold: (streams) => streams.forEach((s) => held.add(s)),
    release() {
      held.clear();
      for (const answer of waiting.splice(0)) answer();
    },
    distinct: () => new Set(hits.map((h) => h.id)),
    async waitFor(condition, what, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${what} (${hits.length} requests, ${receiver.distinct().size} distinct)`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      receiver.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** Per stream, the stream versions in the order each message first arrived, in order. */
function expectInOrderPerStream(hits: Hit[]): void {
  const seen = new Set<string>();
  const byStream = new Map<string, number[]>();
  for (const h of hits) {
    if (seen.has(h.id)) continue;
    seen.add(h.id);
    byStream.set(h.stream, [...(byStream.get(h.stream) ?? []), h.version]);
  }
  for (const [stream, versions] of byStream) expect(versions, stream).toEqual([...versions].sort((a, b) => a - b));
}

describe.each(backends())('webhook messages in flight side by side on $name', { timeout: 300_000 }, (backend) => {
  let store: TestStore;
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;
  const receivers: GatedReceiver[] = [];

  async function endpointFor(): Promise<{ receiver: GatedReceiver; id: string }> {
    const receiver = await startGatedReceiver();
    receivers.push(receiver);
    const res = await server.request('POST', '/api/webhooks', {
      token: manager.idToken,
      body: { url: receiver.url, eventTypes: ['stock.adjusted'] },
    });
    expect(res.status).toBe(201);
    return { receiver, id: res.body.endpoint.id };
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
          quantity: 1000,
          price: 1,
          threshold: 0,
        },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return ids;
  }

  /** `perItem` adjustments of each item, round-robin, four requests at a time. */
  async function adjust(items: string[], perItem: number): Promise<void> {
    let next = 0;
    const total = items.length * perItem;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
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

  async function adjustedIds(items: string[]): Promise<string[]> {
    const rows = await sql<{ event_id: string }>`select event_id::text as event_id from events
      where type = 'StockAdjusted' and stream_id in (${sql.join(items.map((i) => `item-${i}`))})`.execute(
      store.database.db,
    );
    return rows.rows.map((r) => r.event_id);
  }

  beforeAll(async () => {
    store = await openTestStore(backend);
    server = await startTestServer(backend, { store, env: SLOW_TIMEOUT });
    manager = await accountWithRole(server, 'manager');
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: `In flight ${Date.now()}` },
    });
    categoryId = category.body.id;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await store?.close();
  });

  it("a receiver holding one item's message gets every other item's; that item's next messages wait for its answer", async () => {
    const { receiver } = await endpointFor();
    const [slow, ...others] = await createItems(5, 'Held');
    receiver.hold([`item-${slow}`]);
    await adjust([slow!, ...others], 5);
    const otherIds = new Set(await adjustedIds(others));
    expect(otherIds.size).toBe(20);
    // One message at a time would wait on the held one (for the whole two-minute timeout).
    await receiver.waitFor(
      () => [...otherIds].every((id) => receiver.distinct().has(id)),
      "the other items' 20 messages",
    );
    const slowHits = receiver.hits.filter((h) => h.stream === `item-${slow}`);
    expect(slowHits).toHaveLength(1); // its first adjustment, unanswered: the next four wait

    receiver.release();
    const all = new Set(await adjustedIds([slow!, ...others]));
    await receiver.waitFor(() => receiver.distinct().size >= 25, 'all 25 messages');
    expect(receiver.distinct()).toEqual(all);
    expect(receiver.hits).toHaveLength(25); // nothing sent twice
    expectInOrderPerStream(receiver.hits);
  });

  it('a crash with several messages in flight sends again only those, with the same webhook-ids', async () => {
    const { receiver, id } = await endpointFor();
    const items = await createItems(6, 'Crash');
    const held = items.slice(0, 3);
    const free = items.slice(3);
    receiver.hold(held.map((i) => `item-${i}`));
    await adjust(items, 4);
    const freeIds = new Set(await adjustedIds(free));
    await receiver.waitFor(() => [...freeIds].every((m) => receiver.distinct().has(m)), "the free items' 12 messages");
    await receiver.waitFor(() => receiver.hits.length === 15, 'one message of each held item in flight');
    const inFlight = new Set(receiver.hits.filter((h) => !freeIds.has(h.id)).map((h) => h.id));
    expect(inFlight.size).toBe(3);
    // Progress is written in batches: wait until the 12 deliveries are written down.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const logged = await sql<{
        n: number;
      }>`select coalesce(sum(cardinality(message_ids)), 0)::int as n from webhook_delivered
        where endpoint_id = ${id}`.execute(store.database.db);
      if (Number(logged.rows[0]!.n) === 12) break;
      if (Date.now() > deadline) throw new Error('the deliveries were never logged');
      await new Promise((r) => setTimeout(r, 50));
    }

    // The instance dies: another holds the lease now (so this one can write nothing more),
    // and this one goes away without a word; then the dead holder's lease runs out.
    await sql`update webhook_cursors set lease_owner = 'crashed-instance', lease_until = now() + interval '1 hour'
      where endpoint_id = ${id}`.execute(store.database.db);
    await server.close();
    await sql`update webhook_cursors set lease_until = now() - interval '1 second' where endpoint_id = ${id}`.execute(
      store.database.db,
    );
    receiver.release();
    server = await startTestServer(backend, { store, env: SLOW_TIMEOUT });

    const all = new Set(await adjustedIds(items));
    await receiver.waitFor(() => receiver.distinct().size >= 24, 'all 24 messages after the crash');
    expect(receiver.distinct()).toEqual(all);
    const counts = new Map<string, number>();
    for (const h of receiver.hits) counts.set(h.id, (counts.get(h.id) ?? 0) + 1);
    const sentTwice = new Set([...counts].filter(([, n]) => n > 1).map(([m]) => m));
    expect(sentTwice).toEqual(inFlight);
    expect(Math.max(...counts.values())).toBe(2);
    expectInOrderPerStream(receiver.hits);
  });
});
