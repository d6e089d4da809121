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
};
