// Refusals a screen can place, on every backend over real HTTP: a 400 or
// 409 about one body field names it (`field`) so a form marks that input; a negative count
// or price says it cannot be negative (not Ajv's '>= 0'); a second revert's 409 says who
// reverted the change and when, as data a screen formats for its reader.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe.each(backends())('error details on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;
  let n = 0;
  const send = (method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: manager.idToken, body });
  const itemBody = (over: Record<string, unknown> = {}) => ({
    name: `Widget ${++n}`,
    sku: `ED-${n}-${backend.name}`,
    category_id: categoryId,
    quantity: 4,
    price: 2.5,
    threshold: 1,
    ...over,
  });

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Sam Manager');
    categoryId = (await send('POST', '/api/categories', { name: 'Errors shelf' })).body.id;
  });
  afterAll(() => server.close());

  it('says a negative quantity, threshold or price cannot be negative, naming the field, on create and update', async () => {
    for (const [field, value] of [
      ['quantity', -1],
      ['threshold', -5],
      ['price', -0.5],
    ] as const) {
      const created = await send('POST', '/api/inventory', itemBody({ [field]: value }));
      expect(created, field).toMatchObject({ status: 400, body: { error: `${field} cannot be negative`, field } });
    }
    const item = (await send('POST', '/api/inventory', itemBody())).body;
    const updated = await send('PUT', `/api/inventory/${item.id}`, { quantity: -3 });
    expect(updated).toMatchObject({ status: 400, body: { error: 'quantity cannot be negative', field: 'quantity' } });
    expect((await send('GET', `/api/inventory/${item.id}`)).body.quantity).toBe(4);
    // A fraction is a different mistake, and says so.
    expect((await send('POST', '/api/inventory', itemBody({ quantity: 2.5 }))).body).toEqual({
      error: 'quantity must be integer',
      field: 'quantity',
    });
  });

  it('adjusting below zero is refused with the stock left as it was; a bad delta names its field', async () => {
    const item = (await send('POST', '/api/inventory', itemBody({ quantity: 4 }))).body;
    expect(await send('POST', `/api/inventory/${item.id}/adjust`, { delta: -5, reason: 'sale' })).toMatchObject({
      status: 409,
      body: { error: 'Insufficient stock', quantity: 4 },
    });
    expect(await send('POST', `/api/inventory/${item.id}/adjust`, { delta: -1.5, reason: 'sale' })).toMatchObject({
      status: 400,
      body: { error: 'delta must be integer', field: 'delta' },
    });
    expect((await send('GET', `/api/inventory/${item.id}`)).body.quantity).toBe(4);
  });

  it('names the field of a bad barcode, a taken SKU or barcode, a missing or too long name, an unknown category', async () => {
    expect((await send('POST', '/api/inventory', itemBody({ barcode: '4006381333932' }))).body).toEqual({
      error: 'Barcode check digit is wrong (EAN-13, expected 1)',
      field: 'barcode',
    });
    const first = (await send('POST', '/api/inventory', itemBody({ barcode: '4006381333931' }))).body;
    expect(await send('POST', '/api/inventory', itemBody({ sku: first.sku }))).toMatchObject({
      status: 409,
      body: { error: 'SKU already exists', field: 'sku' },
    });
    expect(await send('POST', '/api/inventory', itemBody({ barcode: '4006381333931' }))).toMatchObject({
      status: 409,
      body: { field: 'barcode' },
    });
    expect((await send('POST', '/api/inventory', itemBody({ name: 'x'.repeat(201) }))).body).toEqual({
      error: 'name must NOT have more than 200 characters',
      field: 'name',
    });
    const { name: _name, ...nameless } = itemBody();
    expect((await send('POST', '/api/inventory', nameless)).body).toEqual({ error: 'name is required', field: 'name' });
    expect(
      (await send('POST', '/api/inventory', itemBody({ category_id: '00000000-0000-4000-8000-000000000000' }))).body,
    ).toEqual({
      error: 'category_id: Category not found',
      field: 'category_id',
    });
    // An unknown field is no input of the form: no field to point at.
    expect((await send('POST', '/api/inventory', itemBody({ colour: 'red' }))).body).toEqual({
      error: 'Unknown field: colour',
    });
  });

  it('names the field of a category name that is taken or too long', async () => {
    expect(await send('POST', '/api/categories', { name: 'errors SHELF' })).toMatchObject({
      status: 409,
      body: { error: 'Category already exists', field: 'name' },
    });
    expect((await send('POST', '/api/categories', { name: 'c'.repeat(101) })).body).toEqual({
      error: 'name must NOT have more than 100 characters',
      field: 'name',
    });
    expect((await send('POST', '/api/categories', { name: '   ' })).body).toEqual({
      error: 'name is required',
      field: 'name',
    });
  });

  it('answers a second revert with 409 saying who reverted it and when, as data too', async () => {
    const item = (await send('POST', '/api/inventory', itemBody({ quantity: 10 }))).body;
    const adjusted = (await send('POST', `/api/inventory/${item.id}/adjust`, { delta: -2, reason: 'sale' })).body;
    const change = (await send('GET', `/api/history/change-at?streamId=item-${item.id}&version=${adjusted.version}`))
      .body;
    const before = Date.now();
    expect((await send('POST', `/api/events/${change.eventId}/revert`, {})).status).toBe(201);
    const second = await send('POST', `/api/events/${change.eventId}/revert`, {});
    expect(second.status).toBe(409);
    expect(second.body.revertedBy).toEqual({ name: 'Sam Manager', at: expect.any(String) });
    const at = new Date(second.body.revertedBy.at).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(second.body.error).toBe(`This change was already reverted by Sam Manager on ${second.body.revertedBy.at}`);
    // The plan a dialog opens with says the same.
    const plan = (await send('GET', `/api/events/${change.eventId}/revert`)).body;
    expect(plan.revertedBy).toEqual(second.body.revertedBy);
  });
});
