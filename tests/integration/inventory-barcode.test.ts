// Item barcodes over real HTTP, on every backend: set, change and clear one; a wrong check
// digit and a barcode already on another item are refused; a scan's lookup
// (GET /api/inventory/by-barcode/{code}) and search find the item; history and the activity
// log show the change; a rebuild of the projections gives the same tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { gs1CheckDigit } from '../../shared/barcode.js';

/** A valid EAN-13 no other test uses: 12 random digits and their check digit. */
function freshEan13(): string {
  const body = `20${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
  return body + gs1CheckDigit(body);
}

describe.each(backends())('item barcodes on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let guest: TestAccount;
  let categoryId: string;
  const call = (account: TestAccount | null, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account?.idToken, body });
  const newItem = (over: Record<string, unknown> = {}) => ({
    name: 'Espresso Cups',
    sku: `EC-${Math.random().toString(36).slice(2, 8)}`,
    category_id: categoryId,
    quantity: 6,
    price: 12,
    threshold: 2,
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Bea Manager');
    guest = await accountWithRole(server, 'guest');
    categoryId = (await call(manager, 'POST', '/api/categories', { name: 'Kitchen' })).body.id;
  });
  afterAll(() => server.close());

  it('creates an item with a barcode, finds it by barcode and by search, and refuses a bad or taken one', async () => {
    const code = freshEan13();
    const created = await call(manager, 'POST', '/api/inventory', newItem({ barcode: ` ${code} ` }));
    expect(created.status).toBe(201);
    expect(created.body.barcode).toBe(code);

    const wrongDigit = code.slice(0, 12) + ((Number(code[12]) + 1) % 10);
    const bad = await call(manager, 'POST', '/api/inventory', newItem({ barcode: wrongDigit }));
    expect(bad).toMatchObject({
      status: 400,
      body: { error: `Barcode check digit is wrong (EAN-13, expected ${code[12]})` },
    });
    const badUpc = await call(manager, 'PUT', `/api/inventory/${created.body.id}`, { barcode: '036000291453' });
    expect(badUpc).toMatchObject({ status: 400, body: { error: 'Barcode check digit is wrong (UPC-A, expected 2)' } });

    const taken = await call(manager, 'POST', '/api/inventory', newItem({ name: 'Tea Cups', barcode: code }));
    expect(taken).toMatchObject({ status: 409, body: { error: 'Barcode already used by Espresso Cups' } });
    const other = await call(manager, 'POST', '/api/inventory', newItem({ name: 'Tea Cups' }));
    expect(other.body.barcode).toBeNull();
    const takenOnEdit = await call(manager, 'PUT', `/api/inventory/${other.body.id}`, { barcode: code });
    expect(takenOnEdit).toMatchObject({ status: 409, body: { error: 'Barcode already used by Espresso Cups' } });

    // The lookup a scan makes: any signed-in reader may make it.
    const found = await call(guest, 'GET', `/api/inventory/by-barcode/${code}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: created.body.id, name: 'Espresso Cups', barcode: code });
    expect(await call(guest, 'GET', `/api/inventory/by-barcode/${freshEan13()}`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    expect(await call(guest, 'GET', `/api/inventory/by-barcode/${wrongDigit}`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    expect(await call(guest, 'GET', `/api/inventory/by-barcode/${encodeURIComponent('bad\u00e9code')}`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    expect((await call(null, 'GET', `/api/inventory/by-barcode/${code}`)).status).toBe(401);

    const searched = await call(manager, 'GET', `/api/inventory/search?q=${code}`);
    expect(searched.body.map((i: any) => i.id)).toEqual([created.body.id]);
    // Part of the digits, as someone typing them would.
    const partial = await call(manager, 'GET', `/api/inventory/search?q=${code.slice(0, 9)}`);
    expect(partial.body.map((i: any) => i.id)).toContain(created.body.id);
  });

  it('changes and clears a barcode, with the change in history and in the activity log', async () => {
    const first = freshEan13();
    const item = (await call(manager, 'POST', '/api/inventory', newItem({ name: 'Milk Jug', barcode: first }))).body;
    const shelfLabel = 'SHELF-B7 jug';
    const changed = await call(manager, 'PUT', `/api/inventory/${item.id}`, { barcode: shelfLabel });
    expect(changed).toMatchObject({ status: 200, body: { barcode: shelfLabel, version: 2 } });
    // Code 128 text is found by its words and as a whole, and the old code names nothing now.
    expect((await call(manager, 'GET', `/api/inventory/by-barcode/${encodeURIComponent(shelfLabel)}`)).body.id).toBe(
      item.id,
    );
    expect((await call(manager, 'GET', `/api/inventory/by-barcode/${first}`)).status).toBe(404);
    expect((await call(manager, 'GET', '/api/inventory/search?q=shelf-b7')).body.map((i: any) => i.id)).toContain(
      item.id,
    );

    const cleared = await call(manager, 'PUT', `/api/inventory/${item.id}`, { barcode: '' });
    expect(cleared).toMatchObject({ status: 200, body: { barcode: null, version: 3 } });
    // The freed code can go on another item; null clears as well as an empty string.
    const next = await call(manager, 'POST', '/api/inventory', newItem({ name: 'Cream Jug', barcode: first }));
    expect(next.status).toBe(201);
    expect((await call(manager, 'PUT', `/api/inventory/${next.body.id}`, { barcode: null })).body.barcode).toBeNull();

    const history = (await call(manager, 'GET', `/api/inventory/${item.id}/history`)).body;
    expect(history[0].changes).toContainEqual({ field: 'barcode', from: null, to: first });
    expect(history[1].changes).toEqual([{ field: 'barcode', from: first, to: shelfLabel }]);
    expect(history[2].changes).toEqual([{ field: 'barcode', from: shelfLabel, to: null }]);

    const again = freshEan13();
    expect((await call(manager, 'PUT', `/api/inventory/${item.id}`, { barcode: again })).status).toBe(200);

    const log = await call(manager, 'GET', '/api/activity?resourceType=inventory&sort=timestamp&order=asc&limit=500');
    const mine = log.body.entries.filter((e: any) => e.resourceId === item.id).map((e: any) => e.details);
    expect(mine).toEqual([
      'Created Milk Jug in Kitchen: 6 in stock, price $12.00, threshold 2, by Bea Manager',
      `Edited Milk Jug: Barcode ${first} → ${shelfLabel}, by Bea Manager`,
      `Edited Milk Jug: Barcode ${shelfLabel} → (none), by Bea Manager`,
      `Edited Milk Jug: Barcode (none) → ${again}, by Bea Manager`,
    ]);
  });

  it("refuses a location's label barcode on an item (create, edit, import), naming the location", async () => {
    const sites = (await call(manager, 'GET', '/api/sites')).body;
    const shelf = await call(manager, 'POST', '/api/locations', {
      site_id: sites[0].id,
      parent_id: null,
      name: 'Shelf 9',
      code: 'S9',
      barcode: 'LOC-S9',
    });
    expect(shelf.status).toBe(201);
    const taken = { status: 409, body: { error: 'Barcode already used by location Shelf 9', field: 'barcode' } };
    expect(
      await call(manager, 'POST', '/api/inventory', newItem({ name: 'Shelf Mugs', barcode: 'LOC-S9' })),
    ).toMatchObject(taken);
    const mugs = (await call(manager, 'POST', '/api/inventory', newItem({ name: 'Shelf Mugs' }))).body;
    expect(await call(manager, 'PUT', `/api/inventory/${mugs.id}`, { barcode: ' LOC-S9 ' })).toMatchObject(taken);
    expect((await call(manager, 'GET', `/api/inventory/${mugs.id}`)).body).toMatchObject({ barcode: null, version: 1 });
    const dry = await call(manager, 'POST', '/api/inventory/import/dry-run', {
      fileName: 'mugs.csv',
      columns: ['name', 'sku', 'barcode', 'category', 'quantity', 'price'],
      rows: [{ row: 2, cells: ['Label Mugs', 'LM-1', 'LOC-S9', 'Kitchen', '3', '4'] }],
    });
    expect(dry.body.problems).toEqual([
      expect.objectContaining({ row: 2, column: 'barcode', message: 'Barcode already used by location Shelf 9' }),
    ]);
    // And the other way round, as before: a label may not take an item's code.
    const code = freshEan13();
    expect((await call(manager, 'PUT', `/api/inventory/${mugs.id}`, { barcode: code })).status).toBe(200);
    expect(await call(manager, 'PATCH', `/api/locations/${shelf.body.id}`, { barcode: code })).toMatchObject({
      status: 409,
      body: { error: 'Barcode already used by item Shelf Mugs' },
    });
  });

  it('refuses unknown body fields and leaves projections equal to a replay of the events', async () => {
    const refused = await call(manager, 'POST', '/api/inventory', newItem({ barcode_type: 'ean13' }));
    expect(refused.status).toBe(400);
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
