// CSV export of items over real HTTP, on every backend: everything, a category page's
// filters, the Inventory page's search; read back with papaparse (what the import uses),
// numbers stay numbers, and text that a spreadsheet would run as a formula is defused, in
// this export and in the activity log's.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { exportedItems } from '../../server/inventory/item-export.js';

const HEADER = [
  'name',
  'sku',
  'barcode',
  'category',
  'quantity',
  'price',
  'threshold',
  'description',
  'expiry_date',
  'image_url',
  'currency',
];

describe.each(backends())('item CSV export on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  /** Staff: the fewest permissions that export (guests never do: no anonymous copy of the store). */
  let reader: TestAccount;
  let tools: string;
  let paint: string;
  const call = (account: TestAccount | null, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account?.idToken, body });
  const csvOf = async (path: string) => {
    const res = await call(reader, 'GET', path);
    expect(res.status, String(res.body)).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    return { text: String(res.body), rows: Papa.parse<string[]>(String(res.body).trim()).data };
  };
  const add = async (categoryId: string, name: string, over: Record<string, unknown> = {}) => {
    const res = await call(manager, 'POST', '/api/inventory', {
      name,
      sku: `X-${Math.random().toString(36).slice(2, 9)}`,
      category_id: categoryId,
      quantity: 5,
      price: 10,
      threshold: 1,
      ...over,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Ada Manager');
    reader = await accountWithRole(server, 'staff', 'Sam Staff');
    tools = (await call(manager, 'POST', '/api/categories', { name: 'Tools' })).body.id;
    paint = (await call(manager, 'POST', '/api/categories', { name: 'Paint' })).body.id;
    await add(tools, 'Claw Hammer', {
      sku: 'T-HAMMER',
      barcode: '4006381333931',
      quantity: 12,
      price: 19.5,
      threshold: 3,
      description: 'Steel, "16 oz", with grip',
      expiry_date: '2031-02-03',
      image_url: 'https://example.com/hammer.png',
    });
    await add(tools, '=HYPERLINK("http://evil.example","Click")', {
      sku: 'T-EVIL',
      price: 1,
      description: '@SUM(A1:A2)',
    });
    await add(tools, 'Spirit Level', { sku: '-T-LEVEL', price: 30, description: '+ tab\tinside' });
    await add(paint, 'White Paint', { sku: 'P-WHITE', price: 25, description: 'Matt white, 5 l' });
  });
  afterAll(() => server.close());

  it('exports every item in the import columns, numbers as numbers and formulas defused', async () => {
    const { text, rows } = await csvOf('/api/inventory/export.csv');
    expect(rows[0]).toEqual(HEADER);
    // By category, then name (where '=' sorts among letters depends on the database's collation).
    expect(rows[1]![0]).toBe('White Paint');
    expect(
      rows
        .slice(2)
        .map((r) => r[0])
        .sort(),
    ).toEqual([`'=HYPERLINK("http://evil.example","Click")`, 'Claw Hammer', 'Spirit Level']);
    expect(rows.find((r) => r[0] === 'Claw Hammer')).toEqual([
      'Claw Hammer',
      'T-HAMMER',
      '4006381333931',
      'Tools',
      '12',
      '19.5',
      '3',
      'Steel, "16 oz", with grip',
      '2031-02-03',
      'https://example.com/hammer.png',
      'USD',
    ]);
    // Numbers are bare in the file, text is quoted.
    expect(text).toContain('"Claw Hammer","T-HAMMER","4006381333931","Tools",12,19.5,3,');
    const evil = rows.find((r) => r[1] === 'T-EVIL')!;
    expect(evil[7]).toBe("'@SUM(A1:A2)");
    const level = rows.find((r) => r[0] === 'Spirit Level')!;
    expect(level[1]).toBe("'-T-LEVEL");
    expect(level[7]).toBe("'+ tab\tinside");
    expect(level[2]).toBe(''); // no barcode
  });

  it("exports a category page's filters and sort, and the Inventory page's search", async () => {
    const inTools = await csvOf(`/api/inventory/export.csv?categoryId=${tools}&sort=price&order=desc`);
    expect(inTools.rows.slice(1).map((r) => r[0])).toEqual([
      'Spirit Level',
      'Claw Hammer',
      `'=HYPERLINK("http://evil.example","Click")`,
    ]);
    const searched = await csvOf(`/api/inventory/export.csv?categoryId=${tools}&q=grip`);
    expect(searched.rows.slice(1).map((r) => r[0])).toEqual(['Claw Hammer']);
    const acrossStore = await csvOf('/api/inventory/export.csv?q=white%20matt');
    expect(acrossStore.rows.slice(1).map((r) => r[0])).toEqual(['White Paint']);
    const byBarcode = await csvOf('/api/inventory/export.csv?q=4006381333931');
    expect(byBarcode.rows.slice(1).map((r) => r[0])).toEqual(['Claw Hammer']);
    const none = await csvOf(`/api/inventory/export.csv?categoryId=${paint}&q=hammer`);
    expect(none.rows).toEqual([HEADER]);

    expect(
      await call(reader, 'GET', '/api/inventory/export.csv?categoryId=00000000-0000-4000-8000-000000000000'),
    ).toMatchObject({
      status: 404,
      body: { error: 'Category not found' },
    });
    expect((await call(null, 'GET', '/api/inventory/export.csv')).status).toBe(401);
    const guest = await accountWithRole(server, 'guest');
    expect(await call(guest, 'GET', '/api/inventory/export.csv')).toMatchObject({
      status: 403,
      body: { error: "Guests can't export data" },
    });
  });

  it('reads page after page without losing or repeating items that share a sort key', async () => {
    const shelf = (await call(manager, 'POST', '/api/categories', { name: 'Shelf' })).body.id;
    for (let i = 0; i < 5; i++) await add(shelf, 'Same Name', { price: i % 2 ? 4 : 2 });
    for (const [sort, order] of [
      ['name', 'asc'],
      ['price', 'desc'],
      ['stock', 'asc'],
    ] as const) {
      const rows = [];
      for await (const row of await exportedItems(server.store.database.db, { categoryId: shelf, sort, order }, 2))
        rows.push(row.sku);
      expect(new Set(rows).size, `${sort} ${order}`).toBe(5);
    }
    const prices = [];
    for await (const row of await exportedItems(
      server.store.database.db,
      { categoryId: shelf, sort: 'price', order: 'desc' },
      2,
    )) {
      prices.push(Number(row.price));
    }
    expect(prices).toEqual([4, 4, 2, 2, 2]);
  });

  it("says in its last column which currency the prices are in: the store's", async () => {
    const euros = await call(manager, 'PUT', '/api/settings', { currency: 'EUR', locale: 'fr-FR' });
    expect(euros.status).toBe(200);
    const { rows } = await csvOf('/api/inventory/export.csv');
    expect(rows[0]!.at(-1)).toBe('currency');
    expect(new Set(rows.slice(1).map((r) => r.at(-1)))).toEqual(new Set(['EUR']));
    // A price stays the number it was: the currency names it, nothing is converted.
    expect(rows.find((r) => r[0] === 'Claw Hammer')![5]).toBe('19.5');
  });

  it('defuses formula cells in the activity log export too', async () => {
    const res = await call(manager, 'GET', '/api/activity.csv?resourceType=inventory');
    const rows = Papa.parse<string[]>(String(res.body).trim()).data;
    const header = rows[0]!;
    const names = rows.slice(1).map((r) => r[header.indexOf('resourceName')]);
    expect(names).toContain(`'=HYPERLINK("http://evil.example","Click")`);
    expect(names).not.toContain(`=HYPERLINK("http://evil.example","Click")`);
    expect(names).toContain('Claw Hammer');
  });
});
