// The inventory and category calls over real HTTP, on every backend: snake_case
// bodies, each error and status, and the activity entries each write produces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';

describe.each(backends())('inventory API on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
  const as = (account: TestAccount) => ({
    get: (path: string) => server.request('GET', path, { token: account.idToken }),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      server.request('POST', path, { token: account.idToken, body, headers }),
    put: (path: string, body: unknown, headers?: Record<string, string>) =>
      server.request('PUT', path, { token: account.idToken, body, headers }),
    del: (path: string, headers?: Record<string, string>) =>
      server.request('DELETE', path, { token: account.idToken, headers }),
  });
  const newItem = (categoryId: string, over: Record<string, unknown> = {}) => ({
    name: 'Laptop Stand',
    description: 'Aluminium stand',
    sku: `LS-${Math.random().toString(36).slice(2, 8)}`,
    category_id: categoryId,
    quantity: 12,
    price: 39.9,
    threshold: 4,
    image_url: 'https://example.com/stand.png',
    created_by: 'someone-else',
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mia Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
    guest = await accountWithRole(server, 'guest');
  });
  afterAll(() => server.close());

  it('creates, reads, renames and deletes categories with their activity entries', async () => {
    const created = await as(manager).post('/api/categories', { name: '  Office  ', description: 'Desk things' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Office', description: 'Desk things', itemCount: 0, version: 1 });
    const id = created.body.id;

    expect((await as(guest).get(`/api/categories/${id}`)).body.name).toBe('Office');
    expect((await as(manager).get('/api/categories')).body.map((c: any) => c.name)).toContain('Office');

    const dup = await as(staff).post('/api/categories', { name: 'office' });
    expect(dup).toMatchObject({ status: 409, body: { error: 'Category already exists' } });
    expect((await as(staff).post('/api/categories', { name: '   ' })).body).toEqual({
      error: 'name is required',
      field: 'name',
    });

    const renamed = await as(manager).put(`/api/categories/${id}`, { name: 'Office Supplies' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Office Supplies', version: 2 });

    expect((await as(manager).del(`/api/categories/${id}`)).status).toBe(204);
    expect(await as(manager).get(`/api/categories/${id}`)).toMatchObject({
      status: 404,
      body: { error: 'Category not found' },
    });
    expect(await as(manager).del(`/api/categories/${id}`)).toMatchObject({
      status: 404,
      body: { error: 'Category not found' },
    });

    const log = await as(manager).get(`/api/activity?resourceType=category&sort=timestamp&order=asc&limit=500`);
    const mine = log.body.entries.filter((e: any) => e.resourceId === id);
    expect(mine.map((e: any) => [e.action, e.details, e.userName])).toEqual([
      ['create', 'Created category Office, by Mia Manager', 'Mia Manager'],
      ['update', 'Edited category Office Supplies: Name Office → Office Supplies, by Mia Manager', 'Mia Manager'],
      ['delete', 'Deleted category Office Supplies, by Mia Manager', 'Mia Manager'],
    ]);
  });

  it('creates an item from a snake_case body, ignoring created_by, and lists, searches and deletes it', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Computers' })).body;
    const body = newItem(category.id);
    const created = await as(staff).post('/api/inventory', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Laptop Stand',
      sku: body.sku,
      category: 'Computers',
      categoryId: category.id,
      category_id: category.id,
      quantity: 12,
      price: 39.9,
      threshold: 4,
      imageUrl: 'https://example.com/stand.png',
      version: 1,
    });
    const id = created.body.id;
    const entry = (await as(manager).get(`/api/activity?q=${encodeURIComponent(body.sku)}`)).body.entries;
    const log = (
      await as(manager).get('/api/activity?action=create&resourceType=inventory&limit=500')
    ).body.entries.find((e: any) => e.resourceId === id);
    expect(entry).toEqual([]); // details mention the name, not the SKU
    expect(log).toMatchObject({
      userId: staff.uid,
      userName: 'Stan Staff',
      details: 'Created Laptop Stand in Computers: 12 in stock, price $39.90, threshold 4, by Stan Staff',
    });

    expect((await as(guest).get(`/api/inventory/${id}`)).body.name).toBe('Laptop Stand');
    expect((await as(manager).get('/api/categories')).body.find((c: any) => c.id === category.id).itemCount).toBe(1);

    const search = await as(guest).get('/api/inventory/search?q=lptop%20stnd');
    expect(search.status).toBe(200);
    expect(search.body[0].id).toBe(id);
    expect((await as(guest).get('/api/inventory/search?q=computers')).body.map((i: any) => i.id)).toContain(id);
    expect((await as(guest).get(`/api/inventory/search?q=${body.sku.toLowerCase()}`)).body[0].id).toBe(id);

    expect(await as(manager).del(`/api/categories/${category.id}`)).toMatchObject({
      status: 409,
      body: { error: 'Category is not empty' },
    });
    expect((await as(manager).del(`/api/inventory/${id}`)).status).toBe(204);
    expect(await as(manager).get(`/api/inventory/${id}`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    expect(await as(manager).del(`/api/inventory/${id}`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    const deleted = (await as(manager).get('/api/activity?action=delete&limit=500')).body.entries.find(
      (e: any) => e.resourceId === id,
    );
    expect(deleted.details).toBe(`Deleted Laptop Stand (SKU ${body.sku}), by Mia Manager`);
  });

  it('names the field for bad input and writes nothing', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Validation' })).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, 'name is required'],
      [{ price: -1 }, 'price cannot be negative'],
      [{ price: 'cheap' }, 'price must be number'],
      [{ price: 1.234 }, 'price must have at most 2 decimals'],
      [{ quantity: 2.5 }, 'quantity must be integer'],
      [{ threshold: -1 }, 'threshold cannot be negative'],
      [{ image_url: 'ftp://x/y.png' }, 'image_url must be an https URL'],
      // A picture over plain http is a tracking pixel on every wall display.
      [{ image_url: 'http://tracker.example/pixel.gif' }, 'image_url must be an https URL'],
      [{ category_id: 'not-a-uuid' }, 'category_id must match format "uuid"'],
      [{ category_id: '00000000-0000-4000-8000-000000000000' }, 'category_id: Category not found'],
      [{ colour: 'red' }, 'Unknown field: colour'],
      [{ name: 'x'.repeat(201) }, 'name must NOT have more than 200 characters'],
    ];
    for (const [over, message] of cases) {
      const res = await as(manager).post('/api/inventory', newItem(category.id, over));
      expect(res, JSON.stringify(over)).toMatchObject({ status: 400, body: { error: message } });
    }
    expect((await as(manager).get(`/api/categories/${category.id}`)).body.itemCount).toBe(0);
  });

  it('refuses a duplicate SKU among live items, and frees it on delete', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Skus' })).body;
    const first = await as(manager).post('/api/inventory', newItem(category.id, { sku: 'DUP-1' }));
    expect(first.status).toBe(201);
    expect(await as(manager).post('/api/inventory', newItem(category.id, { sku: 'dup-1' }))).toMatchObject({
      status: 409,
      body: { error: 'SKU already exists' },
    });
    await as(manager).del(`/api/inventory/${first.body.id}`);
    expect((await as(manager).post('/api/inventory', newItem(category.id, { sku: 'DUP-1' }))).status).toBe(201);
  });

  it('updates partially, records a quantity-only PUT as a count, and guards versions', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Updates' })).body;
    const item = (await as(manager).post('/api/inventory', newItem(category.id))).body;

    const priced = await as(manager).put(`/api/inventory/${item.id}`, { price: 42 }, { 'if-match': '"1"' });
    expect(priced.body).toMatchObject({ price: 42, quantity: 12, version: 2 });
    const stale = await as(manager).put(`/api/inventory/${item.id}`, { price: 50 }, { 'if-match': '1' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'This item was changed by someone else',
      current: { price: 42, version: 2 },
    });
    expect((await as(manager).put(`/api/inventory/${item.id}`, { price: 50, expected_version: 1 })).status).toBe(409);

    const counted = await as(staff).put(`/api/inventory/${item.id}`, { quantity: 7 });
    expect(counted.status).toBe(200);
    expect(counted.body.quantity).toBe(7);
    const history = (await as(manager).get(`/api/inventory/${item.id}/history`)).body;
    expect(history.at(-1)).toMatchObject({ type: 'StockAdjusted', reason: 'count', delta: -5 });

    expect(await as(staff).put(`/api/inventory/${item.id}`, { name: 'Renamed' })).toMatchObject({
      status: 403,
      body: { error: "You don't have permission to manage inventory" },
    });
    expect((await as(manager).put(`/api/inventory/${item.id}`, {})).status).toBe(400);
    expect(await as(manager).put(`/api/inventory/00000000-0000-4000-8000-000000000000`, { price: 1 })).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    const delStale = await as(manager).del(`/api/inventory/${item.id}`, { 'if-match': '1' });
    expect(delStale.status).toBe(409);
    expect(delStale.body.current.id).toBe(item.id);
  });

  it('adjusts stock atomically, refuses below zero, and lists low stock', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Adjust' })).body;
    const item = (await as(manager).post('/api/inventory', newItem(category.id, { quantity: 6, threshold: 4 }))).body;
    const sold = await as(staff).post(`/api/inventory/${item.id}/adjust`, {
      delta: -2,
      reason: 'sale',
      note: 'till 3',
    });
    expect(sold.body).toMatchObject({ quantity: 4 });
    expect((await as(guest).get('/api/inventory/low-stock')).body.map((i: any) => i.id)).toContain(item.id);
    expect(await as(staff).post(`/api/inventory/${item.id}/adjust`, { delta: -5, reason: 'sale' })).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock' },
    });
    expect(await as(staff).post(`/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'lost' })).toMatchObject({
      status: 400,
    });
    expect(await as(staff).post(`/api/inventory/${item.id}/adjust`, { delta: 0, reason: 'sale' })).toMatchObject({
      status: 400,
    });
    expect(await as(guest).post(`/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'restock' })).toMatchObject({
      status: 403,
      body: { error: "You don't have permission to update stock levels" },
    });
    await as(staff).post(`/api/inventory/${item.id}/adjust`, { delta: 10, reason: 'restock' });
    expect((await as(guest).get('/api/inventory/low-stock')).body.map((i: any) => i.id)).not.toContain(item.id);
    const updates = (await as(manager).get('/api/activity?action=update&limit=500')).body.entries.filter(
      (e: any) => e.resourceId === item.id,
    );
    expect(updates).toHaveLength(2);
    expect(updates[0].details).toBe('+10 (restock) Laptop Stand, by Stan Staff');
  });

  it('pages items with a cursor and says how to get the next page', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Paging' })).body;
    for (let i = 0; i < 7; i++) await as(manager).post('/api/inventory', newItem(category.id, { name: `Pager ${i}` }));
    const seen = new Set<string>();
    let path = '/api/inventory?limit=3';
    let pages = 0;
    for (;;) {
      const res = await as(manager).get(path);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(3);
      for (const item of res.body) seen.add(item.id);
      pages++;
      const next = res.headers.get('x-next-cursor');
      if (!next) break;
      expect(res.headers.get('link')).toContain('rel="next"');
      path = `/api/inventory?limit=3&cursor=${next}`;
    }
    const all = await as(manager).get('/api/inventory?limit=500');
    expect(seen.size).toBe(all.body.length);
    expect(pages).toBe(Math.ceil(all.body.length / 3));
    expect((await as(manager).get('/api/inventory')).status).toBe(200);
    expect((await as(manager).get('/api/inventory?limit=501')).status).toBe(400);
    expect((await as(manager).get('/api/inventory?cursor=garbage')).body).toEqual({ error: 'cursor is invalid' });
  });

  it("pages, searches and sorts a category's items, 12 a page by default", async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Shelf' })).body;
    for (let i = 0; i < 14; i++) {
      await as(manager).post(
        '/api/inventory',
        newItem(category.id, { name: `Box ${String(i).padStart(2, '0')}`, price: 100 - i, quantity: i }),
      );
    }
    const first = (await as(guest).get(`/api/categories/${category.id}/items`)).body;
    expect(first).toMatchObject({ total: 14, page: 1, pageSize: 12, totalPages: 2 });
    expect(first.items[0].name).toBe('Box 00');
    const second = (await as(guest).get(`/api/categories/${category.id}/items?page=2`)).body;
    expect(second.items.map((i: any) => i.name)).toEqual(['Box 12', 'Box 13']);
    const cheapest = (await as(guest).get(`/api/categories/${category.id}/items?sort=price&order=asc`)).body;
    expect(cheapest.items[0].price).toBe(87);
    const mostStock = (await as(guest).get(`/api/categories/${category.id}/items?sort=stock&order=desc`)).body;
    expect(mostStock.items[0].quantity).toBe(13);
    const found = (await as(guest).get(`/api/categories/${category.id}/items?q=box%2007`)).body;
    expect(found.items.map((i: any) => i.name)).toEqual(['Box 07']);
    expect(await as(guest).get(`/api/categories/00000000-0000-4000-8000-000000000000/items`)).toMatchObject({
      status: 404,
    });
  });

  it('renaming a category renames it on its items', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Snacks' })).body;
    const item = (await as(manager).post('/api/inventory', newItem(category.id))).body;
    await as(manager).put(`/api/categories/${category.id}`, { name: 'Treats' });
    expect((await as(manager).get(`/api/inventory/${item.id}`)).body.category).toBe('Treats');
    expect((await as(manager).get('/api/inventory/search?q=treats')).body.map((i: any) => i.id)).toContain(item.id);
  });

  it('replays a write for the same Idempotency-Key and refuses the key with another body', async () => {
    const category = (await as(manager).post('/api/categories', { name: 'Idem' })).body;
    const body = newItem(category.id);
    const headers = { 'idempotency-key': 'create-stand-1' };
    const first = await as(manager).post('/api/inventory', body, headers);
    const again = await as(manager).post('/api/inventory', body, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await as(manager).post('/api/inventory', { ...body, name: 'Other' }, headers);
    expect(other).toMatchObject({ status: 422 });
    expect((await as(manager).get(`/api/categories/${category.id}`)).body.itemCount).toBe(1);
    const adjust = { 'idempotency-key': 'adjust-1' };
    await as(manager).post(`/api/inventory/${first.body.id}/adjust`, { delta: 1, reason: 'restock' }, adjust);
    const repeat = await as(manager).post(
      `/api/inventory/${first.body.id}/adjust`,
      { delta: 1, reason: 'restock' },
      adjust,
    );
    expect(repeat.body.quantity).toBe(13);
  });

  it('exports the activity log as CSV and sorts it by user and action', async () => {
    const csv = await server.request('GET', '/api/activity.csv?action=create', { token: manager.idToken });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = String(csv.body).trim().split('\n');
    expect(lines[0]).toBe('timestamp,userName,userId,action,resourceType,resourceId,resourceName,details,id');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.slice(1).every((l) => l.includes('"create"'))).toBe(true);
    const byUser = (await as(manager).get('/api/activity?sort=user&order=asc&limit=500')).body.entries.map(
      (e: any) => e.userName,
    );
    expect(byUser).toEqual([...byUser].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const page1 = (await as(manager).get('/api/activity?limit=5')).body;
    const page2 = (await as(manager).get(`/api/activity?limit=5&cursor=${page1.nextCursor}`)).body;
    expect(page2.entries[0].timestamp <= page1.entries.at(-1).timestamp).toBe(true);
    expect(page1.entries.map((e: any) => e.id)).not.toContain(page2.entries[0].id);
  });

  it('leaves projections identical to a replay of the events', async () => {
    const differences = await verifyProjections(server.store.store);
    expect(differences, JSON.stringify(differences, null, 1)).toEqual([]);
  });

  it('describes every call in the OpenAPI document at /api/docs/json', async () => {
    const doc = (await server.request('GET', '/api/docs/json')).body;
    for (const path of [
      '/api/categories',
      '/api/categories/{id}',
      '/api/categories/{id}/items',
      '/api/inventory',
      '/api/inventory/{id}',
      '/api/inventory/low-stock',
      '/api/inventory/search',
      '/api/inventory/{id}/adjust',
      '/api/inventory/{id}/history',
      '/api/activity',
      '/api/activity.csv',
      '/api/health',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/inventory'].post.requestBody.content['application/json'].schema.required).toContain(
      'category_id',
    );
  });
});
