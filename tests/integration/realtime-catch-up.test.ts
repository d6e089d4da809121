// The feed's cursor contract with real WebSocket clients against a real server: a client
// that reconnects with its cursor gets exactly what it missed, in commit order, then live
// events, with no gap and no duplicate, even while writers keep committing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed, type EventMessage, type FeedClient } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const WRITERS = 20;
const PER_WRITER = 25;

// Generous waits: on a shared PostgreSQL, another client's open transaction holds back what
// any gap-safe reader may see (by design), so delivery can pause while other suites run.
describe.each(backends())('feed catch-up on $name', { timeout: 180_000 }, (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let itemIds: string[];
  const open: FeedClient[] = [];

  async function feed(options: { cursor?: string; token?: string } = {}): Promise<FeedClient> {
    const client = await connectFeed(server.url, { token: options.token ?? staff.idToken, cursor: options.cursor });
    open.push(client);
    await client.waitFor((m) => m.some((x) => x.type === 'hello'), 15_000, 'hello');
    return client;
  }

  async function adjust(itemId: string, delta = 1): Promise<void> {
    const res = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta, reason: 'restock' },
    });
    expect(res.status).toBe(200);
  }

  /** 20 concurrent writers, each adjusting its own item 25 times: 500 events. */
  async function writeConcurrently(): Promise<void> {
    await Promise.all(
      itemIds.map(async (id) => {
        for (let i = 0; i < PER_WRITER; i++) await adjust(id);
      }),
    );
  }

  /** Cursors after `after` in the store's commit order, straight from the events table. */
  async function committedAfter(after: string): Promise<string[]> {
    const [txId, position] = after.split(':');
    const rows = await sql<{ cursor: string }>`select tx_id::text || ':' || position as cursor from events
      where (tx_id, position) > (${txId}::xid8, ${Number(position)}::bigint) order by tx_id, position`.execute(
      server.store.database.db,
    );
    return rows.rows.map((r) => r.cursor);
  }

  const cursorsOf = (events: EventMessage[]) => events.map((e) => e.cursor);

  /** The client's event for this item (its first one after setup, whatever arrived before it). */
  const eventOn = async (client: FeedClient, itemId: string): Promise<EventMessage> =>
    (await client.waitForMatching((e) => e.stream === `item-${itemId}`))[0]!;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    staff = await accountWithRole(server, 'staff');
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Feed tests' },
    });
    expect(category.status).toBe(201);
    itemIds = [];
    for (let i = 0; i < WRITERS; i++) {
      const item = await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: {
          name: `Feed item ${i}`,
          sku: `FEED-${i}-${Date.now()}`,
          category_id: category.body.id,
          quantity: 1000,
          price: 1,
          threshold: 0,
        },
      });
      expect(item.status).toBe(201);
      itemIds.push(item.body.id);
    }
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.close();
  });

  it('replays exactly the 500 events committed by 20 writers while away, in commit order, then live ones', async () => {
    const first = await feed();
    await adjust(itemIds[0]!);
    const { cursor } = await eventOn(first, itemIds[0]!);
    await first.close();

    await writeConcurrently();
    const missed = await committedAfter(cursor);
    expect(missed).toHaveLength(WRITERS * PER_WRITER);

    const again = await feed({ cursor });
    const replayed = await again.waitForEvents(missed.length);
    expect(cursorsOf(replayed)).toEqual(missed);
    expect(replayed.every((e) => e.event.type === 'StockAdjusted' && e.event.streamType === 'item')).toBe(true);
    // The store's gap-safe reader from the start agrees too.
    const fromStart = await server.store.store.readAfter({ txId: '0', position: 0 }, 100_000);
    const fromStartCursors = fromStart.map((e) => `${e.txId}:${e.position}`);
    expect(fromStartCursors.slice(fromStartCursors.indexOf(cursor) + 1)).toEqual(missed);

    await adjust(itemIds[1]!);
    await adjust(itemIds[2]!);
    const all = await again.waitForEvents(missed.length + 2);
    expect(cursorsOf(all)).toEqual(await committedAfter(cursor));
    expect(all.slice(-2).map((e) => e.event.stream)).toEqual([`item-${itemIds[1]}`, `item-${itemIds[2]}`]);
    // hello came first, with the server's cursor at connect: one of the committed events.
    expect(again.messages[0]).toEqual({ type: 'hello', cursor: expect.any(String) });
    expect([cursor, ...missed]).toContain((again.messages[0] as { cursor: string }).cursor);
  });

  it('hands over from catch-up to live without gap or duplicate while writers keep committing', async () => {
    const witness = await feed(); // connected throughout: sees everything live
    const leaver = await feed();
    await adjust(itemIds[3]!);
    const seen = await eventOn(leaver, itemIds[3]!);
    await leaver.close();

    const writing = writeConcurrently();
    await witness.waitForEvents(1 + 150); // reconnect mid-way
    const back = await feed({ cursor: seen.cursor });
    await writing;

    const expected = await committedAfter(seen.cursor);
    expect(expected).toHaveLength(WRITERS * PER_WRITER);
    const received = await back.waitForEvents(expected.length);
    await witness.waitFor(() => cursorsOf(witness.events()).includes(expected.at(-1)!), 60_000, 'the last write');
    const witnessed = cursorsOf(witness.events());
    expect(cursorsOf(received)).toEqual(expected);
    expect(witnessed.slice(witnessed.indexOf(seen.cursor) + 1)).toEqual(expected);
    expect(new Set(cursorsOf(received)).size).toBe(received.length);
  });

  it('asks for a snapshot on a garbled or unknown cursor, then goes live from its hello cursor', async () => {
    for (const cursor of ['not-a-cursor', '99999999:99999999']) {
      const client = await feed({ cursor });
      await client.waitFor((m) => m.some((x) => x.type === 'snapshot-required'), 15_000, 'snapshot-required');
      expect(client.messages.slice(0, 2)).toEqual([
        { type: 'hello', cursor: expect.stringMatching(/^\d+:\d+$/) },
        { type: 'snapshot-required', reason: 'Unknown cursor' },
      ]);
      await adjust(itemIds[4]!);
      const [live] = await client.waitForEvents(1);
      expect(live!.event.stream).toBe(`item-${itemIds[4]}`);
      await client.close();
    }
  });

  it('asks for a snapshot when the cursor is further behind than the server replays', async () => {
    const strict = await startTestServer(backend, { store: server.store, env: { REALTIME_MAX_CATCH_UP_EVENTS: '3' } });
    try {
      const client = await connectFeed(strict.url, { token: staff.idToken });
      await client.waitFor((m) => m.some((x) => x.type === 'hello'));
      const hello = client.messages[0] as { cursor: string };
      for (let i = 0; i < 4; i++) await adjust(itemIds[5]!);
      // "Behind" is measured against what the server has read: wait until it has read them.
      await client.waitForEvents(4);
      await client.close();
      const late = await connectFeed(strict.url, { token: staff.idToken, cursor: hello.cursor });
      await late.waitFor((m) => m.some((x) => x.type === 'snapshot-required'));
      expect(late.messages[1]).toEqual({
        type: 'snapshot-required',
        reason: 'Cursor too old: more than 3 events were missed',
      });
      expect(late.events()).toEqual([]);
      await late.close();

      // Within the limit it replays instead.
      const near = await connectFeed(strict.url, { token: staff.idToken });
      await near.waitFor((m) => m.some((x) => x.type === 'hello'));
      const from = (near.messages[0] as { cursor: string }).cursor;
      await near.close();
      for (let i = 0; i < 3; i++) await adjust(itemIds[5]!);
      const resumed = await connectFeed(strict.url, { token: staff.idToken, cursor: from });
      await resumed.waitFor((m) => m.some((x) => x.type === 'hello'));
      expect(resumed.messages[1]?.type).not.toBe('snapshot-required');
      expect(cursorsOf(await resumed.waitForEvents(3))).toEqual(await committedAfter(from));
      await resumed.close();
    } finally {
      await strict.close();
    }
  });
});
