// The `settings` projection: one row, written on the first change; the defaults of
// shared/accounts.ts stand in until then (so a rebuild of an untouched store is empty too).
import { sql } from 'kysely';
import type { SettingsEvent } from '../../../shared/accounts.js';
import type { Projection } from '../../eventstore/types.js';
import { readSettings } from './settings-queries.js';

export const settingsProjection: Projection = {
  name: 'settings',
  tables: ['settings'],
  handlers: {
    SettingsChanged: async (event, trx) => {
      const { changes } = event.data as SettingsEvent['data'];
      const s = { ...(await readSettings(trx)), ...changes };
      await sql`insert into settings (id, store_name, email, low_stock_threshold, email_notifications, push_notifications,
          allow_guests, updated_at, version)
        values (1, ${s.storeName}, ${s.email}, ${s.lowStockThreshold}, ${s.emailNotifications}, ${s.pushNotifications},
          ${s.allowGuests}, ${event.createdAt}, ${event.streamVersion})
        on conflict (id) do update set store_name = excluded.store_name, email = excluded.email,
          low_stock_threshold = excluded.low_stock_threshold, email_notifications = excluded.email_notifications,
          push_notifications = excluded.push_notifications, allow_guests = excluded.allow_guests,
          updated_at = excluded.updated_at, version = excluded.version`.execute(trx);
      // The money format has columns of its own (migration 021), written only when it changes.
      if (changes.currency !== undefined || changes.locale !== undefined) {
        await sql`update settings set currency = ${s.currency}, locale = ${s.locale} where id = 1`.execute(trx);
      }
      // The export formats (migration 020) in a statement of their own: the row exists now.
      await sql`update settings set export_format = ${s.exportFormat},
          import_format = ${s.importFormat === null ? null : JSON.stringify(s.importFormat)}::jsonb where id = 1`.execute(
        trx,
      );
    },
  },
};
