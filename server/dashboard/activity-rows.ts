// The latest activity log entries for the dashboard and the wall display, newest first,
// read along the log's (timestamp, id) index so it costs the same for any size of log, each
// saying what changed as the log says it (server/activity/entry-sentences.ts).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ActivityEntry } from '../../shared/inventory.js';
import type { DB } from '../db/schema.js';
import { entryEventColumns, entrySentences, type EntryEventRow } from '../activity/entry-sentences.js';

interface Row extends EntryEventRow {
  id: string;
  user_id: string | null;
  action: ActivityEntry['action'];
  resource_type: ActivityEntry['resourceType'];
  resource_id: string;
  timestamp: Date;
}

/**
 * The newest entries; with `until`, the newest at or before that moment (as-of dashboards);
 * with `places` (a text[] of site and location ids), those whose change names one of them
 * (the log's `place_ids`, as its site and location filters).
 */
export async function latestActivity(
  db: Kysely<DB>,
  limit: number,
  until?: Date,
  places?: RawBuilder<unknown>,
): Promise<ActivityEntry[]> {
  const parts = [...(until ? [sql`timestamp <= ${until}`] : []), ...(places ? [sql`place_ids && ${places}`] : [])];
  const filter = parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
  const rows = await sql<Row>`select a.*, ${entryEventColumns}
    from (select id, position, user_id, user_name, action, resource_type, resource_id, resource_name, timestamp, details
      from activity_log ${filter} order by timestamp desc, id desc limit ${limit}) a
    left join events e on e.position = a.position
    order by a.timestamp desc, a.id desc`.execute(db);
  const sentences = await entrySentences(db, rows.rows);
  return rows.rows.map((row, i) => ({
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    timestamp: new Date(row.timestamp).toISOString(),
    ...sentences[i]!,
  }));
}
