// The dashboard's figures, each one query over a projection: totals and the stock value
// series from the daily roll-up, revenue and top sellers from the sales roll-ups (day rows
// plus the movements of the partial days at the window's ends, see sales-windows.ts), near
// expiry from the items' expiry index, health from the low-stock episodes. The clock is
// passed in so tests can look at the same data from another day.
import { sql, type Kysely } from 'kysely';
import type {
  DashboardSummary,
  DashboardTotals,
  InventoryHealth,
  NearExpiryItem,
  RevenueFigures,
  SiteLowStock,
  StockValuePoint,
  TopSellingItem,
} from '../../shared/dashboard.js';
import { MIN_FORECAST_DAYS, NEAR_EXPIRY_DAYS } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { readSettings } from '../accounts/settings/settings-queries.js';
import { latestActivity } from './activity-rows.js';
import { itemRevenue, itemSoldParts, revenueWindows } from './sales-windows.js';
import { openAlerts, severalSites } from '../alerts/open-alerts-sql.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOW_DAYS = 30;

export type Clock = () => Date;

const ymd = (date: Date) => date.toISOString().slice(0, 10);
const num = (value: unknown) => Number(value ?? 0);
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Days the revenue forecast takes its daily pace from: the last 30, or, for a store whose
 * first stock arrived less than 30 days ago, the days since then (today counts as one), so
 * a new store's pace isn't diluted by days before it existed.
 */
export function forecastBasisDays(firstDay: string | null, now: Date): number {
  const first = firstDay === null ? Number.NaN : Date.parse(`${firstDay}T00:00:00Z`);
  if (Number.isNaN(first)) return WINDOW_DAYS;
  const days = Math.floor((now.getTime() - first) / DAY_MS) + 1;
  return Math.min(WINDOW_DAYS, Math.max(1, days));
}

export class DashboardQueries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock = () => new Date(),
  ) {}

  async summary(): Promise<DashboardSummary> {
    const now = this.clock();
    const [totals, revenue, topSelling, nearExpiry, recentActivity, stockValue, settings, lowStockBySite] =
      await Promise.all([
        this.totals(),
        this.revenue(now),
        this.topSelling(now),
        this.nearExpiry(now),
        this.recentActivity(),
        this.stockValue(now),
        readSettings(this.db),
        this.lowStockBySite(),
      ]);
    const health = await this.health(now, totals, revenue.unitsSold, stockValue);
    const money = { currency: settings.currency, locale: settings.locale };
    return {
      generatedAt: now.toISOString(),
      totals,
      revenue,
      topSelling,
      nearExpiry,
      recentActivity,
      health,
      stockValue,
      money,
      lowStockBySite,
    };
  }

  /** Open alerts by active site (open-alerts-sql.ts), in a store of several sites; null in a store of one. */
  async lowStockBySite(): Promise<SiteLowStock[] | null> {
    const rows = await sql<{ site_id: string; site_name: string; count: string; out: string; several: boolean }>`select
        s.id::text as site_id, s.name as site_name, count(a.item_id) as count,
        count(a.item_id) filter (where a.quantity <= 0) as out, ${severalSites} as several
      from sites s left join (${openAlerts}) a on a.about_site_id = s.id
      where s.archived_at is null
      group by s.id, s.name
      order by lower(s.name), s.id`.execute(this.db);
    if (!rows.rows[0]?.several) return null;
    return rows.rows.map((r) => ({ siteId: r.site_id, siteName: r.site_name, count: num(r.count), out: num(r.out) }));
  }

  /** The newest activity entries (an as-of dashboard shows those up to its moment). */
  recentActivity(): Promise<DashboardSummary['recentActivity']> {
    return latestActivity(this.db, 5);
  }

  async totals(): Promise<DashboardTotals> {
    const rows = await sql<{ items: string; units: string; value: string; categories: string; low: string }>`select
        (select coalesce(sum(items_delta), 0) from stock_daily) as items,
        (select coalesce(sum(units_delta), 0) from stock_daily) as units,
        (select coalesce(sum(value_delta), 0) from stock_daily) as value,
        (select count(*) from categories) as categories,
        (select count(*) from low_stock_episodes where ended_at is null) as low`.execute(this.db);
    const row = rows.rows[0]!;
    return {
      items: num(row.items),
      categories: num(row.categories),
      units: num(row.units),
      value: round2(num(row.value)),
      lowStock: num(row.low),
    };
  }

  async revenue(now: Date): Promise<RevenueFigures> {
    const since30 = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
    const since60 = new Date(now.getTime() - 2 * WINDOW_DAYS * DAY_MS);
    const rows = await sql<{ current: string; previous: string; units: string; first_day: string | null }>`select
        w.current, w.previous, w.units, (select min(day)::text from stock_daily) as first_day
      from (${revenueWindows(since60, since30, now)}) w`.execute(this.db);
    const row = rows.rows[0]!;
    const current = round2(num(row.current));
    const previous = round2(num(row.previous));
    const basisDays = forecastBasisDays(row.first_day, now);
    return {
      last30Days: current,
      previous30Days: previous,
      changePercent: previous > 0 ? Math.round(((current - previous) / previous) * 1000) / 10 : null,
      unitsSold: num(row.units),
      // No forecast from under a week of history (MIN_FORECAST_DAYS): the card says so.
      forecastNext30Days:
        basisDays >= MIN_FORECAST_DAYS ? round2((Math.max(0, current) / basisDays) * WINDOW_DAYS) : null,
      forecastBasisDays: basisDays,
    };
  }

  async topSelling(now: Date, limit = 5): Promise<TopSellingItem[]> {
    const since = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
    // The items are read once (a materialized CTE): with the sums' row count underestimated,
    // the planner would otherwise look them up one by one.
    const rows = await sql<{ item_id: string; name: string; category_name: string; sold: string; revenue: string }>`with
      i as materialized (select id, name, category_name from items)
      select t.item_id::text as item_id, t.name, t.category_name, t.sold, ${itemRevenue(sql`t.item_id`, since, now)} as revenue
      from (
        select s.item_id, i.name, i.category_name, s.sold
        from (select item_id, sum(sold) as sold from (${itemSoldParts(since, now)}) p group by item_id) s
        join i on i.id = s.item_id
        where s.sold > 0
        order by s.sold desc, i.name limit ${limit}) t
      order by t.sold desc, t.name`.execute(this.db);
    return rows.rows.map((r) => ({
      itemId: r.item_id,
      name: r.name,
      category: r.category_name,
      sold: num(r.sold),
      revenue: round2(num(r.revenue)),
    }));
  }

  async nearExpiry(now: Date, limit = 3): Promise<NearExpiryItem[]> {
    const today = ymd(now);
    const rows = await sql<{
      id: string;
      name: string;
      category_name: string;
      quantity: number;
      expiry: string;
      days: number;
    }>`select
        id::text as id, name, category_name, quantity, to_char(expiry_date, 'YYYY-MM-DD') as expiry, (expiry_date - ${today}::date) as days
      from items
      where expiry_date >= ${today}::date and expiry_date <= ${today}::date + ${NEAR_EXPIRY_DAYS}::int and quantity > 0
      order by expiry_date, name limit ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      category: r.category_name,
      quantity: num(r.quantity),
      expiryDate: r.expiry,
      daysLeft: num(r.days),
    }));
  }

  /** Stock at the end of each of the last 30 days (UTC), oldest first, from the daily roll-up. */
  async stockValue(now: Date): Promise<StockValuePoint[]> {
    const today = ymd(now);
    const start = ymd(new Date(now.getTime() - (WINDOW_DAYS - 1) * DAY_MS));
    const base = await sql<{
      units: string;
      value: string;
    }>`select coalesce(sum(units_delta), 0) as units, coalesce(sum(value_delta), 0) as value
      from stock_daily where day < ${start}::date`.execute(this.db);
    const days = await sql<{
      day: string;
      units: string;
      value: string;
    }>`select to_char(day, 'YYYY-MM-DD') as day, sum(units_delta) as units, sum(value_delta) as value
      from stock_daily where day >= ${start}::date and day <= ${today}::date group by day order by day`.execute(
      this.db,
    );
    const byDay = new Map(days.rows.map((r) => [r.day, r]));
    let units = num(base.rows[0]!.units);
    let value = num(base.rows[0]!.value);
    const points: StockValuePoint[] = [];
    for (let i = WINDOW_DAYS - 1; i >= 0; i--) {
      const date = ymd(new Date(now.getTime() - i * DAY_MS));
      const change = byDay.get(date);
      if (change) {
        units += num(change.units);
        value += num(change.value);
      }
      points.push({ date, units, value: round2(value) });
    }
    return points;
  }

  async health(
    now: Date,
    totals: DashboardTotals,
    unitsSold: number,
    stockValue: StockValuePoint[],
  ): Promise<InventoryHealth> {
    const since = new Date(now.getTime() - WINDOW_DAYS * DAY_MS);
    // Restocks are episodes cleared by stock that came in: not by an edited threshold, a
    // deletion or a revert (stock back because a sale was undone), and not by a movement
    // reverted by `now` (a reverted restock was never received; before its revert it counted).
    // Likewise an alert raised is not counted once a revert cleared it: the sale that took the
    // item low was undone, so no reorder was ever needed (as of a moment before, it counted).
    const rows = await sql<{ raised: string; avg_seconds: string | null; restocks: string }>`select
        (select count(*) from low_stock_episodes where started_at >= ${since} and started_at <= ${now}
          and (cleared_by is distinct from 'revert' or ended_at > ${now})) as raised,
        avg(extract(epoch from ended_at - started_at)) as avg_seconds,
        count(*) as restocks
      from low_stock_episodes
      where ended_at >= ${since} and ended_at <= ${now} and cleared_by not in ('threshold', 'deleted', 'revert')
        and (clear_reverted_at is null or clear_reverted_at > ${now})`.execute(this.db);
    const row = rows.rows[0]!;
    const averageUnits = stockValue.reduce((sum, p) => sum + p.units, 0) / Math.max(1, stockValue.length);
    const above = totals.items - totals.lowStock;
    return {
      stockLevelPercent: totals.items > 0 ? Math.round((above / totals.items) * 100) : null,
      itemsAboveThreshold: above,
      turnover: averageUnits > 0 ? Math.round((unitsSold / averageUnits) * 100) / 100 : null,
      reorderAlerts: { open: totals.lowStock, raisedLast30Days: num(row.raised) },
      avgRestockHours: row.avg_seconds === null ? null : Math.round((num(row.avg_seconds) / 3600) * 10) / 10,
      restocksCounted: num(row.restocks),
    };
  }
}
