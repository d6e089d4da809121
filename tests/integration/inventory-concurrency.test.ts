// Several staff at once: concurrent adjustments all count, concurrent edits of one loaded
// version conflict, and retried creates with their Idempotency-Keys create each item once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe.each(backends())('concurrent writes on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager');
    categoryId = (await server.request('POST', '/api/categories', { token: manager.idToken, body: { name: 'Busy' } })).body.id;
  });
  afterAll(() => server.close());

  const createItem = (sku: string, quantity: number, key?: string) =>
    server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: `Item ${sku}`, sku, category_id: categoryId, quantity, price: 1, threshold: 0 },
      headers: key ? { 'idempotency-key': key } : {},
    });

  it('50 clients sending 20 x +1 and 20 x -1 each end at the starting quantity with 2,000 adjustments', async () => {
    const item = (await createItem('BUSY-1', 100)).body;
    const staff = await Promise.all(Array.from({ length: 5 }, () => accountWithRole(server, 'staff')));
    const client = async (c: number) => {
      const token = staff[c % staff.length]!.idToken;
      for (let i = 0; i < 40; i++) {
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
    const count = await sql<{ n: number }>`select count(*)::int as n from events
      where stream_id = ${`item-${item.id}`} and type = 'StockAdjusted'`.execute(server.store.database.db);
    expect(count.rows[0]!.n).toBe(2000);
    const moves = await sql<{ n: number; sum: number }>`select count(*)::int as n, sum(delta)::int as sum from stock_movements
      where item_id = ${item.id}`.execute(server.store.database.db);
    expect(moves.rows[0]).toEqual({ n: 2000, sum: 0 });
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
    const before = (await server.request('GET', `/api/categories/${categoryId}`, { token: manager.idToken })).body.itemCount;
    const keys = Array.from({ length: 200 }, (_, i) => `retry-create-${i}`);
    const attempts = keys.flatMap((key, i) => [0, 1, 2].map(() => ({ key, sku: `RETRY-${i}` })));
    // Retries race each other: some run concurrently, some after the first finished.
    const statuses: number[] = [];
    for (let start = 0; start < attempts.length; start += 60) {
      const batch = attempts.slice(start, start + 60);
      statuses.push(...(await Promise.all(batch.map((a) => createItem(a.sku, 1, a.key)))).map((r) => r.status));
    }
    expect(statuses.every((s) => s === 201)).toBe(true);
    const after = (await server.request('GET', `/api/categories/${categoryId}`, { token: manager.idToken })).body.itemCount;
    expect(after - before).toBe(200);
    const created = await sql<{ n: number }>`select count(*)::int as n from events where type = 'ItemCreated'
      and data->>'sku' like 'RETRY-%'`.execute(server.store.database.db);
    expect(created.rows[0]!.n).toBe(200);
  });
});
