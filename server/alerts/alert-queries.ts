// Alert reads, from the alerts projection joined with items: the low-stock list with this
// user's dismissals, one item's alert state for a decision, and the user's alert choices.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings, type LowStockAlert } from '../../shared/alerts.js';
import type { DB } from '../db/schema.js';
import type { AlertItemState } from './decide.js';

interface AlertRow {
  item_id: string;
  name: string;
  sku: string;
  category_name: string;
  category_id: string;
  quantity: number;
  threshold: number;
  started_at: Date;
  dismissed_at: Date | null;
}

/** At most this many alerts in one answer: a store with more has bigger problems than paging. */
export const MAX_ALERTS = 1000;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

function toAlert(row: AlertRow): LowStockAlert {
  return {
    itemId: row.item_id,
    name: row.name,
    sku: row.sku,
    category: row.category_name,
    categoryId: row.category_id,
    quantity: Number(row.quantity),
    threshold: Number(row.threshold),
    since: iso(row.started_at),
    dismissed: row.dismissed_at !== null,
    dismissedAt: row.dismissed_at === null ? null : iso(row.dismissed_at),
  };
}

export class AlertQueries {
  constructor(private readonly db: Kysely<DB>) {}

  /** Open alerts for a user, most critical (lowest share of threshold) first, then newest. */
  async list(uid: string, itemId?: string): Promise<LowStockAlert[]> {
    const only = itemId ? sql`and e.item_id = ${itemId}` : sql``;
    const rows =
      await sql<AlertRow>`select e.item_id::text as item_id, i.name, i.sku, i.category_name, i.category_id::text as category_id,
        i.quantity, i.threshold, e.started_at, d.dismissed_at
      from low_stock_episodes e
      join items i on i.id = e.item_id
      left join alert_dismissals d on d.user_id = ${uid} and d.item_id = e.item_id and d.episode = e.started_position
      where e.ended_at is null ${only}
      order by (i.quantity::float / greatest(i.threshold, 1)), e.started_at desc, i.name
      limit ${MAX_ALERTS}`.execute(this.db);
    return rows.rows.map(toAlert);
  }

  async itemState(db: Kysely<DB>, uid: string, itemId: string): Promise<AlertItemState> {
    const rows = await sql<{ exists: boolean; open: string | null; dismissed: string | null }>`select
        exists (select 1 from items where id = ${itemId}) as exists,
        (select started_position from low_stock_episodes where item_id = ${itemId} and ended_at is null) as open,
        (select episode from alert_dismissals where user_id = ${uid} and item_id = ${itemId}) as dismissed`.execute(db);
    const row = rows.rows[0]!;
    return {
      itemExists: row.exists,
      openEpisode: row.open === null ? null : Number(row.open),
      dismissedEpisode: row.dismissed === null ? null : Number(row.dismissed),
    };
  }

  async settings(uid: string, db: Kysely<DB> = this.db): Promise<AlertSettings> {
    const rows = await sql<{
      in_app_toasts: boolean;
      notify_when: AlertSettings['notifyWhen'];
    }>`select in_app_toasts, notify_when
      from alert_settings where user_id = ${uid}`.execute(db);
    const row = rows.rows[0];
    return row ? { inAppToasts: row.in_app_toasts, notifyWhen: row.notify_when } : { ...DEFAULT_ALERT_SETTINGS };
  }
}
