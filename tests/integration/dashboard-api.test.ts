// GET /api/dashboard and GET /api/dashboard/display over real HTTP on every backend: each
// figure computed from the projections (totals, revenue against the previous 30 days, top
// sellers, near expiry, recent activity, health, the 30-day stock value series), the wall
// display's ordering, the roll-ups agreeing with the items table after edits, moves and
// deletes, and the roll-ups equal to a replay of the events and to the migration's backfill.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitStatements } from '../../server/db/migrate.js';
import { DashboardQueries } from '../../server/dashboard/dashboard-queries.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import type { DashboardSummary, DisplaySnapshot } from '../../shared/dashboard.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { backends } from '../helpers/backends.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

describe.each(backends())('dashboard API on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
  const call = (account: TestAccount, method: string, path: string, body?: unknown) =>
    server.request(method, path, { token: account.idToken, body });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const res = await call(account, method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const dashboard = async (account = manager) => (await ok(account, 'GET', '/api/dashboard')) as DashboardSummary;
  const display = async (account = manager) => (await ok(account, 'GET', '/api/dashboard/display')) as DisplaySnapshot;
  const category = async (name: string) => (await ok(manager, 'POST', '/api/categories', { name })).id as string;
  const item = async (categoryId: string, fields: Record<string, unknown>) =>
    (await ok(manager, 'POST', '/api/inventory', {
      sku: `DB-${Math.random().toString(36).slice(2, 9)}`,
      category_id: categoryId,
      ...fields,
    })) as { id: string; version: number };
  const adjust = (account: TestAccount, id: string, delta: number, reason: string) =>
    ok(account, 'POST', `/api/inventory/${id}/adjust`, { delta, reason });

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Dana Dashboard');
    staff = await accountWithRole(server, 'staff', 'Sid Seller');
    guest = await accountWithRole(server, 'guest');
  });
  afterAll(() => server?.close());

  it('shows an empty store as zeros, empty lists and a flat 30-day series', async () => {
    const empty = await dashboard(guest);
    expect(empty.totals).toEqual({ items: 0, categories: 0, units: 0, value: 0, lowStock: 0 });
    expect(empty.revenue).toEqual({
      last30Days: 0,
      previous30Days: 0,
      changePercent: null,
      unitsSold: 0,
      forecastNext30Days: 0,
      forecastBasisDays: 30,
    });
    expect(empty.topSelling).toEqual([]);
    expect(empty.nearExpiry).toEqual([]);
    expect(empty.recentActivity).toEqual([]);
    expect(empty.health).toMatchObject({
      stockLevelPercent: null,
      turnover: null,
      avgRestockHours: null,
      reorderAlerts: { open: 0, raisedLast30Days: 0 },
    });
    expect(empty.stockValue).toHaveLength(30);
    expect(empty.stockValue.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), value: 0, units: 0 });
    expect((await display(guest)).storeName).toBe('My Store');
  });

  it('computes every figure from the events: totals, revenue, top sellers, expiry, activity, health, series', async () => {
    const drinks = await category('Drinks');
    const snacks = await category('Snacks');
    const coffee = await item(drinks, { name: 'Cold Brew', quantity: 20, price: 4.5, threshold: 5 });
    const tea = await item(drinks, {
      name: 'Green Tea',
      quantity: 10,
      price: 3.25,
      threshold: 2,
      expiry_date: inDays(5),
    });
    const chips = await item(snacks, {
      name: 'Chips',
      quantity: 2,
      price: 1.99,
      threshold: 4,
      expiry_date: inDays(12),
    });
    await item(snacks, { name: 'Crackers', quantity: 6, price: 2, threshold: 1, expiry_date: inDays(45) });
    await item(snacks, { name: 'Old Nuts', quantity: 0, price: 5, threshold: 1, expiry_date: inDays(2) });

    await adjust(staff, coffee.id, -6, 'sale'); // 27.00
    await adjust(staff, coffee.id, -2, 'sale'); // 9.00
    await adjust(staff, tea.id, -3, 'sale'); // 9.75
    await adjust(staff, tea.id, 1, 'sale'); // a return: -3.25
    await adjust(staff, chips.id, -1, 'damage'); // not a sale
    await adjust(staff, chips.id, 12, 'restock'); // clears the Chips alert

    const d = await dashboard(staff);
    // Units: 12 + 8 + 13 + 6 + 0; value: 12*4.5 + 8*3.25 + 13*1.99 + 6*2 + 0
    expect(d.totals).toEqual({ items: 5, categories: 2, units: 39, value: 117.87, lowStock: 1 });
    // The store is a day old: too little history to project a month from.
    expect(d.revenue).toEqual({
      last30Days: 42.5,
      previous30Days: 0,
      changePercent: null,
      unitsSold: 10,
      forecastNext30Days: null,
      forecastBasisDays: 1,
    });
    expect(d.topSelling).toEqual([
      { itemId: coffee.id, name: 'Cold Brew', category: 'Drinks', sold: 8, revenue: 36 },
      { itemId: tea.id, name: 'Green Tea', category: 'Drinks', sold: 2, revenue: 6.5 },
    ]);
    // Soonest first; out of stock and beyond 30 days left out.
    expect(d.nearExpiry.map((i) => [i.name, i.daysLeft])).toEqual([
      ['Green Tea', 5],
      ['Chips', 12],
    ]);
    expect(d.recentActivity).toHaveLength(5);
    expect(d.recentActivity[0]).toMatchObject({ action: 'update', resourceName: 'Chips', userName: 'Sid Seller' });
    const times = d.recentActivity.map((e) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(d.health.stockLevelPercent).toBe(80);
    expect(d.health.itemsAboveThreshold).toBe(4);
    // Chips and Old Nuts went low; only Chips was cleared, by a restock.
    expect(d.health.reorderAlerts).toEqual({ open: 1, raisedLast30Days: 2 });
    expect(d.health.restocksCounted).toBe(1);
    expect(d.health.avgRestockHours).toBeGreaterThanOrEqual(0);
    expect(d.health.avgRestockHours).toBeLessThan(0.1);
    expect(d.stockValue.at(-1)).toMatchObject({ value: 117.87, units: 39 });
    // All of it happened today: the average stock on hand is today's over 30 days.
    expect(d.stockValue.at(-2)).toMatchObject({ value: 0, units: 0 });
    expect(d.health.turnover).toBeCloseTo(10 / (39 / 30), 2);
  });

  it('compares the last 30 days with the 30 before, seen from a later day', async () => {
    const later = new DashboardQueries(server.store.database.db, () => new Date(Date.now() + 31 * DAY));
    const summary = await later.summary();
    expect(summary.revenue).toEqual({
      last30Days: 0,
      previous30Days: 42.5,
      changePercent: -100,
      unitsSold: 0,
      forecastNext30Days: 0,
      forecastBasisDays: 30,
    });
    // Ten days on, the pace is the ten days' sales spread over those ten days.
    const tenDaysOn = await new DashboardQueries(server.store.database.db).revenue(new Date(Date.now() + 9 * DAY));
    expect(tenDaysOn).toMatchObject({ last30Days: 42.5, forecastBasisDays: 10, forecastNext30Days: 127.5 });
    // A week of history is the least a forecast is made from; six days give none.
    const sixDaysOn = await new DashboardQueries(server.store.database.db).revenue(new Date(Date.now() + 5 * DAY));
    expect(sixDaysOn).toMatchObject({ forecastBasisDays: 6, forecastNext30Days: null });
    const sevenDaysOn = await new DashboardQueries(server.store.database.db).revenue(new Date(Date.now() + 6 * DAY));
    expect(sevenDaysOn).toMatchObject({ forecastBasisDays: 7, forecastNext30Days: 182.14 }); // 42.5 / 7 x 30
    expect(summary.topSelling).toEqual([]);
    // Nothing changed since: the series is flat at today's stock.
    expect(new Set(summary.stockValue.map((p) => p.value))).toEqual(new Set([117.87]));
    const muchLater = new DashboardQueries(server.store.database.db, () => new Date(Date.now() + 70 * DAY));
    expect((await muchLater.revenue(new Date(Date.now() + 70 * DAY))).previous30Days).toBe(0);
  });

  it('keeps the roll-ups equal to the items table through price edits, category moves and deletes', async () => {
    const tools = await category('Tools');
    const hammer = await item(tools, { name: 'Hammer', quantity: 7, price: 12.5, threshold: 2 });
    const saw = await item(tools, { name: 'Saw', quantity: 3, price: 20, threshold: 3 });
    const drinks = (await ok(manager, 'GET', '/api/categories')).find((c: { name: string }) => c.name === 'Drinks').id;
    await ok(manager, 'PUT', `/api/inventory/${hammer.id}`, { price: 13.75 });
    await ok(manager, 'PUT', `/api/inventory/${hammer.id}`, { category_id: drinks, price: 11.1 });
    await ok(manager, 'PUT', `/api/inventory/${saw.id}`, { quantity: 9, threshold: 1 });
    await adjust(staff, saw.id, -9, 'sale');
    await ok(manager, 'DELETE', `/api/inventory/${saw.id}`);

    const db = server.store.database.db;
    const truth = (
      await sql<{
        items: string;
        units: string;
        value: string;
        low: string;
      }>`select count(*) as items, coalesce(sum(quantity), 0) as units,
        coalesce(sum(quantity * price), 0) as value, count(*) filter (where quantity <= threshold) as low from items`.execute(
        db,
      )
    ).rows[0]!;
    const d = await dashboard();
    expect(d.totals).toMatchObject({
      items: Number(truth.items),
      units: Number(truth.units),
      value: Number(truth.value),
      lowStock: Number(truth.low),
    });

    const perCategory = (
      await sql<{
        name: string;
        n: string;
        units: string;
        value: string;
        low: string;
      }>`select category_name as name, count(*) as n,
        sum(quantity) as units, sum(quantity * price) as value, count(*) filter (where quantity <= threshold) as low
        from items group by category_name order by sum(quantity * price) desc, category_name`.execute(db)
    ).rows.map((r) => ({
      name: r.name,
      itemCount: Number(r.n),
      units: Number(r.units),
      value: Number(r.value),
      lowCount: Number(r.low),
    }));
    const shown = (await display(guest)).categories.map(({ name, itemCount, units, value, lowCount }) => ({
      name,
      itemCount,
      units,
      value,
      lowCount,
    }));
    expect(shown).toEqual(perCategory);
    // Tools lost both its items: no row for it.
    expect(shown.map((c) => c.name)).not.toContain('Tools');
  });

  it('orders the wall display: out of stock first, then the newest alert', async () => {
    const shelf = await category('Shelf');
    const first = await item(shelf, { name: 'Low First', quantity: 1, price: 1, threshold: 2 });
    await item(shelf, { name: 'Low Second', quantity: 2, price: 1, threshold: 2 });
    const snap = await display();
    const names = snap.alerts.map((a) => a.name);
    // Old Nuts is out of stock; the others newest first.
    expect(names.slice(0, 3)).toEqual(['Old Nuts', 'Low Second', 'Low First']);
    expect(snap.alertCount).toBe(snap.alerts.length);
    expect(snap.recentActivity[0]).toMatchObject({ resourceName: 'Low Second', action: 'create' });
    await adjust(staff, first.id, -1, 'sale');
    expect((await display()).alerts.slice(0, 2).map((a) => a.name)).toEqual(['Low First', 'Old Nuts']);
    await ok(manager, 'PUT', '/api/settings', { storeName: 'Corner Shop' });
    expect((await display(guest)).storeName).toBe('Corner Shop');
  });

  it('refuses a signed-in account without View reports', async () => {
    const nobody = await accountWithRole(server, 'no-such-role');
    expect((await call(nobody, 'GET', '/api/dashboard')).status).toBe(403);
    expect((await call(nobody, 'GET', '/api/dashboard/display')).body).toEqual({
      error: "You don't have permission to view reports",
    });
  });

  it("matches a replay of the events, and the migrations' backfill matches the projection", async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
    const db = server.store.database.db;
    const tables = [
      'low_stock_episodes',
      'dashboard_items',
      'stock_daily',
      'category_stock',
      'item_sales_daily',
      'item_sales',
    ];
    const fills = (file: string) =>
      splitStatements(readFileSync(new URL(`../../migrations/${file}`, import.meta.url), 'utf8')).filter((s) =>
        /^(insert into|update)/.test(s),
      );
    // 006 recomputes stock_daily by shard, replacing 005's one row a day; 014 adds its sales.
    const backfill = [
      ...fills('005_dashboard_alerts.sql').filter((s) => !s.startsWith('insert into stock_daily')),
      ...fills('006_stock_daily_shards.sql'),
      ...fills('014_sales_rollups.sql'),
    ];
    expect(backfill).toHaveLength(7);
    await db.transaction().execute(async (trx) => {
      await sql`delete from alert_dismissals`.execute(trx);
      for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(trx);
      for (const statement of backfill) await sql.raw(statement).execute(trx);
    });
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
