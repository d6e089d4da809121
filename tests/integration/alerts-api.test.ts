// /api/alerts over real HTTP on every backend: the low-stock list, a dismissal that is one
// user's own, survives reloads and ends when the item recovers (a later fall alerts again),
// restore, refusals (not low, missing, bad id, unknown field), idempotent repeats and races,
// the user's alert choices, deletes, and the projection equal to a replay.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import type { LowStockAlert } from '../../shared/alerts.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { backends } from '../helpers/backends.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe.each(backends())('alerts API on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
  let categoryId: string;
  const call = (account: TestAccount, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(method, path, { token: account.idToken, body, headers });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const res = await call(account, method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const alerts = async (account: TestAccount): Promise<LowStockAlert[]> =>
    (await ok(account, 'GET', '/api/alerts')).alerts;
  const alertOf = async (account: TestAccount, itemId: string) =>
    (await alerts(account)).find((a) => a.itemId === itemId);
  const item = async (name: string, quantity: number, threshold: number) =>
    (
      await ok(manager, 'POST', '/api/inventory', {
        name,
        sku: `AL-${Math.random().toString(36).slice(2, 9)}`,
        category_id: categoryId,
        quantity,
        price: 2,
        threshold,
      })
    ).id as string;
  const adjust = (id: string, delta: number, reason = 'correction') =>
    ok(staff, 'POST', `/api/inventory/${id}/adjust`, { delta, reason });
  const eventsOf = async (type: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from events where type = ${type}`.execute(
          server.store.database.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Alma Alerts');
    staff = await accountWithRole(server, 'staff', 'Stu Stock');
    guest = await accountWithRole(server, 'guest');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: 'Pantry' })).id;
  });
  afterAll(() => server?.close());

  it('lists low items most critical first, with name, category, stock and threshold', async () => {
    expect(await alerts(guest)).toEqual([]);
    const rice = await item('Rice', 3, 4);
    const beans = await item('Beans', 0, 2);
    await item('Flour', 9, 2);
    const list = await alerts(guest);
    expect(list.map((a) => a.name)).toEqual(['Beans', 'Rice']);
    expect(list[1]).toMatchObject({
      itemId: rice,
      sku: expect.stringMatching(/^AL-/),
      category: 'Pantry',
      categoryId,
      quantity: 3,
      threshold: 4,
      dismissed: false,
      dismissedAt: null,
    });
    expect(Date.parse(list[1]!.since)).toBeGreaterThan(Date.now() - 60_000);
    await adjust(rice, -1);
    expect((await alertOf(guest, rice))!.quantity).toBe(2);
    expect(beans).toBeTruthy();
  });

  it('keeps a dismissal to the user who made it, across reads, and idempotent', async () => {
    const salt = await item('Salt', 1, 3);
    const dismissed = await ok(staff, 'POST', `/api/alerts/${salt}/dismiss`);
    expect(dismissed).toMatchObject({ itemId: salt, dismissed: true });
    expect(Date.parse(dismissed.dismissedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await alertOf(staff, salt))!.dismissed).toBe(true);
    expect((await alertOf(manager, salt))!.dismissed).toBe(false);

    const before = await eventsOf('AlertDismissed');
    expect((await ok(staff, 'POST', `/api/alerts/${salt}/dismiss`, {})).dismissed).toBe(true);
    expect(await eventsOf('AlertDismissed')).toBe(before);

    // The same Idempotency-Key twice: one event, the same answer.
    const key = { 'idempotency-key': `dismiss-${salt}` };
    const first = await call(manager, 'POST', `/api/alerts/${salt}/dismiss`, undefined, key);
    const again = await call(manager, 'POST', `/api/alerts/${salt}/dismiss`, undefined, key);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await eventsOf('AlertDismissed')).toBe(before + 1);
  });

  it('ends a dismissal when the item recovers: the next fall alerts again', async () => {
    const oil = await item('Oil', 2, 2);
    await ok(staff, 'POST', `/api/alerts/${oil}/dismiss`);
    await adjust(oil, -1, 'sale');
    // Still the same episode: still dismissed.
    expect((await alertOf(staff, oil))!.dismissed).toBe(true);
    await adjust(oil, 10, 'restock');
    expect(await alertOf(staff, oil)).toBeUndefined();
    await adjust(oil, -10, 'sale');
    expect(await alertOf(staff, oil)).toMatchObject({ quantity: 1, dismissed: false, dismissedAt: null });
  });

  it('restores a dismissed alert, and restoring twice is harmless', async () => {
    const sugar = await item('Sugar', 0, 1);
    await ok(staff, 'POST', `/api/alerts/${sugar}/dismiss`);
    expect(await ok(staff, 'POST', `/api/alerts/${sugar}/restore`)).toMatchObject({ itemId: sugar, dismissed: false });
    expect((await ok(staff, 'POST', `/api/alerts/${sugar}/restore`)).dismissed).toBe(false);
    expect((await alertOf(staff, sugar))!.dismissed).toBe(false);
  });

  it('refuses what cannot be dismissed, with the one error shape', async () => {
    const plenty = await item('Plenty', 50, 5);
    expect(await call(staff, 'POST', `/api/alerts/${plenty}/dismiss`)).toMatchObject({
      status: 409,
      body: { error: 'This item is not low on stock: there is no alert to dismiss' },
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await call(staff, 'POST', `/api/alerts/${missing}/dismiss`)).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    // An id that is not a uuid names no item either: the same 404, not a 400 about its format.
    expect(await call(staff, 'POST', '/api/alerts/not-a-uuid/dismiss')).toMatchObject({
      status: 404,
      body: { error: 'Item not found' },
    });
    expect(await call(staff, 'POST', `/api/alerts/${plenty}/dismiss`, { note: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'Unknown field: note' },
    });
    expect((await call(staff, 'POST', `/api/alerts/${plenty}/restore`)).status).toBe(404);
    const nobody = await accountWithRole(server, 'no-such-role');
    expect((await call(nobody, 'GET', '/api/alerts')).status).toBe(403);
  });

  it('dismisses several alerts of one user at once (the stream race is retried)', async () => {
    const ids = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((n) => item(`Race ${n}`, 0, 1)));
    const results = await Promise.all(ids.map((id) => call(staff, 'POST', `/api/alerts/${id}/dismiss`)));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const mine = await alerts(staff);
    expect(ids.every((id) => mine.find((a) => a.itemId === id)?.dismissed)).toBe(true);
  });

  it("drops a deleted item's alert and dismissals", async () => {
    const tin = await item('Tin', 0, 1);
    await ok(staff, 'POST', `/api/alerts/${tin}/dismiss`);
    await ok(manager, 'DELETE', `/api/inventory/${tin}`);
    expect(await alertOf(staff, tin)).toBeUndefined();
    const rows = await sql`select * from alert_dismissals where item_id = ${tin}`.execute(server.store.database.db);
    expect(rows.rows).toEqual([]);
  });

  it("holds each user's alert choices", async () => {
    expect(await ok(staff, 'GET', '/api/alerts/settings')).toEqual({ inAppToasts: true, notifyWhen: 'low' });
    expect(await ok(staff, 'PUT', '/api/alerts/settings', { inAppToasts: false, notifyWhen: 'out' })).toEqual({
      inAppToasts: false,
      notifyWhen: 'out',
    });
    expect(await ok(staff, 'GET', '/api/alerts/settings')).toEqual({ inAppToasts: false, notifyWhen: 'out' });
    expect(await ok(manager, 'GET', '/api/alerts/settings')).toEqual({ inAppToasts: true, notifyWhen: 'low' });
    const before = await eventsOf('AlertSettingsChanged');
    await ok(staff, 'PUT', '/api/alerts/settings', { inAppToasts: false, notifyWhen: 'out' });
    expect(await eventsOf('AlertSettingsChanged')).toBe(before);
    expect(
      await call(staff, 'PUT', '/api/alerts/settings', { inAppToasts: true, notifyWhen: 'sometimes' }),
    ).toMatchObject({ status: 400 });
    expect(await call(staff, 'PUT', '/api/alerts/settings', { inAppToasts: true })).toMatchObject({
      status: 400,
      body: { error: 'notifyWhen is required' },
    });
    expect(
      await call(staff, 'PUT', '/api/alerts/settings', { inAppToasts: true, notifyWhen: 'low', sound: true }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Unknown field: sound' },
    });
  });

  it('matches a replay of the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
