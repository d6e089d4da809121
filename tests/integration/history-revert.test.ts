// Undo and revert through the API: every kind of change undone by its author,
// a change undone only once (two at once: exactly one wins), edits reverted with and without
// later edits of the same fields, a stock delta refused when it would now go below 0, a
// delete reverted with its history, who may revert whose change, and how the log shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';

describe.each(backends())('undo and revert on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let categoryId: string;
  let n = 0;

  const call = async (account: TestAccount, method: string, path: string, body?: unknown, status?: number) => {
    const r = await server.request(method, path, { token: account.idToken, body });
    if (status !== undefined) expect(r.status, JSON.stringify(r.body)).toBe(status);
    else expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newItem = (account: TestAccount, fields: Record<string, unknown> = {}) =>
    call(account, 'POST', '/api/inventory', {
      name: `Thing ${++n}`,
      sku: `T-${n}-${backend.name}`,
      category_id: categoryId,
      quantity: 10,
      price: 5,
      threshold: 2,
      ...fields,
    });
  const historyOf = (id: string) => call(manager, 'GET', `/api/inventory/${id}/history`);
  /** What a toast's Undo does: the change that left the stream at this version, reverted. */
  const undo = async (account: TestAccount, streamId: string, version: number, status = 201) => {
    const change = await call(account, 'GET', `/api/history/change-at?streamId=${streamId}&version=${version}`);
    return call(account, 'POST', `/api/events/${change.eventId}/revert`, { reason: 'Undo' }, status);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
    categoryId = (await call(manager, 'POST', '/api/categories', { name: `Tools ${backend.name}` })).id;
  });
  afterAll(() => server.close());

  it('undoes each kind of change its author made: adjust, edit, delete, create, category changes', async () => {
    // Adjust (staff's own): back to 10.
    const item = await newItem(manager);
    const adjusted = await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 3, reason: 'restock' });
    expect(adjusted.quantity).toBe(13);
    await undo(staff, `item-${item.id}`, adjusted.version);
    expect((await call(staff, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(10);

    // Edit with a count: both the fields and the count go back.
    const edited = await call(manager, 'PUT', `/api/inventory/${item.id}`, {
      name: 'Renamed',
      price: 7.5,
      quantity: 4,
    });
    expect(edited).toMatchObject({ name: 'Renamed', price: 7.5, quantity: 4 });
    await undo(manager, `item-${item.id}`, edited.version);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({
      name: item.name,
      price: 5,
      quantity: 10,
    });

    // Delete: the item is back, under the same id, its history continuing.
    const before = await call(manager, 'GET', `/api/inventory/${item.id}`);
    await call(manager, 'DELETE', `/api/inventory/${item.id}`, undefined, 204);
    await call(manager, 'GET', `/api/inventory/${item.id}`, undefined, 404);
    await undo(manager, `item-${item.id}`, before.version + 1);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({
      name: item.name,
      sku: item.sku,
      quantity: 10,
      price: 5,
    });

    // Create: the item is gone again.
    const created = await newItem(staff);
    await undo(staff, `item-${created.id}`, created.version);
    await call(staff, 'GET', `/api/inventory/${created.id}`, undefined, 404);

    // Category create, rename, delete.
    const category = await call(manager, 'POST', '/api/categories', {
      name: `Spare ${backend.name}`,
      description: 'bits',
    });
    const renamed = await call(manager, 'PUT', `/api/categories/${category.id}`, { name: `Spares ${backend.name}` });
    await undo(manager, `category-${category.id}`, renamed.version);
    expect((await call(manager, 'GET', `/api/categories/${category.id}`)).name).toBe(`Spare ${backend.name}`);
    await call(manager, 'DELETE', `/api/categories/${category.id}`, undefined, 204);
    await undo(manager, `category-${category.id}`, renamed.version + 2);
    expect(await call(manager, 'GET', `/api/categories/${category.id}`)).toMatchObject({
      name: `Spare ${backend.name}`,
      description: 'bits',
    });
    await undo(manager, `category-${category.id}`, 1);
    await call(manager, 'GET', `/api/categories/${category.id}`, undefined, 404);

    // Nothing was deleted from the log, and every projection is what a replay gives.
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it("Undo reverts the very write it was offered for, not someone else's later change to the item", async () => {
    // What the client does: send the write with an Idempotency-Key, and Undo by that key.
    const write = async (account: TestAccount, method: string, path: string, key: string, body?: unknown) => {
      const r = await server.request(method, path, {
        token: account.idToken,
        body,
        headers: { 'idempotency-key': key },
      });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r.body;
    };
    const undoWrite = async (account: TestAccount, key: string) => {
      const change = await call(account, 'GET', `/api/history/change-of-write?key=${key}`);
      return call(account, 'POST', `/api/events/${change.eventId}/revert`, { reason: 'Undo' }, 201);
    };
    const item = await newItem(manager);
    const mine = `adjust-${backend.name}-${n}`;
    await write(staff, 'POST', `/api/inventory/${item.id}/adjust`, mine, { delta: 3, reason: 'restock' });
    // Someone else changes the item after my +3 and before my Undo.
    await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -1, reason: 'sale' });
    await call(manager, 'PUT', `/api/inventory/${item.id}`, { price: 6 });
    // The key is mine alone: another user asking by it finds nothing.
    await call(manager, 'GET', `/api/history/change-of-write?key=${mine}`, undefined, 404);
    const undone = await undoWrite(staff, mine);
    expect(undone.summary).toBe(`Adjusted stock of ${item.name} by +3 (restock)`);
    // 10 + 3 - 1 - 3: my +3 is taken back, their -1 and their price stay.
    expect(await call(staff, 'GET', `/api/inventory/${item.id}`)).toMatchObject({ quantity: 9, price: 6 });

    // An edit, then someone else's adjust: Undo restores my field only.
    const edit = `edit-${backend.name}-${n}`;
    await write(manager, 'PUT', `/api/inventory/${item.id}`, edit, { name: `${item.name} renamed` });
    await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 2, reason: 'restock' });
    await undoWrite(manager, edit);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({
      name: item.name,
      quantity: 11,
      price: 6,
    });

    // A delete: Undo by its key restores the item.
    const del = `delete-${backend.name}-${n}`;
    await write(manager, 'DELETE', `/api/inventory/${item.id}`, del);
    await undoWrite(manager, del);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({ name: item.name, quantity: 11 });
    const history = await historyOf(item.id);
    expect(history.at(-1).reverts.summary).toBe(`Deleted ${item.name}`);

    // A write that changed nothing has nothing to undo.
    const none = `none-${backend.name}-${n}`;
    await write(manager, 'PUT', `/api/inventory/${item.id}`, none, { name: item.name });
    const nothing = await server.request('GET', `/api/history/change-of-write?key=${none}`, { token: manager.idToken });
    expect(nothing.status).toBe(404);
    expect(nothing.body).toEqual({ error: 'Nothing to undo: that write changed nothing' });
  });

  it('undoes a change once: two undo requests at the same moment, exactly one succeeds', async () => {
    const item = await newItem(manager);
    const adjusted = await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -4, reason: 'sale' });
    const change = await call(
      manager,
      'GET',
      `/api/history/change-at?streamId=item-${item.id}&version=${adjusted.version}`,
    );
    const attempts = await Promise.all(
      [0, 1].map(() =>
        server.request('POST', `/api/events/${change.eventId}/revert`, { token: manager.idToken, body: {} }),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(attempts.find((a) => a.status === 409)!.body.error).toMatch(/already reverted/);
    expect((await call(manager, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(10);
    // And later, one more: still refused.
    const late = await server.request('POST', `/api/events/${change.eventId}/revert`, {
      token: manager.idToken,
      body: {},
    });
    expect(late.status).toBe(409);
  });

  it('reverts an edit field by field: untouched fields go back, fields changed since need a choice', async () => {
    const item = await newItem(manager, { description: 'plain' });
    await call(manager, 'PUT', `/api/inventory/${item.id}`, { name: 'Edited name', price: 9, description: 'edited' });
    const history = await historyOf(item.id);
    const edit = history.find((h: any) => h.type === 'ItemUpdated');

    // Nothing changed since: a plain revert restores all three.
    const plan = await call(manager, 'GET', `/api/events/${edit.eventId}/revert`);
    expect(plan.fields.map((f: any) => [f.field, f.restore, f.changedSince])).toEqual([
      ['description', 'plain', null],
      ['name', item.name, null],
      ['price', 5, null],
    ]);
    await call(manager, 'POST', `/api/events/${edit.eventId}/revert`, { reason: 'wrong item' }, 201);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({
      name: item.name,
      price: 5,
      description: 'plain',
    });

    // Edit again, then staff... a manager changes the price since.
    await call(manager, 'PUT', `/api/inventory/${item.id}`, { name: 'Second name', price: 11 });
    const second = (await historyOf(item.id)).filter((h: any) => h.type === 'ItemUpdated').at(-1);
    const other = await accountWithRole(server, 'manager', 'Otto Other');
    await call(other, 'PUT', `/api/inventory/${item.id}`, { price: 12 });
    const plan2 = await call(manager, 'GET', `/api/events/${second.eventId}/revert`);
    const price = plan2.fields.find((f: any) => f.field === 'price');
    expect(price.changedSince).toMatchObject({ by: 'Otto Other' });
    expect(plan2.fields.find((f: any) => f.field === 'name').changedSince).toBeNull();
    expect(plan2.blocked).toBeNull();
    // Default: only the name goes back; the later price stays.
    await call(manager, 'POST', `/api/events/${second.eventId}/revert`, {}, 201);
    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({ name: item.name, price: 12 });

    // Restore anyway: an edit whose field changed since, reverted with the field picked.
    await call(manager, 'PUT', `/api/inventory/${item.id}`, { threshold: 4 });
    const third = (await historyOf(item.id)).filter((h: any) => h.type === 'ItemUpdated').at(-1);
    await call(other, 'PUT', `/api/inventory/${item.id}`, { threshold: 6 });
    const refused = await server.request('POST', `/api/events/${third.eventId}/revert`, {
      token: manager.idToken,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/threshold \(changed since by Otto Other on/);
    await call(manager, 'POST', `/api/events/${third.eventId}/revert`, { fields: ['threshold'] }, 201);
    expect((await call(manager, 'GET', `/api/inventory/${item.id}`)).threshold).toBe(2);
  });

  it('refuses to revert a stock delta that would now take stock below 0, and says why', async () => {
    const item = await newItem(manager, { quantity: 0 });
    await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 5, reason: 'restock' });
    await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -4, reason: 'sale' });
    const restock = (await historyOf(item.id)).find((h: any) => h.reason === 'restock');
    const plan = await call(manager, 'GET', `/api/events/${restock.eventId}/revert`);
    expect(plan.blocked).toMatch(/below 0/);
    const refused = await server.request('POST', `/api/events/${restock.eventId}/revert`, {
      token: manager.idToken,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(
      `Cannot revert: ${item.name} has 1 in stock now; taking back +5 would leave -4, below 0`,
    );
    expect((await call(manager, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(1);
    // The sale reverts fine (deltas commute): 1 + 4 = 5.
    const sale = (await historyOf(item.id)).find((h: any) => h.reason === 'sale');
    await call(manager, 'POST', `/api/events/${sale.eventId}/revert`, {}, 201);
    expect((await call(manager, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(5);
  });

  it('reverts a delete: the item comes back with its whole history, and the log says "Reverted" with who and why', async () => {
    const item = await newItem(manager);
    await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -2, reason: 'sale' });
    await call(manager, 'DELETE', `/api/inventory/${item.id}`, undefined, 204);
    const deletion = (await historyOf(item.id)).at(-1);
    expect(deletion.type).toBe('ItemDeleted');
    await call(manager, 'POST', `/api/events/${deletion.eventId}/revert`, { reason: 'deleted by mistake' }, 201);

    expect(await call(manager, 'GET', `/api/inventory/${item.id}`)).toMatchObject({
      id: item.id,
      name: item.name,
      quantity: 8,
    });
    const history = await historyOf(item.id);
    expect(history.map((h: any) => h.type)).toEqual(['ItemCreated', 'StockAdjusted', 'ItemDeleted', 'ItemCreated']);
    expect(history[2].revertedBy).toMatchObject({ name: 'Mona Manager' });
    expect(history[3].reverts).toEqual({
      eventId: deletion.eventId,
      summary: `Deleted ${item.name}`,
      reason: 'deleted by mistake',
    });

    const log = await call(manager, 'GET', `/api/activity?q=${encodeURIComponent(item.name)}`);
    const entry = log.entries.find((e: any) => e.details.startsWith('Reverted'));
    expect(entry).toMatchObject({
      userName: 'Mona Manager',
      details: `Reverted deletion of ${item.name}, by Mona Manager, why: deleted by mistake`,
    });
    const deleted = log.entries.find(
      (e: any) => e.details === `Deleted ${item.name} (SKU ${item.sku}), by Mona Manager`,
    );
    expect(deleted).toMatchObject({ eventId: deletion.eventId, reverted: true });
  });

  it("lets only managers and holders of Revert changes revert other people's changes", async () => {
    const item = await newItem(manager);
    const created = (await historyOf(item.id))[0];
    const refused = await server.request('POST', `/api/events/${created.eventId}/revert`, {
      token: staff.idToken,
      body: {},
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "You don't have permission to revert changes" });

    const role = await call(manager, 'POST', '/api/roles', {
      name: `Fixer ${backend.name}`,
      description: 'Reverts mistakes',
      permissions: ['inventory:view', 'changes:revert'],
    });
    const fixer = await accountWithRole(server, role.id, 'Fay Fixer');
    const adjusted = await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'count' });
    const change = await call(
      fixer,
      'GET',
      `/api/history/change-at?streamId=item-${item.id}&version=${adjusted.version}`,
    );
    await call(fixer, 'POST', `/api/events/${change.eventId}/revert`, {}, 201);
    expect((await call(manager, 'GET', `/api/inventory/${item.id}`)).quantity).toBe(10);
    // Low-stock crossings are not changes of their own.
    const unknown = await server.request('POST', '/api/events/00000000-0000-4000-8000-000000000000/revert', {
      token: manager.idToken,
      body: {},
    });
    expect(unknown.status).toBe(404);
  });
});
