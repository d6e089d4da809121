// The alerts projection: low-stock episodes (from the item streams' ItemWentLow and
// ItemRecovered), each user's dismissals and alert choices. Deterministic: only event data,
// event time and the events table are read, so a rebuild gives the same rows.
import { sql } from 'kysely';
import type { AlertEvent } from '../../shared/alerts.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';

type Data<T extends AlertEvent['type']> = Extract<AlertEvent, { type: T }>['data'];

const itemIdOf = (streamId: string) => streamId.slice('item-'.length);

/** What cleared a low item: the stock movement just before the recovery, else an edited threshold. */
async function clearedBy(event: StoredEvent, trx: Transaction): Promise<string> {
  const previous = await sql<{ reason: string | null }>`select data ->> 'reason' as reason from events
    where stream_id = ${event.streamId} and stream_version = ${event.streamVersion - 1} and type = 'StockAdjusted'`.execute(trx);
  return previous.rows[0]?.reason ?? 'threshold';
}

async function closeEpisode(event: StoredEvent, trx: Transaction, cause: string): Promise<void> {
  const itemId = itemIdOf(event.streamId);
  await sql`update low_stock_episodes set ended_at = ${event.createdAt}, cleared_by = ${cause}
    where item_id = ${itemId} and ended_at is null`.execute(trx);
  // Recovered or gone: the next fall below the threshold alerts everyone again.
  await sql`delete from alert_dismissals where item_id = ${itemId}`.execute(trx);
}

export const alertsProjection: Projection = {
  name: 'alerts',
  tables: ['low_stock_episodes', 'alert_dismissals', 'alert_settings'],
  handlers: {
    ItemWentLow: async (event, trx) => {
      await sql`insert into low_stock_episodes (started_position, item_id, started_at)
        values (${event.position}, ${itemIdOf(event.streamId)}, ${event.createdAt})`.execute(trx);
    },
    ItemRecovered: async (event, trx) => closeEpisode(event, trx, await clearedBy(event, trx)),
    ItemDeleted: async (event, trx) => closeEpisode(event, trx, 'deleted'),
    AlertDismissed: async (event: StoredEvent<Data<'AlertDismissed'>>, trx) => {
      const d = event.data;
      // Only while that episode is still open: a dismissal that lost a race with the
      // recovery silences nothing.
      await sql`insert into alert_dismissals (user_id, item_id, episode, dismissed_at)
        select ${d.uid}, ${d.itemId}, ${d.episode}, ${event.createdAt}
        where exists (select 1 from low_stock_episodes where started_position = ${d.episode} and ended_at is null)
        on conflict (user_id, item_id) do update set episode = excluded.episode, dismissed_at = excluded.dismissed_at`.execute(trx);
    },
    AlertRestored: async (event: StoredEvent<Data<'AlertRestored'>>, trx) => {
      await sql`delete from alert_dismissals where user_id = ${event.data.uid} and item_id = ${event.data.itemId}`.execute(trx);
    },
    AlertSettingsChanged: async (event: StoredEvent<Data<'AlertSettingsChanged'>>, trx) => {
      const d = event.data;
      await sql`insert into alert_settings (user_id, in_app_toasts, notify_when, updated_at)
        values (${d.uid}, ${d.inAppToasts}, ${d.notifyWhen}, ${event.createdAt})
        on conflict (user_id) do update set in_app_toasts = excluded.in_app_toasts, notify_when = excluded.notify_when,
          updated_at = excluded.updated_at`.execute(trx);
    },
  },
  // A batch of an item's crossings (they alternate: a fall, then a recovery, ...). A first
  // recovery closes the episode already open; each fall opens one, closed at once by the
  // recovery after it in the batch, if any. Closing runs first (the insert waits on its
  // count): the open-episode index allows one open episode per item at any moment.
  batch: {
    types: ['ItemWentLow', 'ItemRecovered'],
    ctes: {
      alerts_crossings: sql`select substr(n.stream_id, 6)::uuid as item_id, n.stream_id, n.position, n.type, n.created_at,
          row_number() over (partition by n.stream_id order by n.stream_version) as seq,
          case when n.type = 'ItemRecovered' then coalesce(
            (select p.data ->> 'reason' from new_events p
              where p.stream_id = n.stream_id and p.stream_version = n.stream_version - 1 and p.type = 'StockAdjusted'),
            (select p.data ->> 'reason' from events p
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
    },
  },
};
