// The server outlives its database's restarts and a cut network. Faults are injected without
// touching the machine's shared PostgreSQL: the app's own backends are terminated with
// pg_terminate_backend, and a TCP proxy between app and database cuts every connection.
// Throughout: the process lives, requests answer only 200 or 503 (with Retry-After), every
// acknowledged write is kept exactly once, the projections match a rebuild, and a feed
// client connected the whole time receives every acknowledged event exactly once.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../server/db/database.js';
import { EventStore } from '../../server/eventstore/event-store.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { projections } from '../../server/features.js';
import { openTestStore, reportMissingServer, serverBackends, type TestStore } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed, type FeedClient } from '../helpers/feed-client.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

reportMissingServer('database faults');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(serverBackends())('database faults on $name', (backend) => {
  const appName = `stockroom-faults-${randomBytes(4).toString('hex')}`;
  let direct: TestStore;
  let proxy: TcpProxy;
  let proxied: TestStore;
  let server: TestServer;
  let other: TestServer;
  let manager: TestAccount;
  let feed: FeedClient;
  let categoryId: string;
  let admin: pg.Client;

  beforeAll(async () => {
    direct = await openTestStore(backend);
    const target = new URL(backend.url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const database = await openDatabase({
      url: proxy.url(backend.url!),
      schema: direct.schema,
      poolSize: 20,
      connectTimeoutMs: 2000,
      applicationName: appName,
    });
    proxied = {
      database,
      store: new EventStore(database.db, projections),
      schema: direct.schema,
      close: () => database.close(),
    };
    // No backstop poll: events written by the other instance reach this one's feed only
    // through LISTEN, so the test sees whether the LISTEN connection came back.
    server = await startTestServer(backend, { store: proxied, env: { REALTIME_POLL_MS: '0' } });
    other = await startTestServer(backend, { store: direct });
    manager = await accountWithRole(server, 'manager');
    categoryId = (await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Faults' } }))
      .body.id;
    feed = await connectFeed(server.url, { token: manager.idToken });
    await feed.waitFor((m) => m.some((x) => x.type === 'hello'));
    admin = new pg.Client({ connectionString: backend.url });
    await admin.connect();
  });

  afterAll(async () => {
    await feed?.close();
    await admin?.end();
    await server?.close();
    await other?.close();
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
  });

  const createItem = async (sku: string, quantity: number) =>
    (
      await server.request('POST', '/api/inventory', {
        token: manager.idToken,
        body: { name: `Item ${sku}`, sku, category_id: categoryId, quantity, price: 1, threshold: 0 },
      })
    ).body as { id: string };

  interface Outcome {
    statuses: number[];
    transportErrors: string[];
    acknowledged: Array<{ itemId: string; delta: number; key: string }>;
    retryAfterMissing: number;
  }
  const newOutcome = (): Outcome => ({ statuses: [], transportErrors: [], acknowledged: [], retryAfterMissing: 0 });

  /** One write as the client sends it: retried with the same Idempotency-Key while the answer is 503. */
  async function adjustUntilAcknowledged(itemId: string, delta: number, key: string, outcome: Outcome): Promise<void> {
    for (let attempt = 0; attempt < 200; attempt++) {
      let res;
      try {
        res = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
          token: manager.idToken,
          body: { delta, reason: delta > 0 ? 'restock' : 'sale' },
          headers: { 'idempotency-key': key },
        });
      } catch (error) {
        outcome.transportErrors.push((error as Error).message);
        await sleep(100);
        continue;
      }
      outcome.statuses.push(res.status);
      if (res.status === 200) {
        outcome.acknowledged.push({ itemId, delta, key });
        return;
      }
      if (res.status !== 503) return;
      expect(res.body).toEqual({ error: 'Database unavailable, try again shortly' });
      if (!res.headers.get('retry-after')) outcome.retryAfterMissing++;
      await sleep(Math.min(500, 50 * (attempt + 1)));
    }
    throw new Error(`write ${key} was never acknowledged`);
  }

  async function storm(
    items: string[],
    writers: number,
    keepGoing: () => boolean,
    prefix: string,
    outcome = newOutcome(),
  ): Promise<Outcome> {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; keepGoing() && i < 1000; i++) {
          const itemId = items[(w + i) % items.length]!;
          await adjustUntilAcknowledged(itemId, i % 3 === 0 ? -1 : 1, `${prefix}-${w}-${i}`, outcome);
        }
      }),
    );
    return outcome;
  }

  /** Every acknowledged write is in the log once, the items add up, and the feed sent each event once. */
  async function expectAllKeptOnce(items: string[], start: number, outcome: Outcome): Promise<void> {
    expect(outcome.transportErrors).toEqual([]);
    expect(outcome.statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(outcome.retryAfterMissing).toBe(0);
    const db = direct.database.db;
    const streams = items.map((id) => `item-${id}`);
    const logged = await sql<{
      key: string;
      n: number;
    }>`select metadata->>'idempotencyKey' as key, count(*)::int as n from events
      where stream_id in (${sql.join(streams)}) and type = 'StockAdjusted' group by 1`.execute(db);
    const keys = new Set(outcome.acknowledged.map((a) => a.key));
    expect(logged.rows.length).toBe(keys.size);
    expect(logged.rows.every((r) => r.n === 1)).toBe(true);
    for (const itemId of items) {
      const expected =
        start + outcome.acknowledged.filter((a) => a.itemId === itemId).reduce((sum, a) => sum + a.delta, 0);
      const res = await other.request('GET', `/api/inventory/${itemId}`, { token: manager.idToken });
      expect(res.body.quantity).toBe(expected);
    }
    // The log's commit-safe order (the feed's and the rebuild's) agrees with each stream's versions.
    const outOfOrder = await sql<any>`select stream_id, stream_version, tx_id::text, position, rn from (
        select stream_id, stream_version, tx_id, position, row_number() over (partition by stream_id order by tx_id, position) as rn
        from events where stream_id in (${sql.join(streams)})) o where rn <> stream_version`.execute(db);
    if (outOfOrder.rows.length) {
      const s = outOfOrder.rows[0].stream_id;
      const all =
        await sql<any>`select stream_version, tx_id::text, position, created_at, data from events where stream_id = ${s} order by stream_version`.execute(
          db,
        );
      console.log(
        JSON.stringify(outOfOrder.rows.slice(0, 6)),
        all.rows.map((r: any) => `${r.stream_version}:${r.tx_id}:${r.position}`).join(' '),
      );
    }
    expect(outOfOrder.rows).toEqual([]);
    expect(await verifyProjections(direct.store)).toEqual([]);

    // A marker written after everything else: once the feed has it, it has sent all before it.
    const marker = await createItem(`MARK-${randomBytes(3).toString('hex')}`, 1);
    await feed.waitForMatching((e) => e.stream === `item-${marker.id}`, 1, 30_000);
    const seen = feed.events().filter((m) => streams.includes(m.event.stream) && m.event.type === 'StockAdjusted');
    const ids = seen.map((m) => `${m.event.stream}@${m.event.version}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(keys.size);
  }

  it('terminating the app backends in the middle of a 20-writer storm loses nothing and doubles nothing', async () => {
    const items = await Promise.all([1, 2, 3, 4].map((n) => createItem(`TERM-${n}`, 10_000)));
    const ids = items.map((i) => i.id);
    let writing = true;
    const live = newOutcome();
    const running = storm(ids, 20, () => writing, 'term', live);
    let terminated = 0;
    // Four rounds at least, and on until the storm has had 100 writes acknowledged (a slow,
    // busy machine gets fewer done per round), so every check below has something to count.
    const deadline = Date.now() + 60_000;
    for (let round = 0; round < 4 || (live.acknowledged.length <= 100 && Date.now() < deadline); round++) {
      await sleep(400);
      const killed = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()`,
        [appName],
      );
      terminated += killed.rows.filter((r) => r.ok).length;
    }
    await sleep(400);
    writing = false;
    const outcome = await running;
    expect(terminated).toBeGreaterThan(0);
    expect(outcome.acknowledged.length).toBeGreaterThan(100);
    await expectAllKeptOnce(ids, 10_000, outcome);
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });

  it('a 5-second network cut answers 503 (health too), then resumes by itself, with LISTEN back', async () => {
    const items = await Promise.all([1, 2, 3].map((n) => createItem(`CUT-${n}`, 10_000)));
    const ids = items.map((i) => i.id);
    let writing = true;
    const running = storm(ids, 10, () => writing, 'cut');
    await sleep(300);
    proxy.cut();
    const health = await server.request('GET', '/api/health');
    const read = await server.request('GET', `/api/inventory/${ids[0]}`, { token: manager.idToken });
    await sleep(5000 - 2000);
    proxy.restore();
    await sleep(1500);
    writing = false;
    const outcome = await running;

    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ databaseStatus: 'down', error: 'Database unavailable, try again shortly' });
    expect(read.status).toBe(503);
    expect(read.headers.get('retry-after')).toBeTruthy();
    expect(outcome.statuses).toContain(503);
    expect(outcome.acknowledged.length).toBeGreaterThan(20);
    await expectAllKeptOnce(ids, 10_000, outcome);
    expect((await server.request('GET', '/api/health')).body).toMatchObject({ status: 'ok', databaseStatus: 'up' });

    // The other instance's write reaches this instance's feed only by NOTIFY (no poll here).
    const elsewhere = await other.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'From the other instance' },
    });
    expect(elsewhere.status).toBe(201);
    await feed.waitForMatching((e) => e.stream === `category-${elsewhere.body.id}`, 1, 15_000);
  });

  it('a write whose COMMIT was cut off is safe to retry with the same Idempotency-Key', async () => {
    const item = await createItem('COMMIT-1', 50);
    // The append: its statement, or (group commit) the EXECUTE of it prepared on this connection.
    const trap = proxy.dropAfterCommitOf('insert into events', 'execute stockroom_');
    const adjust = () =>
      server.request('POST', `/api/inventory/${item.id}/adjust`, {
        token: manager.idToken,
        body: { delta: -3, reason: 'sale' },
        headers: { 'idempotency-key': 'commit-cut-1' },
      });
    const first = await adjust();
    await trap;
    expect(first.status).toBe(503);
    // The commit did reach PostgreSQL: the change is there although the app could not know.
    // The app hears of the cut before PostgreSQL has finished that COMMIT, so look until it shows.
    const countAdjustments = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from events
        where stream_id = ${`item-${item.id}`} and type = 'StockAdjusted'`.execute(direct.database.db)
      ).rows[0]!.n;
    await vi.waitFor(async () => expect(await countAdjustments()).toBe(1), { timeout: 10_000, interval: 100 });
    const retry = await adjust();
    expect(retry.status).toBe(200);
    expect(retry.body.quantity).toBe(47);
    expect(await countAdjustments()).toBe(1);
    expect(await verifyProjections(direct.store)).toEqual([]);
  });
});
