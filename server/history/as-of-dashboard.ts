// The dashboard as it was at a moment: the same figures as DashboardQueries with the clock
// set to that moment, but totals, low stock and near expiry read from the item versions
// valid then (the live ones read the items table and the open low-stock episodes), and the
// recent activity up to that moment.
import { sql, type Kysely } from 'kysely';
import type { DashboardSummary, DashboardTotals, NearExpiryItem } from '../../shared/dashboard.js';
import { NEAR_EXPIRY_DAYS } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { DashboardQueries } from '../dashboard/dashboard-queries.js';
import { latestActivity } from '../dashboard/activity-rows.js';
import { asOfItemColumns, validAt } from './as-of-queries.js';

const num = (value: unknown) => Number(value ?? 0);

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
