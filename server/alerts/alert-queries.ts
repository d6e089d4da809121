// Alert reads, from the alerts projection joined with items: the low-stock list with this
// user's dismissals (per site where items are watched per site, open-alerts-sql.ts), one
// item's alert state for a decision, and the user's alert choices.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings, type LowStockAlert } from '../../shared/alerts.js';
import type { DB } from '../db/schema.js';
import type { AlertItemState } from './decide.js';
import { openAlerts, severalSites, visibleTo } from './open-alerts-sql.js';

interface AlertRow {
  item_id: string;
  site_id: string | null;
  name: string;
  sku: string;
  category_name: string;
  category_id: string;
  quantity: number;
  threshold: number;
  started_at: Date;
  dismissed_at: Date | null;
  site_name: string | null;
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
    siteId: row.site_id,
    siteName: row.site_name,
  };
}

/** Which alerts a read wants: one item's (and one site's), and the sites the reader may see. */
export interface AlertFilter {
  itemId?: string;
  /** With itemId: the alert at this site (null: the item's own). */
  siteId?: string | null;
  sites?: 'all' | readonly string[];
}

export class AlertQueries {
  constructor(private readonly db: Kysely<DB>) {}

  /** Open alerts for a user, most critical (lowest share of threshold) first, then newest. */
  async list(uid: string, filter: AlertFilter = {}): Promise<LowStockAlert[]> {
    const only = filter.itemId ? sql`and a.item_id = ${filter.itemId}` : sql``;
    const atSite =
      filter.siteId === undefined
        ? sql``
        : filter.siteId === null
          ? sql`and a.site_id is null`
          : sql`and a.site_id = ${filter.siteId}`;
    const rows = await sql<AlertRow>`select a.item_id::text as item_id, a.site_id::text as site_id, i.name, i.sku,
        i.category_name, i.category_id::text as category_id, a.quantity, a.threshold, a.started_at,
        coalesce(sd.dismissed_at, d.dismissed_at) as dismissed_at,
        case when ${severalSites} then s.name end as site_name
      from (${openAlerts}) a
      join items i on i.id = a.item_id
      left join sites s on s.id = a.about_site_id
      left join alert_dismissals d on a.site_id is null and d.user_id = ${uid} and d.item_id = a.item_id
        and d.episode = a.episode
      left join site_alert_dismissals sd on sd.user_id = ${uid} and sd.item_id = a.item_id and sd.site_id = a.site_id
        and sd.episode = a.episode
      where ${visibleTo('a', filter.sites ?? 'all')} ${only} ${atSite}
      order by (a.quantity::float / greatest(a.threshold, 1)), a.started_at desc, i.name, s.name
      limit ${MAX_ALERTS}`.execute(this.db);
    return rows.rows.map(toAlert);
  }

  /** The item's alert state for a decision: its own episode, or the one at `siteId`. */
  async itemState(db: Kysely<DB>, uid: string, itemId: string, siteId?: string): Promise<AlertItemState> {
    const rows = siteId
      ? await sql<{ exists: boolean; open: string | null; dismissed: string | null }>`select
          exists (select 1 from items where id = ${itemId}) as exists,
          (select started_position from site_low_episodes where item_id = ${itemId} and site_id = ${siteId}
            and ended_at is null) as open,
          (select episode from site_alert_dismissals where user_id = ${uid} and item_id = ${itemId}
            and site_id = ${siteId}) as dismissed`.execute(db)
      : await sql<{ exists: boolean; open: string | null; dismissed: string | null }>`select
          exists (select 1 from items where id = ${itemId}) as exists,
          (select started_position from low_stock_episodes where item_id = ${itemId} and ended_at is null) as open,
          (select episode from alert_dismissals where user_id = ${uid} and item_id = ${itemId}) as dismissed`.execute(
          db,
        );
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
