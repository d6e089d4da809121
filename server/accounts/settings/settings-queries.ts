// Reads the store settings (other features may use this, e.g. the default low-stock threshold).
import { sql, type Kysely } from 'kysely';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/accounts.js';
import type { CsvFormat, CsvFormatChoice } from '../../../shared/csv-format.js';

interface SettingsRow {
  store_name: string;
  email: string;
  low_stock_threshold: number;
  email_notifications: boolean;
  push_notifications: boolean;
  allow_guests: boolean;
  currency: string;
  locale: string;
  export_format: CsvFormatChoice | null;
  import_format: CsvFormat | null;
}

export async function readSettings(db: Kysely<any>): Promise<Settings> {
  const rows = await sql<SettingsRow>`select store_name, email, low_stock_threshold, email_notifications,
      push_notifications, allow_guests, currency, locale,
      export_format, import_format from settings where id = 1`.execute(db);
  const row = rows.rows[0];
  if (!row) return { ...DEFAULT_SETTINGS };
  return {
    storeName: row.store_name,
    email: row.email,
    lowStockThreshold: Number(row.low_stock_threshold),
    emailNotifications: row.email_notifications,
    pushNotifications: row.push_notifications,
    allowGuests: row.allow_guests,
    currency: row.currency,
    locale: row.locale,
    exportFormat: row.export_format,
    importFormat: row.import_format,
  };
}

/** The `settings` stream's version as last projected (0 before the first change). */
export async function settingsVersion(db: Kysely<any>): Promise<number> {
  const rows = await sql<{ version: number }>`select version from settings where id = 1`.execute(db);
  return rows.rows[0]?.version ?? 0;
}
