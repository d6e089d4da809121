// Bad input the API once answered with 500, each now a 400 that says
// what is wrong, and a refusal that writes nothing: cursors PostgreSQL could not cast or
// compare, text it cannot store (NUL, lone surrogates) in every kind of write and in query
// strings, and moments outside any store's history. The API fuzz test (api-fuzz.test.ts)
// finds such answers in general; these name the ones found, so each stays fixed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, eventCount, type SignedIn } from './accounts-fixtures.js';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const UNSTORABLE = 'must not contain NUL characters or invalid Unicode';

describe.each(backends())('bad input refused with 400 on $name', (backend) => {
  let server: TestServer;
  let people: { manager: SignedIn; staff: SignedIn; guest: SignedIn };
  let itemId: string;
  let categoryId: string;
  let roleId: string;
  let webhookId: string;

  beforeAll(async () => {
    server = await startTestServer(backend);
    people = await cast(server);
    const token = people.manager.idToken;
    const category = await server.request('POST', '/api/categories', { token, body: { name: 'Refusals' } });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    categoryId = category.body.id;
    const item = await server.request('POST', '/api/inventory', {
      token,
      body: { name: 'Refused thing', sku: 'RF-1', category_id: categoryId, quantity: 5, price: 1, threshold: 1 },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    itemId = item.body.id;
    // Two more, so the list has a second page and a cursor.
    for (const sku of ['RF-2', 'RF-3']) {
      await server.request('POST', '/api/inventory', {
        token,
        body: { name: sku, sku, category_id: categoryId, quantity: 1, price: 1, threshold: 0 },
      });
    }
    roleId = (
      await server.request('POST', '/api/roles', {
        token,
        body: { name: 'Counter', description: 'Counts', permissions: ['inventory:view'] },
      })
    ).body.id;
    webhookId = (
      await server.request('POST', '/api/webhooks', {
        token,
        body: { url: 'http://127.0.0.1:9/refusals', eventTypes: ['*'], enabled: false },
      })
    ).body.endpoint.id;
  });
  afterAll(() => server?.close());

  const get = (path: string, who: SignedIn = people.manager) => server.request('GET', path, { token: who.idToken });

  describe('cursors', () => {
    it('the item list refuses a cursor PostgreSQL cannot cast (live and as of a moment); a real one still pages', async () => {
      const page = await get('/api/inventory?limit=2');
      const next = page.headers.get('x-next-cursor')!;
      expect((await get(`/api/inventory?limit=2&cursor=${next}`)).body).toHaveLength(1);
      const asOf = encodeURIComponent(new Date().toISOString());
      for (const cursor of [
        b64(`1|${'-'.repeat(36)}`),
        b64(`2024-01-01T00:00:00.000000Z|${'-'.repeat(36)}`),
        b64('9999-99-99T00:00:00Z|00000000-0000-4000-8000-000000000000'),
        b64('2024-02-30T00:00:00Z|00000000-0000-4000-8000-000000000000'),
      ]) {
        expect(await get(`/api/inventory?cursor=${cursor}`)).toMatchObject({
          status: 400,
          body: { error: 'cursor is invalid' },
        });
        expect(await get(`/api/inventory?asOf=${asOf}&cursor=${cursor}`)).toMatchObject({
          status: 400,
          body: { error: 'cursor is invalid' },
        });
      }
    });

    it('the activity log refuses a cursor whose position is not a whole number, for staff and guests alike', async () => {
      const cursors = ['{"k":"x","p":1.5}', '{"k":"x","p":1e308}', '{"k":"x","p":1e20}', '{"k":"\\u0000","p":1}'].map(
        b64,
      );
      for (const who of [people.staff, people.guest]) {
        for (const cursor of cursors) {
          expect(await get(`/api/activity?cursor=${cursor}`, who)).toMatchObject({
            status: 400,
            body: { error: 'cursor is invalid' },
          });
        }
      }
    });

    it('a webhook replay refuses a cursor past the range of a transaction id or a position', async () => {
      const before = await eventCount(server);
      for (const cursor of [
        '99999999999999999999:1',
        '18446744073709551616:1',
        '1:9223372036854775808',
        '1:99999999999999999999',
      ]) {
        const res = await server.request('POST', `/api/webhooks/${webhookId}/replay`, {
          token: people.manager.idToken,
          body: { cursor },
        });
        expect(res, cursor).toMatchObject({
          status: 400,
          body: { error: 'cursor must look like 1234:56 (as in a payload)' },
        });
      }
      // The largest real cursor is still a cursor.
      const edge = await server.request('POST', `/api/webhooks/${webhookId}/replay`, {
        token: people.manager.idToken,
        body: { cursor: '18446744073709551615:9007199254740991' },
      });
      expect(edge.status).toBe(200);
      expect(await eventCount(server)).toBe(before);
    });
  });

  describe('text PostgreSQL cannot store', () => {
    // [method, path, body, the field the answer names]; NUL and lone surrogates, in turn.
    const writes = (): Array<[string, string, Record<string, unknown>, string, SignedIn]> => {
      const m = people.manager;
      return [
        ['POST', '/api/roles', { name: 'Bad\u0000', description: 'x', permissions: ['inventory:view'] }, 'name', m],
        [
          'PUT',
          `/api/roles/${roleId}`,
          { name: 'Counter', description: '\ud800', permissions: ['inventory:view'] },
          'description',
          m,
        ],
        ['PUT', '/api/settings', { storeName: 'Shop\u0000' }, 'storeName', m],
        ['PUT', '/api/profile', { name: 'Sam\ud800' }, 'name', people.staff],
        [
          'POST',
          '/api/inventory',
          { name: 'x\u0000', sku: 'RF-9', category_id: categoryId, quantity: 1, price: 1, threshold: 0 },
          'name',
          m,
        ],
        ['PUT', `/api/inventory/${itemId}`, { description: 'lone \udfff' }, 'description', m],
        [
          'POST',
          `/api/inventory/${itemId}/adjust`,
          { delta: 1, reason: 'restock', note: 'box\u0000' },
          'note',
          people.staff,
        ],
        ['POST', '/api/categories', { name: '\ud83d' }, 'name', m],
        ['PUT', `/api/categories/${categoryId}`, { description: '\u0000' }, 'description', m],
        [
          'POST',
          '/api/webhooks',
          { url: 'http://127.0.0.1:9/x', eventTypes: ['*'], description: '\u0000' },
          'description',
          m,
        ],
        ['PATCH', `/api/webhooks/${webhookId}`, { description: '\ud800' }, 'description', m],
        [
          'POST',
          '/api/tokens',
          {
            name: 'Till\u0000',
            expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
            permissions: ['inventory:view'],
          },
          'name',
          m,
        ],
        [
          'POST',
          '/api/users',
          { name: 'Pat\u0000', email: 'pat-refused@stockroom.test', password: 'secret123', role: 'staff' },
          'name',
          m,
        ],
        [
          'POST',
          '/api/inventory/import/categories',
          { importId: '00000000-0000-4000-8000-000000000001', fileName: 'f.csv', names: ['ok', '\u0000'] },
          'names.1',
          m,
        ],
      ];
    };

    it('every kind of write refuses it with a 400 naming the field, and writes nothing', async () => {
      const before = await eventCount(server);
      const failures: string[] = [];
      for (const [method, path, body, field, who] of writes()) {
        const res = await server.request(method, path, { token: who.idToken, body });
        if (res.status !== 400 || res.body?.error !== `${field} ${UNSTORABLE}`)
          failures.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(failures).toEqual([]);
      expect(await eventCount(server)).toBe(before);
    });

    it('query strings refuse it too (a search, a filter, an export), and a path id with it names nothing', async () => {
      expect(await get('/api/inventory/search?q=a%00b')).toMatchObject({
        status: 400,
        body: { error: `q ${UNSTORABLE}` },
      });
      expect(await get('/api/activity?q=%00')).toMatchObject({ status: 400, body: { error: `q ${UNSTORABLE}` } });
      expect(await get('/api/users?q=%00')).toMatchObject({ status: 400, body: { error: `q ${UNSTORABLE}` } });
      // An export refuses before it starts streaming (it used to break off mid-answer).
      expect(await get('/api/activity.csv?userId=%00')).toMatchObject({
        status: 400,
        body: { error: `userId ${UNSTORABLE}` },
      });
      expect(await get('/api/inventory/export.csv?q=%00')).toMatchObject({
        status: 400,
        body: { error: `q ${UNSTORABLE}` },
      });
      expect(await get('/api/inventory/%00')).toMatchObject({ status: 404, body: { error: 'Item not found' } });
    });

    it('ordinary Unicode still goes through: accents, emoji (a surrogate pair), right-to-left text', async () => {
      const res = await server.request('POST', '/api/categories', {
        token: people.manager.idToken,
        body: { name: 'Café 🍰 مخبز' },
      });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Café 🍰 مخبز');
    });
  });

  describe('moments', () => {
    it('an as-of moment before 1970 is refused on every as-of read, with a sentence that says why', async () => {
      const early = 'is before 1970-01-01T00:00:00.000Z: there are no records that old';
      for (const path of [
        '/api/dashboard?asOf=0001-01-01T00:00:00Z',
        '/api/inventory?asOf=0000-01-01T00:00:00Z',
        '/api/inventory/low-stock?asOf=0001-01-01T00:00:00Z',
        `/api/inventory/${'ITEM'}?asOf=0001-01-01T00:00:00Z`,
        '/api/categories?asOf=1969-12-31T23:59:59Z',
        `/api/categories/${'CATEGORY'}/items?asOf=0000-12-31T23:59:59%2B23:59`,
      ]) {
        const res = await get(path.replace('ITEM', itemId).replace('CATEGORY', categoryId));
        expect(res, path).toMatchObject({ status: 400, body: { error: `asOf ${early}` } });
      }
      expect(await get('/api/changes?from=0001-01-01T00:00:00Z')).toMatchObject({
        status: 400,
        body: { error: `from ${early}` },
      });
      expect(await get('/api/changes/export.csv?from=0001-01-01T00:00:00Z')).toMatchObject({
        status: 400,
        body: { error: `from ${early}` },
      });
    });

    it("a moment before the store's first record is refused with the moment history starts; the first record itself is shown", async () => {
      const { firstRecordAt } = (await get('/api/history/counts')).body;
      const before = new Date(Date.parse(firstRecordAt) - 1).toISOString();
      const said = `asOf is before the store's first record (${firstRecordAt}): there is nothing to show from then`;
      for (const path of [
        '/api/dashboard',
        '/api/inventory',
        '/api/inventory/low-stock',
        `/api/inventory/${itemId}`,
        '/api/categories',
        `/api/categories/${categoryId}/items`,
      ]) {
        expect(await get(`${path}?asOf=2000-01-01T00:00:00Z`), path).toMatchObject({
          status: 400,
          body: { error: said },
        });
        expect(await get(`${path}?asOf=${before}`), path).toMatchObject({ status: 400, body: { error: said } });
      }
      expect(await get(`/api/dashboard?asOf=${firstRecordAt}`)).toMatchObject({ status: 200 });
      // A changes window is a span, not a moment: it may start before the first record.
      expect(await get('/api/changes?from=2000-01-01T00:00:00Z')).toMatchObject({ status: 200 });
    });

    it('a moment in the future is refused, also for one item', async () => {
      expect(await get('/api/dashboard?asOf=9999-12-31T23:59:59Z')).toMatchObject({
        status: 400,
        body: { error: 'asOf is in the future' },
      });
      expect(await get(`/api/inventory/${itemId}?asOf=9999-12-31T23:59:59Z`)).toMatchObject({
        status: 400,
        body: { error: 'asOf is in the future' },
      });
      expect(await get('/api/changes?from=2000-01-01T00:00:00Z&to=9999-12-31T23:59:59Z')).toMatchObject({
        status: 400,
        body: { error: 'to is in the future' },
      });
    });

    it('a stream version past what a stream can hold is a 400, not an integer overflow', async () => {
      const res = await get(`/api/history/change-at?streamId=item-${itemId}&version=2147483648`);
      expect(res).toMatchObject({ status: 400, body: { error: 'version must be <= 2147483647' } });
    });
  });
});
