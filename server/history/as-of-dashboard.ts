// The dashboard as it was at a moment: the same figures as DashboardQueries with the clock
// set to that moment, but totals, low stock, near expiry and the top sellers' names read from
// the item versions valid then (the live ones read the items table and the open low-stock
// episodes), and the recent activity up to that moment. Revenue and top sellers come from the
// sales roll-ups (server/dashboard/sales-windows.ts), which hold every moment's sums.
import { sql, type Kysely } from 'kysely';
import type { DashboardSummary, DashboardTotals, NearExpiryItem, TopSellingItem } from '../../shared/dashboard.js';
import { NEAR_EXPIRY_DAYS } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { DashboardQueries } from '../dashboard/dashboard-queries.js';
import { latestActivity } from '../dashboard/activity-rows.js';
import { itemSalesParts } from '../dashboard/sales-windows.js';
import { asOfItemColumns, validAt } from './as-of-queries.js';

const num = (value: unknown) => Number(value ?? 0);
const DAY_MS = 24 * 60 * 60 * 1000;

export class AsOfDashboardQueries extends DashboardQueries {
  constructor(
    private readonly database: Kysely<DB>,
    private readonly at: Date,
  ) {
    super(database, () => at);
  }

  override recentActivity(): Promise<DashboardSummary['recentActivity']> {
    return latestActivity(this.database, 5, this.at);
  }

  override async totals(): Promise<DashboardTotals> {
    const t = this.at;
    const rows = await sql<{ items: string; units: string; value: string; low: string; categories: string }>`select
        count(*) as items, coalesce(sum(v.quantity), 0) as units, coalesce(sum(v.quantity * v.price), 0) as value,
        count(*) filter (where v.quantity <= v.threshold) as low,
        (select count(*) from category_versions cv where ${validAt('cv', t)}) as categories
      from item_versions v where ${validAt('v', t)}`.execute(this.database);
    const row = rows.rows[0]!;
    return {
      items: num(row.items),
      categories: num(row.categories),
      units: num(row.units),
      value: Math.round(num(row.value) * 100) / 100,
      lowStock: num(row.low),
    };
  }

  /**
   * The items that sold most in the 30 days up to the moment, among the items as they were
   * then (names and categories of then; an item deleted since still counts, one deleted by
   * then does not), as the live dashboard showed them at that moment.
   */
  override async topSelling(now: Date, limit = 5): Promise<TopSellingItem[]> {
    const since = new Date(now.getTime() - 30 * DAY_MS);
    // The versions are read once, by their range (a materialized CTE): with the sums' row count
    // underestimated, the planner would otherwise look each item's versions up by its key.
    const rows = await sql<{ id: string; name: string; category_name: string; sold: string; revenue: string }>`with
      v as materialized (select item_id, name, category_id from item_versions v where ${validAt('v', now)})
      select t.item_id::text as id, t.name, t.sold, t.revenue,
        coalesce((select cv.name from category_versions cv where cv.category_id = t.category_id and ${validAt('cv', now)} limit 1),
          (select c.name from categories c where c.id = t.category_id), '') as category_name
      from (
        select s.item_id, v.name, v.category_id, s.sold, s.revenue
        from (select item_id, sum(sold) as sold, sum(revenue) as revenue from (${itemSalesParts(since, now)}) p group by item_id) s
        join v on v.item_id = s.item_id
        where s.sold > 0
        order by s.sold desc, v.name limit ${limit}) t
      order by t.sold desc, t.name`.execute(this.database);
    return rows.rows.map((r) => ({ itemId: r.id, name: r.name, category: r.category_name, sold: num(r.sold), revenue: Math.round(num(r.revenue) * 100) / 100 }));
  }

  override async nearExpiry(now: Date, limit = 3): Promise<NearExpiryItem[]> {
    const today = now.toISOString().slice(0, 10);
    const rows = await sql<{ id: string; name: string; category_name: string; quantity: number; expiry_date: string }>`select
        ${asOfItemColumns(now)} from item_versions v
      where ${validAt('v', now)} and v.expiry_date >= ${today}::date and v.expiry_date <= ${today}::date + ${NEAR_EXPIRY_DAYS}::int
        and v.quantity > 0
      order by v.expiry_date, v.name limit ${limit}`.execute(this.database);
    return rows.rows.map((r) => ({
      itemId: r.id,
      name: r.name,
      category: r.category_name,
      quantity: num(r.quantity),
      expiryDate: r.expiry_date,
      daysLeft: Math.round((Date.parse(`${r.expiry_date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000),
    }));
  }
}
