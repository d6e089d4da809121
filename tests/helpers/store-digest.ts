// A fingerprint of everything a request may change: the event log (count and last
// position) and the rows of the tables requests write, so a test can say "this refused
// request changed nothing". Tables only background work writes (webhook delivery state,
// stored idempotency answers, token last-use times) are left out: they move on their own.
import { sql, type Kysely } from 'kysely';

const TABLES = [
  'items',
  'categories',
  'roles',
  'settings',
  'users',
  'api_tokens',
  'webhook_endpoints',
  'alert_dismissals',
  'alert_settings',
  'stocktakes',
  'stocktake_lines',
  'stocktake_counts',
  'reverts',
  'activity_log',
];

export interface StoreDigest {
  events: number;
  lastPosition: number;
  rows: string;
}

export async function storeDigest(db: Kysely<any>): Promise<StoreDigest> {
  const parts = TABLES.map(
    (table) =>
      sql`coalesce((select md5(string_agg(md5(t::text), '' order by md5(t::text))) from ${sql.table(table)} t), '')`,
  );
  const result = await sql<{ events: number; last_position: number; rows: string }>`select
      (select count(*) from events)::int as events,
      (select coalesce(max(position), 0) from events)::bigint as last_position,
      md5(${sql.join(parts, sql` || `)}) as rows`.execute(db);
  const row = result.rows[0]!;
  return { events: Number(row.events), lastPosition: Number(row.last_position), rows: row.rows };
}
