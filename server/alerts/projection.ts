// The alerts projection: low-stock episodes (from the item streams' ItemWentLow and
// ItemRecovered, and per site from SiteWentLow and SiteRecovered), each user's dismissals
// and alert choices. Deterministic: only event data,
// event time and the events table are read, so a rebuild gives the same rows.
import { sql, type RawBuilder } from 'kysely';
import type { AlertEvent } from '../../shared/alerts.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';

type Data<T extends AlertEvent['type']> = Extract<AlertEvent, { type: T }>['data'];
type ItemData<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

const itemIdOf = (streamId: string) => streamId.slice('item-'.length);

/**
 * What cleared a low item, from the stock movement `e` just before the recovery: its reason,
 * or 'revert' when it undid an earlier change (the stock came back because a sale or a loss
 * was taken back, not because any arrived: not a restock).
 */
const clearedByOf = (e: string) =>
  sql.raw(`case when ${e}.metadata ? 'reverts' then 'revert' else ${e}.data ->> 'reason' end`);

/** What cleared a low item: the stock movement just before the recovery, else an edited threshold. */
async function clearedBy(event: StoredEvent, trx: Transaction): Promise<string> {
  const previous = await sql<{ reason: string | null }>`select ${clearedByOf('e')} as reason from events e
    where stream_id = ${event.streamId} and stream_version = ${event.streamVersion - 1} and type = 'StockAdjusted'`.execute(
    trx,
  );
  return previous.rows[0]?.reason ?? 'threshold';
}

/**
 * The episodes that the reverted movements of `reverts` (SQL rows of the reverting event's
 * `reverts` id and time) had cleared: the episode the recovery right after such a movement
 * closed gets `clear_reverted_at`, the revert's time. From then on it is not counted as
 * restocked (a reverted restock was never received); as-of reads before then still count it.
 */
const markClearReverted = (reverts: RawBuilder<unknown>) => sql`update low_stock_episodes l set clear_reverted_at = v.at
    from (${reverts}) v (reverts, at)
    join events o on o.event_id = v.reverts
    join events r on r.stream_id = o.stream_id and r.stream_version = o.stream_version + 1 and r.type = 'ItemRecovered'
    where l.item_id = substr(r.stream_id, 6)::uuid and l.ended_at = r.created_at
      and l.started_position = (select max(e.started_position) from low_stock_episodes e
        where e.item_id = l.item_id and e.started_position < r.position)`;

async function closeEpisode(event: StoredEvent, trx: Transaction, cause: string): Promise<void> {
  const itemId = itemIdOf(event.streamId);
  await sql`update low_stock_episodes set ended_at = ${event.createdAt}, cleared_by = ${cause}
    where item_id = ${itemId} and ended_at is null`.execute(trx);
  // Recovered or gone: the next fall below the threshold alerts everyone again.
  await sql`delete from alert_dismissals where item_id = ${itemId}`.execute(trx);
}

/**
 * What cleared a site's low stock: the stock movement of the command it follows (the last
 * event before it that is no crossing), else a threshold (edited, set or cleared at the site).
 */
async function siteClearedBy(event: StoredEvent, trx: Transaction): Promise<string> {
  const previous = await sql<{
    reason: string | null;
  }>`select case when e.type = 'StockAdjusted' then ${clearedByOf('e')} end as reason
    from events e where stream_id = ${event.streamId} and stream_version < ${event.streamVersion}
      and type not in ('ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered')
    order by stream_version desc limit 1`.execute(trx);
  return previous.rows[0]?.reason ?? 'threshold';
}

/** Ends the open episodes at a site (all the item's sites when `siteId` is null) and their dismissals. */
async function closeSiteEpisodes(event: StoredEvent, trx: Transaction, siteId: string | null, cause: string) {
  const itemId = itemIdOf(event.streamId);
  const atSite = siteId === null ? sql`` : sql`and site_id = ${siteId}`;
  await sql`update site_low_episodes set ended_at = ${event.createdAt}, cleared_by = ${cause}
    where item_id = ${itemId} and ended_at is null ${atSite}`.execute(trx);
  await sql`delete from site_alert_dismissals where item_id = ${itemId} ${atSite}`.execute(trx);
}

/**
 * A batch of an item's crossings (they alternate: a fall, then a recovery, ...). A first
 * recovery closes the episode already open; each fall opens one, closed at once by the
 * recovery after it in the batch, if any. Closing runs first (the insert waits on its count):
 * the open-episode index allows one open episode per item at any moment.
 */
const itemCrossings = {
  // Reverts only; what they name was committed before (and its episode closed then).
  alerts_clear_reverted: markClearReverted(sql`select (metadata ->> 'reverts')::uuid, created_at from new_events
    where type = 'StockAdjusted' and metadata ? 'reverts'`),
  alerts_crossings: sql`select substr(n.stream_id, 6)::uuid as item_id, n.stream_id, n.position, n.type, n.created_at,
      row_number() over (partition by n.stream_id order by n.stream_version) as seq,
      case when n.type = 'ItemRecovered' then coalesce(
        (select ${clearedByOf('p')} from new_events p
          where p.stream_id = n.stream_id and p.stream_version = n.stream_version - 1 and p.type = 'StockAdjusted'),
        (select ${clearedByOf('p')} from events p
          where p.stream_id = n.stream_id and p.stream_version = n.stream_version - 1 and p.type = 'StockAdjusted'),
        'threshold') end as cleared_by
    from new_events n where n.type in ('ItemWentLow', 'ItemRecovered')`,
  alerts_closed: sql`update low_stock_episodes l set ended_at = c.created_at, cleared_by = c.cleared_by
    from alerts_crossings c
    where c.type = 'ItemRecovered' and c.seq = 1 and l.item_id = c.item_id and l.ended_at is null
    returning l.item_id`,
  alerts_opened: sql`insert into low_stock_episodes (started_position, item_id, started_at, ended_at, cleared_by)
    select f.position, f.item_id, f.created_at, r.created_at, r.cleared_by
    from alerts_crossings f left join alerts_crossings r on r.stream_id = f.stream_id and r.seq = f.seq + 1
    where f.type = 'ItemWentLow' and (select count(*) from alerts_closed) >= 0
    order by f.position`,
  alerts_undismissed: sql`delete from alert_dismissals
    where item_id in (select item_id from alerts_crossings where type = 'ItemRecovered')`,
};

/** The crossings (of its total and per site) an item event never is: what cleared a site's low stock skips them. */
const crossingTypes = sql`'ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered'`;

/**
 * The same per item and site for the crossings per site (SiteWentLow, SiteRecovered), as the
 * handlers do: a first recovery at a site closes the episode open there, with what cleared it
 * (the stock movement of the command it follows: the last event before it that is no
 * crossing, in the batch or before it, as siteClearedBy reads it); each fall opens one, closed
 * by the recovery at the same site after it in the batch, if any; a recovery ends the site's
 * dismissals. A transfer's receipt writes one per line where the item stays low.
 */
const siteCrossings = {
  alerts_site_crossings: sql`select substr(n.stream_id, 6)::uuid as item_id, (n.data ->> 'siteId')::uuid as site_id,
      n.stream_id, n.position, n.type, n.created_at,
      row_number() over (partition by n.stream_id, (n.data ->> 'siteId')::uuid order by n.stream_version) as seq,
      case when n.type = 'SiteRecovered' then coalesce((
        select case when p.type = 'StockAdjusted' then ${clearedByOf('p')} end from (
            select type, metadata, data, stream_version from new_events
            where stream_id = n.stream_id and stream_version < n.stream_version and type not in (${crossingTypes})
            union all
            (select type, metadata, data, stream_version from events
              where stream_id = n.stream_id and stream_version < n.stream_version and type not in (${crossingTypes})
              order by stream_version desc limit 1)) p
          order by p.stream_version desc limit 1), 'threshold') end as cleared_by
    from new_events n where n.type in ('SiteWentLow', 'SiteRecovered')`,
  alerts_site_closed: sql`update site_low_episodes l set ended_at = c.created_at, cleared_by = c.cleared_by
    from alerts_site_crossings c
    where c.type = 'SiteRecovered' and c.seq = 1 and l.item_id = c.item_id and l.site_id = c.site_id and l.ended_at is null
    returning l.item_id`,
  alerts_site_opened: sql`insert into site_low_episodes (started_position, item_id, site_id, started_at, ended_at, cleared_by)
    select f.position, f.item_id, f.site_id, f.created_at, r.created_at, r.cleared_by
    from alerts_site_crossings f
      left join alerts_site_crossings r on r.stream_id = f.stream_id and r.site_id = f.site_id and r.seq = f.seq + 1
    where f.type = 'SiteWentLow' and (select count(*) from alerts_site_closed) >= 0
    order by f.position`,
  alerts_site_undismissed: sql`delete from site_alert_dismissals d using alerts_site_crossings c
    where c.type = 'SiteRecovered' and d.item_id = c.item_id and d.site_id = c.site_id`,
};

export const alertsProjection: Projection = {
  name: 'alerts',
  tables: ['low_stock_episodes', 'alert_dismissals', 'alert_settings', 'site_low_episodes', 'site_alert_dismissals'],
  handlers: {
    StockAdjusted: async (event, trx) => {
      const reverts = (event.metadata as { reverts?: string }).reverts;
      if (reverts) await markClearReverted(sql`select ${reverts}::uuid, ${event.createdAt}::timestamptz`).execute(trx);
    },
    ItemWentLow: async (event, trx) => {
      await sql`insert into low_stock_episodes (started_position, item_id, started_at)
        values (${event.position}, ${itemIdOf(event.streamId)}, ${event.createdAt})`.execute(trx);
    },
    ItemRecovered: async (event, trx) => closeEpisode(event, trx, await clearedBy(event, trx)),
    ItemDeleted: async (event, trx) => {
      await closeEpisode(event, trx, 'deleted');
      await closeSiteEpisodes(event, trx, null, 'deleted');
    },
    SiteWentLow: async (event: StoredEvent<ItemData<'SiteWentLow'>>, trx) => {
      await sql`insert into site_low_episodes (started_position, item_id, site_id, started_at)
        values (${event.position}, ${itemIdOf(event.streamId)}, ${event.data.siteId}, ${event.createdAt})`.execute(trx);
    },
    SiteRecovered: async (event: StoredEvent<ItemData<'SiteRecovered'>>, trx) =>
      closeSiteEpisodes(event, trx, event.data.siteId, await siteClearedBy(event, trx)),
    AlertDismissed: async (event: StoredEvent<Data<'AlertDismissed'>>, trx) => {
      const d = event.data;
      if (d.siteId) {
        await sql`insert into site_alert_dismissals (user_id, item_id, site_id, episode, dismissed_at)
          select ${d.uid}, ${d.itemId}, ${d.siteId}, ${d.episode}, ${event.createdAt}
          where exists (select 1 from site_low_episodes where started_position = ${d.episode} and ended_at is null)
          on conflict (user_id, item_id, site_id) do update set episode = excluded.episode,
            dismissed_at = excluded.dismissed_at`.execute(trx);
        return;
      }
      // Only while that episode is still open: a dismissal that lost a race with the
      // recovery silences nothing.
      await sql`insert into alert_dismissals (user_id, item_id, episode, dismissed_at)
        select ${d.uid}, ${d.itemId}, ${d.episode}, ${event.createdAt}
        where exists (select 1 from low_stock_episodes where started_position = ${d.episode} and ended_at is null)
        on conflict (user_id, item_id) do update set episode = excluded.episode, dismissed_at = excluded.dismissed_at`.execute(
        trx,
      );
    },
    AlertRestored: async (event: StoredEvent<Data<'AlertRestored'>>, trx) => {
      const { siteId } = event.data;
      if (siteId) {
        await sql`delete from site_alert_dismissals
          where user_id = ${event.data.uid} and item_id = ${event.data.itemId} and site_id = ${siteId}`.execute(trx);
        return;
      }
      await sql`delete from alert_dismissals where user_id = ${event.data.uid} and item_id = ${event.data.itemId}`.execute(
        trx,
      );
    },
    AlertSettingsChanged: async (event: StoredEvent<Data<'AlertSettingsChanged'>>, trx) => {
      const d = event.data;
      await sql`insert into alert_settings (user_id, in_app_toasts, notify_when, updated_at)
        values (${d.uid}, ${d.inAppToasts}, ${d.notifyWhen}, ${event.createdAt})
        on conflict (user_id) do update set in_app_toasts = excluded.in_app_toasts, notify_when = excluded.notify_when,
          updated_at = excluded.updated_at`.execute(trx);
    },
  },
  // Adjustments (the hot path) and crossings, of items' totals and per site (a transfer's
  // steps, an adjustment at one of several sites): one form, whose site part finds nothing
  // to do in a batch without crossings per site.
  batch: {
    types: ['StockAdjusted', 'ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered'],
    ctes: { ...itemCrossings, ...siteCrossings },
  },
};
