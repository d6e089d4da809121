// A reverted sale is not a sale, a reverted restock was not received. Through the
// API: a sale moves units sold, revenue, the top sellers and the forecast; its revert puts
// every one of them back where it was (at the sale's price, though the price changed since),
// and so the display's stock figures; as of a moment between the sale and the revert the
// dashboard still counts the sale. A revert of the revert counts it again. A restock that
// cleared a low item and was then reverted is no longer counted as a restock (as of a moment
// before the revert it still is), and stock that came back because a sale was reverted is
// not a restock either, nor is the alert that sale raised. Every projection stays what a replay of the events gives, and
// migration 019 brings a store written before to the same. (Sales reverted on another day
// than their own, and the roll-ups' fill: dashboard-sales-rollups.test.ts.)
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitStatements } from '../../server/db/migrate.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import type { DashboardSummary, DisplaySnapshot } from '../../shared/dashboard.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a sale moves on the dashboard: sales figures, stock, the health card's counts. */
function figures(d: DashboardSummary) {
  return {
    revenue: d.revenue,
    topSelling: d.topSelling,
    units: d.totals.units,
    value: d.totals.value,
    turnover: d.health.turnover,
    restocksCounted: d.health.restocksCounted,
    avgRestockHours: d.health.avgRestockHours,
  };
}

describe.each(backends())('reverted sales and restocks on the dashboard on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let categoryId: string;
  let n = 0;

  const call = async (method: string, path: string, body?: unknown, status?: number) => {
    const r = await server.request(method, path, { token: manager.idToken, body });
    if (status !== undefined) expect(r.status, JSON.stringify(r.body)).toBe(status);
    else expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newItem = (fields: Record<string, unknown>) =>
    call('POST', '/api/inventory', {
      name: `Crème ${++n}`,
      sku: `CR-${n}`,
      category_id: categoryId,
      quantity: 10,
      price: 5,
      threshold: 2,
      ...fields,
    });
  const dashboard = (asOf?: Date): Promise<DashboardSummary> =>
    call('GET', `/api/dashboard${asOf ? `?asOf=${asOf.toISOString()}` : ''}`);
  const display = (): Promise<DisplaySnapshot> => call('GET', '/api/dashboard/display');
  /** The change that left the item at `version`, reverted; answers the reverting event's id. */
  const revert = async (itemId: string, version: number): Promise<string> => {
    const change = await call('GET', `/api/history/change-at?streamId=item-${itemId}&version=${version}`);
    const done = await call('POST', `/api/events/${change.eventId}/revert`, { reason: 'rung up by mistake' }, 201);
    return done.revertingEventIds[0];
  };
  /** A moment strictly after what was written and strictly before what comes next. */
  const moment = async () => {
    await pause(15);
    const at = new Date();
    await pause(15);
    return at;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    categoryId = (await call('POST', '/api/categories', { name: `Crèmerie ${backend.name}` })).id;
  });
  afterAll(() => server.close());

  it('takes a reverted sale out of every figure, at its own price, and counts it as of a moment before the revert', async () => {
    const item = await newItem({ quantity: 10, price: 5 });
    await newItem({ quantity: 10, price: 3 }); // never sold: not a top seller
    const before = await dashboard();
    const displayBefore = await display();
    expect(before.revenue.unitsSold).toBe(0);

    const sold = await call('POST', `/api/inventory/${item.id}/adjust`, { delta: -2, reason: 'sale' });
    expect(sold.quantity).toBe(8);
    const afterSale = await dashboard();
    expect(afterSale.revenue).toMatchObject({ unitsSold: 2, last30Days: 10 });
    // Minutes of history: no forecast yet (MIN_FORECAST_DAYS); the figures it would use moved.
    expect(afterSale.revenue.forecastNext30Days).toBeNull();
    expect(afterSale.topSelling).toEqual([expect.objectContaining({ itemId: item.id, sold: 2, revenue: 10 })]);
    expect(afterSale.health.turnover).toBeGreaterThan(0);
    const between = await moment();

    // The price changes before the revert: the revert takes back the 10 the sale brought, not 2 x 7.
    const repriced = await call('PUT', `/api/inventory/${item.id}`, { price: 7 });
    const revertId = await revert(item.id, sold.version);
    expect((await call('GET', `/api/inventory/${item.id}`)).quantity).toBe(10);

    const afterRevert = await dashboard();
    // Everything a sale moves is back; stock value differs only by the new price of the 10.
    expect(figures(afterRevert)).toEqual({ ...figures(before), value: before.totals.value + 10 * 2 });
    expect(afterRevert.revenue).toEqual(before.revenue);
    expect(afterRevert.topSelling).toEqual([]);
    const displayAfter = await display();
    const categoryOf = (d: DisplaySnapshot) => d.categories.find((c) => c.categoryId === categoryId);
    expect(categoryOf(displayAfter)).toEqual({
      ...categoryOf(displayBefore),
      value: categoryOf(displayBefore)!.value + 10 * 2,
    });

    // As of a moment between the sale and its revert, the sale counts; as of now it does not.
    const then = await dashboard(between);
    expect(then.revenue).toEqual(afterSale.revenue);
    expect(then.topSelling).toEqual(afterSale.topSelling);
    const now = await dashboard(await moment());
    expect(now.revenue).toEqual(before.revenue);
    expect(now.topSelling).toEqual([]);

    // Undoing the undo: the sale counts again, at its own price.
    const back = await call('POST', `/api/events/${revertId}/revert`, { reason: 'it was sold after all' }, 201);
    expect(back.revertingEventIds).toHaveLength(1);
    const resold = await dashboard();
    expect(resold.revenue).toEqual(afterSale.revenue);
    expect(resold.topSelling).toEqual([
      expect.objectContaining({ itemId: item.id, sold: 2, revenue: 10, name: repriced.name }),
    ]);
    expect(await verifyProjections(server.store.store)).toEqual([]);
  }, 120_000);

  it('does not count a reverted restock as a restock, nor stock back from a reverted sale', async () => {
    const before = await dashboard();
    // Low (1 of threshold 2), then restocked: a restock, for the health card.
    const low = await newItem({ quantity: 1, threshold: 2 });
    const restocked = await call('POST', `/api/inventory/${low.id}/adjust`, { delta: 10, reason: 'restock' });
    const afterRestock = await dashboard();
    expect(afterRestock.health.restocksCounted).toBe(before.health.restocksCounted + 1);
    expect(afterRestock.health.avgRestockHours).not.toBeNull();
    const between = await moment();

    // The restock reverted: the item is low again, and that restock never came in.
    await revert(low.id, restocked.version);
    expect((await call('GET', `/api/inventory/${low.id}`)).quantity).toBe(1);
    const afterRevert = await dashboard();
    expect(afterRevert.health.restocksCounted).toBe(before.health.restocksCounted);
    expect(afterRevert.health.avgRestockHours).toBe(before.health.avgRestockHours);
    expect(afterRevert.totals.lowStock).toBe(afterRestock.totals.lowStock + 1);
    // As of a moment before the revert it still counted.
    expect((await dashboard(between)).health.restocksCounted).toBe(before.health.restocksCounted + 1);

    // A sale takes an item low; its revert brings the stock back: no restock either.
    // Nor is the alert that sale raised a reorder alert once the sale is undone.
    const item = await newItem({ quantity: 3, threshold: 2 });
    const raised = (await dashboard()).health.reorderAlerts.raisedLast30Days;
    const sale = await call('POST', `/api/inventory/${item.id}/adjust`, { delta: -2, reason: 'sale' });
    const afterLowSale = await dashboard();
    expect(afterLowSale.totals.lowStock).toBe(afterRevert.totals.lowStock + 1);
    expect(afterLowSale.health.reorderAlerts.raisedLast30Days).toBe(raised + 1);
    const whileLow = await moment();
    await revert(item.id, sale.version);
    const end = await dashboard();
    expect(end.totals.lowStock).toBe(afterRevert.totals.lowStock);
    expect(end.health.reorderAlerts.raisedLast30Days).toBe(raised);
    expect((await dashboard(whileLow)).health.reorderAlerts.raisedLast30Days).toBe(raised + 1);
    expect(end.health.restocksCounted).toBe(before.health.restocksCounted);
    expect(end.revenue).toEqual(before.revenue);
    expect(await verifyProjections(server.store.store)).toEqual([]);

    // A store written before migration 019 had these episodes as restocks: its fill corrects them.
    const db = server.store.database.db;
    await sql`update low_stock_episodes set cleared_by = 'correction' where cleared_by = 'revert'`.execute(db);
    await sql`update low_stock_episodes set clear_reverted_at = null`.execute(db);
    expect((await dashboard()).health.restocksCounted).toBe(before.health.restocksCounted + 2);
    const fills = splitStatements(
      readFileSync(new URL('../../migrations/019_reverted_sales.sql', import.meta.url), 'utf8'),
    );
    for (const statement of fills.filter((s) => s.startsWith('update low_stock_episodes')))
      await sql.raw(statement).execute(db);
    expect((await dashboard()).health.restocksCounted).toBe(before.health.restocksCounted);
    expect(await verifyProjections(server.store.store)).toEqual([]);
  }, 120_000);
});
