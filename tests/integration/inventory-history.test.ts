// An item's history (who, when, why, what changed) and its state as of any past moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends())('item history on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server.close());

  it('lists create, two edits and three adjustments with diffs and actors, and answers asOf between them', async () => {
    const manager = await accountWithRole(server, 'manager', 'Hana Manager');
    const staff = await accountWithRole(server, 'staff', 'Sol Staff');
    const call = (token: string, method: string, path: string, body?: unknown) =>
      server.request(method, path, { token, body }).then((r) => {
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        return r.body;
      });
    const category = await call(manager.idToken, 'POST', '/api/categories', { name: 'Garden' });
    const moments: string[] = [];
    const mark = async () => {
      await pause(15);
      moments.push(new Date().toISOString());
      await pause(15);
    };

    const item = await call(manager.idToken, 'POST', '/api/inventory', {
      name: 'Hose',
      sku: 'G-HOSE',
      category_id: category.id,
      quantity: 10,
      price: 20,
      threshold: 3,
    });
    await mark(); // 0: as created
    await call(manager.idToken, 'PUT', `/api/inventory/${item.id}`, { price: 22.5, description: '15 m' });
    await mark(); // 1: after the first edit
    await call(manager.idToken, 'PUT', `/api/inventory/${item.id}`, { name: 'Garden Hose' });
    await mark(); // 2: after the second edit
    await call(staff.idToken, 'POST', `/api/inventory/${item.id}/adjust`, {
      delta: -4,
      reason: 'sale',
      note: 'weekend',
    });
    await mark(); // 3
    await call(staff.idToken, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -4, reason: 'damage' });
    await mark(); // 4: now low (2 <= 3)
    await call(manager.idToken, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 12, reason: 'restock' });

    const history = await call(manager.idToken, 'GET', `/api/inventory/${item.id}/history`);
    expect(history).toHaveLength(6);
    expect(history.map((h: any) => [h.type, h.actor.name, h.reason])).toEqual([
      ['ItemCreated', 'Hana Manager', null],
      ['ItemUpdated', 'Hana Manager', null],
      ['ItemUpdated', 'Hana Manager', null],
      ['StockAdjusted', 'Sol Staff', 'sale'],
      ['StockAdjusted', 'Sol Staff', 'damage'],
      ['StockAdjusted', 'Hana Manager', 'restock'],
    ]);
    expect(history[1].changes).toEqual([
      { field: 'description', from: '', to: '15 m' },
      { field: 'price', from: 20, to: 22.5 },
    ]);
    expect(history[2].changes).toEqual([{ field: 'name', from: 'Hose', to: 'Garden Hose' }]);
    expect(history[3]).toMatchObject({ delta: -4, note: 'weekend', changes: [{ field: 'quantity', from: 10, to: 6 }] });
    expect(history[5].changes).toEqual([{ field: 'quantity', from: 2, to: 14 }]);
    expect(history[0].actor.uid).toBe(manager.uid);
    for (let i = 1; i < history.length; i++) expect(history[i].timestamp >= history[i - 1].timestamp).toBe(true);

    const asOf = (i: number) =>
      call(manager.idToken, 'GET', `/api/inventory/${item.id}?asOf=${encodeURIComponent(moments[i]!)}`);
    expect(await asOf(0)).toMatchObject({ name: 'Hose', price: 20, quantity: 10, description: '' });
    expect(await asOf(1)).toMatchObject({ name: 'Hose', price: 22.5, description: '15 m' });
    expect(await asOf(2)).toMatchObject({ name: 'Garden Hose', quantity: 10 });
    expect(await asOf(3)).toMatchObject({ quantity: 6 });
    expect(await asOf(4)).toMatchObject({ quantity: 2 });
    expect((await call(manager.idToken, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(14);

    // Before the item was created (the store's first record is older: the manager's account).
    const { firstRecordAt } = await call(manager.idToken, 'GET', '/api/history/counts');
    expect(Date.parse(firstRecordAt)).toBeLessThan(Date.parse(moments[0]!));
    const before = await server.request('GET', `/api/inventory/${item.id}?asOf=${encodeURIComponent(firstRecordAt)}`, {
      token: manager.idToken,
    });
    expect(before).toMatchObject({ status: 404, body: { error: 'Item not found' } });
    const beforeHistory = await server.request('GET', `/api/inventory/${item.id}?asOf=2000-01-01T00:00:00Z`, {
      token: manager.idToken,
    });
    expect(beforeHistory).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("before the store's first record") },
    });
    const bad = await server.request('GET', `/api/inventory/${item.id}?asOf=yesterday`, { token: manager.idToken });
    expect(bad.status).toBe(400);
  });
});
