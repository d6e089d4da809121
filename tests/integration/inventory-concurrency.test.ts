// Several staff at once: concurrent adjustments all count (they go through the group
// commit: several in one transaction), a batch refuses exactly the adjustment that would go
// below zero, duplicate keys in one batch apply once, concurrent edits of one loaded version
// conflict, and retried creates with their Idempotency-Keys create each item once. After
// each, the projections equal a replay of the events (projections:verify).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, reportMissingServer, serverBackends } from '../helpers/backends.js';
import { itemStream } from '../../shared/inventory-events.js';
import { adjustStock } from '../../server/inventory/decide.js';
import { rowToState, itemColumns, type ItemRow } from '../../server/inventory/item-rows.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { ItemQueries } from '../../server/inventory/item-queries.js';
import { ItemService } from '../../server/inventory/item-service.js';

describe.each(backends())('concurrent writes on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    categoryId = (await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Busy' } }))
      .body.id;
  });
  afterAll(() => server.close());
  afterEach(async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  /** An ItemService of its own on the same store: its adjustments can be lined up in one tick. */
  const service = () => {
    const queries = new ItemQueries(server.store.database.db, server.store.store);
    return new ItemService(server.store.store, queries, { lanes: 1 });
  };
  const meta = (key?: string) => ({
    actor: { uid: 'batch-tester', name: 'Batch Tester' },
    correlationId: 'batch-test',
    ...(key ? { idempotencyKey: key } : {}),
  });
  const stockEvents = async (itemId: string) =>
    (
      await sql<{
        type: string;
        tx: string;
        delta: number | null;
      }>`select type, tx_id::text as tx, (data ->> 'delta')::int as delta
        from events where stream_id = ${`item-${itemId}`} and type <> 'ItemCreated' order by stream_version`.execute(
        server.store.database.db,
      )
    ).rows;

  const createItem = (sku: string, quantity: number, key?: string, threshold = 0) =>
    server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: `Item ${sku}`, sku, category_id: categoryId, quantity, price: 1.25, threshold },
      headers: key ? { 'idempotency-key': key } : {},
    });

  it('a batch whose middle adjustment would go below 0 refuses exactly that one', async () => {
    const item = (await createItem('BATCH-LOW', 5, undefined, 2)).body;
    const items = service();
    // Submitted in one tick: the group commit takes all three into one transaction.
    const results = await Promise.allSettled([
      items.adjust(item.id, { delta: -3, reason: 'sale' }, meta()),
      items.adjust(item.id, { delta: -3, reason: 'sale' }, meta()),
      items.adjust(item.id, { delta: 1, reason: 'restock' }, meta()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const [first, refused, third] = results;
    expect((first as PromiseFulfilledResult<{ quantity: number }>).value.quantity).toBe(2);
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ status: 409, message: 'Insufficient stock' });
    expect((third as PromiseFulfilledResult<{ quantity: number; version: number }>).value).toMatchObject({
      quantity: 3,
    });
    const events = await stockEvents(item.id);
    expect(events.filter((e) => e.type === 'StockAdjusted').map((e) => e.delta)).toEqual([-3, 1]);
    // One transaction (one commit) for the batch, low-stock crossings included.
    expect(new Set(events.map((e) => e.tx)).size).toBe(1);
    const now = await server.request('GET', `/api/inventory/${item.id}`, { token: manager.idToken });
    expect(now.body).toMatchObject({
      quantity: 3,
      version: (third as PromiseFulfilledResult<{ version: number }>).value.version,
    });
  });

  it('duplicate idempotency keys inside one batch apply once', async () => {
    const item = (await createItem('BATCH-KEY', 10)).body;
    const items = service();
    const answers = await Promise.all([
      items.adjust(item.id, { delta: 2, reason: 'restock' }, meta('batch-key-1')),
      items.adjust(item.id, { delta: 2, reason: 'restock' }, meta('batch-key-1')),
      items.adjust(item.id, { delta: 1, reason: 'restock' }, meta()),
      items.adjust(item.id, { delta: 2, reason: 'restock' }, meta('batch-key-1')),
    ]);
    expect(answers.map((a) => a.quantity)).toEqual([12, 12, 13, 13]);
    const events = await stockEvents(item.id);
    expect(events.map((e) => e.delta)).toEqual([2, 1]);
    expect(new Set(events.map((e) => e.tx)).size).toBe(1);
    // A later retry of the same key writes nothing either.
    expect((await items.adjust(item.id, { delta: 2, reason: 'restock' }, meta('batch-key-1'))).quantity).toBe(13);
    expect(await stockEvents(item.id)).toHaveLength(2);
    const keys = await sql<{
      n: number;
    }>`select count(*)::int as n from event_idempotency where key = 'batch-key-1'`.execute(server.store.database.db);
    expect(keys.rows[0]!.n).toBe(1);
  });

  it('an adjustment whose prepared append is gone from its connection prepares it again', async () => {
    const item = (await createItem('PREPARED-GONE', 10)).body;
    const items = service();
    expect((await items.adjust(item.id, { delta: 1, reason: 'restock' }, meta())).quantity).toBe(11);
    // As after a reconnect that got the same backend id: the statement this process prepared
    // is gone. (PGlite has one connection, so this always hits it; on PostgreSQL it hits one
    // of the pool's.) The batch's transaction runs again and prepares it anew.
    await sql`deallocate all`.execute(server.store.database.db);
    expect((await items.adjust(item.id, { delta: 1, reason: 'restock' }, meta())).quantity).toBe(12);
    expect((await items.adjust(item.id, { delta: -2, reason: 'sale' }, meta())).quantity).toBe(10);
    expect((await stockEvents(item.id)).map((e) => e.delta)).toEqual([1, 1, -2]);
  });

  it('the same request sent eight times at once with one Idempotency-Key adjusts once', async () => {
    const item = (await createItem('HTTP-KEY', 10)).body;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.request('POST', `/api/inventory/${item.id}/adjust`, {
          token: manager.idToken,
          body: { delta: 5, reason: 'restock' },
          headers: { 'idempotency-key': 'same-adjust-8' },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => r.body.quantity))).toEqual(new Set([15]));
    expect((await stockEvents(item.id)).map((e) => e.delta)).toEqual([5]);
  });

  it('answers a repeated adjustment with its stored answer, and another body with the same key with 422', async () => {
    const item = (await createItem('HTTP-REPLAY', 10)).body;
    const send = (delta: number) =>
      server.request('POST', `/api/inventory/${item.id}/adjust`, {
        token: manager.idToken,
        body: { delta, reason: 'restock' },
        headers: { 'idempotency-key': 'replay-adjust-1' },
      });
    const first = await send(3);
    expect(first.status).toBe(200);
    // Another adjustment in between: the replay is the first answer, not the item as it now is.
    await server.request('POST', `/api/inventory/${item.id}/adjust`, {
      token: manager.idToken,
      body: { delta: 1, reason: 'restock' },
    });
    const again = await send(3);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.quantity).toBe(13);
    expect((await send(4)).status).toBe(422);
    expect((await stockEvents(item.id)).map((e) => e.delta)).toEqual([3, 1]);
  });

  it('adjustments of many items at once all count, several items to a transaction', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createItem(`MANY-${i}`, 6, undefined, 3)));
    const ids = created.map((r) => r.body.id as string);
    const items = service();
    // Down through the low-stock threshold and back, twice, and down again, for every item, all at once.
    const deltas = [-4, -2, 5, -5, 6, -5];
    const results = await Promise.all(
      ids.flatMap((id) =>
        deltas.map((delta) => items.adjust(id, { delta, reason: delta > 0 ? 'restock' : 'sale' }, meta())),
      ),
    );
    expect(results).toHaveLength(ids.length * deltas.length);
    for (const id of ids) {
      const now = await server.request('GET', `/api/inventory/${id}`, { token: manager.idToken });
      expect(now.body.quantity).toBe(1);
    }
    const tx = await sql<{ n: number }>`select count(distinct tx_id)::int as n from events
      where stream_id in (${sql.join(ids.map((id) => `item-${id}`))}) and type <> 'ItemCreated'`.execute(
      server.store.database.db,
    );
    expect(tx.rows[0]!.n).toBeLessThan(ids.length);
  });

  it('an item recovering and falling again in one batch closes its alert and opens a new one', async () => {
    const item = (await createItem('BATCH-ALERT', 1, undefined, 3)).body; // low from the start
    const dismissed = await server.request('POST', `/api/alerts/${item.id}/dismiss`, { token: manager.idToken });
    expect(dismissed.status).toBe(200);
    const items = service();
    await Promise.all([
      items.adjust(item.id, { delta: 5, reason: 'restock' }, meta()),
      items.adjust(item.id, { delta: -5, reason: 'damage' }, meta()),
    ]);
    const events = (await stockEvents(item.id)).slice(1); // after the creation's ItemWentLow
    expect(events.map((e) => e.type)).toEqual(['StockAdjusted', 'ItemRecovered', 'StockAdjusted', 'ItemWentLow']);
    expect(new Set(events.map((e) => e.tx)).size).toBe(1);
    const episodes = await sql<{ open: boolean; cleared_by: string | null }>`select ended_at is null as open, cleared_by
      from low_stock_episodes where item_id = ${item.id} order by started_position`.execute(server.store.database.db);
    expect(episodes.rows).toEqual([
      { open: false, cleared_by: 'restock' },
      { open: true, cleared_by: null },
    ]);
    // The recovery cleared the dismissal: the new fall alerts the manager again.
    const alerts = await server.request('GET', '/api/alerts', { token: manager.idToken });
    const alert = alerts.body.alerts.find((a: { itemId: string }) => a.itemId === item.id);
    expect(alert).toMatchObject({ dismissed: false });
  });

  it('two edits from the same loaded version: one succeeds, one gets 409', async () => {
    const item = (await createItem('EDIT-1', 5)).body;
    const edit = (price: number) =>
      server.request('PUT', `/api/inventory/${item.id}`, {
        token: manager.idToken,
        body: { price },
        headers: { 'if-match': String(item.version) },
      });
    const results = await Promise.all([edit(2), edit(3)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    const winner = results.find((r) => r.status === 200)!;
    expect(loser.body.current.price).toBe(winner.body.price);
  });

  it('200 creates, each retried three times with its key, create exactly 200 items', async () => {
    const before = (await server.request('GET', `/api/categories/${categoryId}`, { token: manager.idToken })).body
      .itemCount;
    const keys = Array.from({ length: 200 }, (_, i) => `retry-create-${i}`);
    const attempts = keys.flatMap((key, i) => [0, 1, 2].map(() => ({ key, sku: `RETRY-${i}` })));
    // Retries race each other: some run concurrently, some after the first finished.
    const statuses: number[] = [];
    for (let start = 0; start < attempts.length; start += 60) {
      const batch = attempts.slice(start, start + 60);
      statuses.push(...(await Promise.all(batch.map((a) => createItem(a.sku, 1, a.key)))).map((r) => r.status));
    }
    expect(statuses.every((s) => s === 201)).toBe(true);
    const after = (await server.request('GET', `/api/categories/${categoryId}`, { token: manager.idToken })).body
      .itemCount;
    expect(after - before).toBe(200);
    const created = await sql<{ n: number }>`select count(*)::int as n from events where type = 'ItemCreated'
      and data->>'sku' like 'RETRY-%'`.execute(server.store.database.db);
    expect(created.rows[0]!.n).toBe(200);
  });
});

// A store of its own: its 10,000 events would make every other case's replay slow.
describe.each(backends())('a storm of adjustments on one item on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    categoryId = (await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Storm' } }))
      .body.id;
  });
  afterAll(() => server.close());

  const createItem = (sku: string, quantity: number) =>
    server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: `Item ${sku}`, sku, category_id: categoryId, quantity, price: 1.25, threshold: 0 },
    });

  // 50 writers at once, 80 requests each, on PostgreSQL, where writers really overlap: enough
  // for every batch to meet others in flight (the bench measures the rate; a longer storm only
  // cost CI a minute). PGlite runs one statement at a time, so 50 x 40 shows the same batching.
  const perClient = backend.name === 'pglite' ? 40 : 80;
  const total = 50 * perClient;

  it(
    `50 clients sending ${perClient / 2} x +1 and ${perClient / 2} x -1 each end at the starting quantity with ${total} adjustments`,
    { timeout: 300_000 },
    async () => {
      const item = (await createItem('BUSY-1', 100)).body;
      const started = performance.now();
      const staff = await Promise.all(Array.from({ length: 5 }, () => accountWithRole(server, 'staff')));
      const client = async (c: number) => {
        const token = staff[c % staff.length]!.idToken;
        for (let i = 0; i < perClient; i++) {
          const delta = i % 2 === 0 ? 1 : -1;
          const res = await server.request('POST', `/api/inventory/${item.id}/adjust`, {
            token,
            body: { delta, reason: delta > 0 ? 'restock' : 'sale' },
          });
          expect(res.status).toBe(200);
        }
      };
      await Promise.all(Array.from({ length: 50 }, (_, c) => client(c)));
      const after = await server.request('GET', `/api/inventory/${item.id}`, { token: manager.idToken });
      expect(after.body.quantity).toBe(100);
      expect(after.body.version).toBe(total + 1);
      const count = await sql<{
        n: number;
        transactions: number;
      }>`select count(*)::int as n, count(distinct tx_id)::int as transactions
      from events where stream_id = ${`item-${item.id}`} and type = 'StockAdjusted'`.execute(server.store.database.db);
      expect(count.rows[0]!.n).toBe(total);
      // Group commit: adjustments that waited for the item's transaction went together.
      expect(count.rows[0]!.transactions).toBeLessThan(total);
      const moves = await sql<{
        n: number;
        sum: number;
      }>`select count(*)::int as n, sum(delta)::int as sum from stock_movements
      where item_id = ${item.id}`.execute(server.store.database.db);
      expect(moves.rows[0]).toEqual({ n: total, sum: 0 });
      console.log(
        `${total} adjustments of one item on ${backend.name}: ${Math.round(total / ((performance.now() - started) / 1000))}/s`,
      );
      expect(await verifyProjections(server.store.store)).toEqual([]);
    },
  );
});

// PostgreSQL only: on PGlite one connection runs one thing at a time, so no writer can hold the row meanwhile.
reportMissingServer('a batch meeting another writer on the row');
describe.each(serverBackends())('a batch meeting another writer on the row on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
  });
  afterAll(() => server.close());

  it('waits for the row and decides on what the other writer left', async () => {
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Slip' },
    });
    const created = await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: 'Slipper', sku: 'SLIP-1', category_id: category.body.id, quantity: 10, price: 3, threshold: 0 },
    });
    const id = created.body.id as string;
    const store = server.store.store;
    const db = server.store.database.db;
    const items = new ItemService(store, new ItemQueries(db, store), { lanes: 1 });
    const meta = { actor: { uid: 'slip', name: 'Slip' }, correlationId: 'slip' };

    let locked!: () => void;
    const rowLocked = new Promise<void>((resolve) => (locked = resolve));
    let release!: () => void;
    const go = new Promise<void>((resolve) => (release = resolve));
    // Another writer: locks the row, then (after the batch has read the item) appends +5.
    const other = store.transact(async (trx, append) => {
      const row = (
        await sql<ItemRow>`select ${sql.raw(itemColumns)} from items where id = ${id} for update`.execute(trx)
      ).rows[0]!;
      locked();
      await go;
      await append(
        itemStream(id),
        Number(row.version),
        adjustStock({ delta: 5, reason: 'restock', note: null }, rowToState(row)),
        meta,
      );
    });
    await rowLocked;
    const adjusted = items.adjust(id, { delta: 1, reason: 'sale' }, meta);
    // The batch waits for the row lock before it reads anything.
    await expect
      .poll(async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%from items%for update%'`.execute(db)
          ).rows[0]!.n,
        ),
      )
      .toBe(1);
    release();
    await other;
    expect((await adjusted).quantity).toBe(16);
    const events = await sql<{
      delta: number;
      v: number;
    }>`select (data ->> 'delta')::int as delta, stream_version as v from events
      where stream_id = ${`item-${id}`} and type = 'StockAdjusted' order by stream_version`.execute(db);
    expect(events.rows).toEqual([
      { delta: 5, v: 2 },
      { delta: 1, v: 3 },
    ]);
    expect(await verifyProjections(store)).toEqual([]);
  });
});
