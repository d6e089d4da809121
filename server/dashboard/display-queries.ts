// What the wall display shows, in one read: store name and money format, the open low-stock
// alerts (out of stock first, then newest), stock by category from its roll-up, and the
// latest activity.
import { sql, type Kysely } from 'kysely';
import type { CategoryStock, DisplayAlert, DisplaySnapshot } from '../../shared/dashboard.js';
import type { DB } from '../db/schema.js';
import { readSettings } from '../accounts/settings/settings-queries.js';
import { latestActivity } from './activity-rows.js';
import type { Clock } from './dashboard-queries.js';

/**
 * The wall pages through its alerts (client/features/display), so it gets all of them up to
 * this cap (as client/features/display/display-limits.ts); the count says how many more.
 */
export const DISPLAY_ALERTS = 200;
export const DISPLAY_ACTIVITY = 12;
export const DISPLAY_CATEGORIES = 24;

export class DisplayQueries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock = () => new Date(),
  ) {}

  async snapshot(): Promise<DisplaySnapshot> {
    const now = this.clock();
    const [settings, alerts, alertCount, categories, recentActivity] = await Promise.all([
      readSettings(this.db),
      this.alerts(),
      this.alertCount(),
      this.categories(),
      latestActivity(this.db, DISPLAY_ACTIVITY),
    ]);
    const money = { currency: settings.currency, locale: settings.locale };
    return {
      generatedAt: now.toISOString(),
      storeName: settings.storeName,
      alerts,
      alertCount,
      categories,
      recentActivity,
      money,
    };
  }

  private async alerts(): Promise<DisplayAlert[]> {
    const rows = await sql<{
      item_id: string;
      name: string;
      category_name: string;
      quantity: number;
      threshold: number;
      started_at: Date;
    }>`select
        e.item_id::text as item_id, i.name, i.category_name, i.quantity, i.threshold, e.started_at
      from low_stock_episodes e join items i on i.id = e.item_id
      where e.ended_at is null
      order by (i.quantity = 0) desc, e.started_at desc, e.started_position desc
      limit ${DISPLAY_ALERTS}`.execute(this.db);
    return rows.rows.map((r) => ({
      itemId: r.item_id,
      name: r.name,
      category: r.category_name,
      quantity: Number(r.quantity),
      threshold: Number(r.threshold),
      since: new Date(r.started_at).toISOString(),
    }));
  }

  private async alertCount(): Promise<number> {
    const rows = await sql<{ n: string }>`select count(*) as n from low_stock_episodes where ended_at is null`.execute(
      this.db,
    );
    return Number(rows.rows[0]!.n);
  }

  /** Categories by stock value, largest first. */
  private async categories(): Promise<CategoryStock[]> {
    const rows = await sql<{
      id: string;
      name: string;
      item_count: number;
      units: string;
      value: string;
      low_count: number;
    }>`select
        c.id::text as id, c.name, s.item_count, s.units, s.value, s.low_count
      from category_stock s join categories c on c.id = s.category_id
      order by s.value desc, c.name limit ${DISPLAY_CATEGORIES}`.execute(this.db);
    return rows.rows.map((r) => ({
      categoryId: r.id,
      name: r.name,
      itemCount: Number(r.item_count),
      units: Number(r.units),
      value: Math.round(Number(r.value) * 100) / 100,
      lowCount: Number(r.low_count),
    }));
  }
}
