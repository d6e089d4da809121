// Every route with an item or category id in its path: an id that names nothing answers
// 404 with the same message ('Item not found', 'Category not found'), whether it is a
// well-formed uuid that was never used, one that was deleted, or not a uuid at all
// (/inventory/abc used to answer 400 'id must match format "uuid"').
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

type Route = [method: string, path: (id: string) => string, body?: unknown];

const ITEM_ROUTES: Route[] = [
  ['GET', (id) => `/api/inventory/${id}`],
  ['GET', (id) => `/api/inventory/${id}?asOf=${encodeURIComponent(new Date().toISOString())}`],
  ['GET', (id) => `/api/inventory/${id}/history`],
  ['PUT', (id) => `/api/inventory/${id}`, { name: 'Renamed' }],
  ['PUT', (id) => `/api/inventory/${id}`, { quantity: 3 }],
  ['DELETE', (id) => `/api/inventory/${id}`],
  ['POST', (id) => `/api/inventory/${id}/adjust`, { delta: 1, reason: 'restock' }],
  ['POST', (id) => `/api/alerts/${id}/dismiss`],
  ['POST', (id) => `/api/alerts/${id}/restore`],
];

const CATEGORY_ROUTES: Route[] = [
  ['GET', (id) => `/api/categories/${id}`],
  ['GET', (id) => `/api/categories/${id}/items`],
  ['PUT', (id) => `/api/categories/${id}`, { name: 'Renamed', description: 'New words' }],
  ['DELETE', (id) => `/api/categories/${id}`],
];

/** Ids that cannot name anything: the ones people type (abc, foo), near-misses of a uuid, and odd characters. */
const MALFORMED = [
  'abc',
  'foo',
  '123',
  'not-a-uuid',
  `${randomUUID()}x`,
  randomUUID().slice(0, 35),
  '%20',
  'a.b',
  "1'%20or%20'1'='1",
  'x'.repeat(200),
];

describe.each(backends())('not-found ids on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let deletedItemId: string;
  let deletedCategoryId: string;

  const call = (method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: manager.idToken, body });

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Nora Notfound');
    const category = await call('POST', '/api/categories', { name: 'Short-lived' });
    const item = await call('POST', '/api/inventory', {
      name: 'Ghost',
      sku: 'GH-1',
      category_id: category.body.id,
      quantity: 1,
      price: 1,
      threshold: 0,
    });
    expect(item.status).toBe(201);
    expect((await call('DELETE', `/api/inventory/${item.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/categories/${category.body.id}`)).status).toBe(204);
    deletedItemId = item.body.id;
    deletedCategoryId = category.body.id;
  });
  afterAll(() => server?.close());

  const expectNotFound = async (routes: Route[], ids: string[], message: string) => {
    const answers: string[] = [];
    for (const [method, path, body] of routes) {
      for (const id of ids) {
        const res = await call(method, path(id), body);
        answers.push(`${method} ${path(id).slice(0, 80)} -> ${res.status} ${JSON.stringify(res.body)}`);
        expect(res.status, answers.at(-1)).toBe(404);
        expect(res.body, answers.at(-1)).toEqual({ error: message });
      }
    }
  };

  it("answers 404 'Item not found' for malformed item ids on every item route", async () => {
    await expectNotFound(ITEM_ROUTES, MALFORMED, 'Item not found');
  });

  it("answers 404 'Item not found' for unknown and deleted item ids on every item route", async () => {
    await expectNotFound(ITEM_ROUTES, [randomUUID()], 'Item not found');
    // A deleted item keeps its audit trail: only its history still answers.
    const live = ITEM_ROUTES.filter(([, path]) => !path('x').endsWith('/history'));
    await expectNotFound(live, [deletedItemId], 'Item not found');
    const history = await call('GET', `/api/inventory/${deletedItemId}/history`);
    expect(history.body.map((entry: { type: string }) => entry.type)).toEqual(['ItemCreated', 'ItemDeleted']);
  });

  it("answers 404 'Category not found' for malformed category ids on every category route", async () => {
    await expectNotFound(CATEGORY_ROUTES, MALFORMED, 'Category not found');
  });

  it("answers 404 'Category not found' for unknown and deleted category ids on every category route", async () => {
    await expectNotFound(CATEGORY_ROUTES, [randomUUID(), deletedCategoryId], 'Category not found');
  });

  it('still checks permission first: staff get 403 for a malformed id on a manager route, nobody signed in gets 401', async () => {
    const staff = await accountWithRole(server, 'staff', 'Sid Staff');
    const refused = await server.request('DELETE', '/api/categories/foo', { token: staff.idToken });
    expect(refused.status).toBe(403);
    expect((await server.request('GET', '/api/inventory/abc')).status).toBe(401);
  });

  it('still refuses a bad body on a real id with 400 naming the field', async () => {
    const category = await call('POST', '/api/categories', { name: 'Still here' });
    const res = await call('PUT', `/api/categories/${category.body.id}`, { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^name must NOT have fewer than 1 characters/);
  });
});
