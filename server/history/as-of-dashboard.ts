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
import { itemRevenue, itemSoldParts } from '../dashboard/sales-windows.js';
import { asOfItemColumns, validAt } from './as-of-queries.js';

const num = (value: unknown) => Number(value ?? 0);
const DAY_MS = 24 * 60 * 60 * 1000;

interface TopRow {
  id: string;
  name: string;
  category_name: string;
  sold: number;
  revenue: number;
}

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

  /** Alerts per site are not kept as of a moment. */
  override async lowStockBySite(): Promise<null> {
    return null;
  }

  private then: Promise<{ totals: DashboardTotals; top: TopSellingItem[] }> | null = null;

  override async totals(): Promise<DashboardTotals> {
    return (await this.itemsThen()).totals;
  }

  /**
   * The items that sold most in the 30 days up to the moment, among the items as they were
   * then (names and categories of then; an item deleted since still counts, one deleted by
   * then does not), as the live dashboard showed them at that moment.
   */
  override async topSelling(now: Date, limit = 5): Promise<TopSellingItem[]> {
    if (now.getTime() === this.at.getTime() && limit === 5) return (await this.itemsThen()).top;
    return (await this.readItemsThen(now, limit)).top;
  }

  /** Totals and top sellers share one read of the versions valid at the moment. */
  private itemsThen() {
    this.then ??= this.readItemsThen(this.at, 5);
    return this.then;
  }

  private async readItemsThen(t: Date, limit: number): Promise<{ totals: DashboardTotals; top: TopSellingItem[] }> {
    const since = new Date(t.getTime() - 30 * DAY_MS);
    // The versions are read once, by their range (a materialized CTE): with the sales sums' row
    // count underestimated, the planner would otherwise look each item's versions up by its key.
    const rows = await sql<{
      items: string;
      units: string;
      value: string;
      low: string;
      categories: string;
      top: TopRow[];
    }>`with
      v as materialized (select item_id, name, category_id, quantity, price, threshold from item_versions v where ${validAt('v', t)}),
      top as (
        select s.item_id, v.name, v.category_id, s.sold
        from (select item_id, sum(sold) as sold from (${itemSoldParts(since, t)}) p group by item_id) s
        join v on v.item_id = s.item_id
        where s.sold > 0
        order by s.sold desc, v.name limit ${limit})
      select count(*) as items, coalesce(sum(v.quantity), 0) as units, coalesce(sum(v.quantity * v.price), 0) as value,
        count(*) filter (where v.quantity <= v.threshold) as low,
        (select count(*) from category_versions cv where ${validAt('cv', t)}) as categories,
        (select coalesce(json_agg(x order by x.sold desc, x.name), '[]') from (
          select top.item_id as id, top.name, top.sold, ${itemRevenue(sql`top.item_id`, since, t)} as revenue,
            coalesce((select cv.name from category_versions cv where cv.category_id = top.category_id and ${validAt('cv', t)} limit 1),
              (select c.name from categories c where c.id = top.category_id), '') as category_name
          from top) x) as top
      from v`.execute(this.database);
    const row = rows.rows[0]!;
    const top = typeof row.top === 'string' ? (JSON.parse(row.top) as TopRow[]) : row.top;
    return {
      totals: {
        items: num(row.items),
        categories: num(row.categories),
        units: num(row.units),
        value: Math.round(num(row.value) * 100) / 100,
        lowStock: num(row.low),
      },
      top: top.map((r) => ({
        itemId: r.id,
        name: r.name,
        category: r.category_name,
        sold: num(r.sold),
        revenue: Math.round(num(r.revenue) * 100) / 100,
      })),
    };
  }

  override async nearExpiry(now: Date, limit = 3): Promise<NearExpiryItem[]> {
    const today = now.toISOString().slice(0, 10);
    const rows = await sql<{
      id: string;
      name: string;
      category_name: string;
      quantity: number;
      expiry_date: string;
    }>`select
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
