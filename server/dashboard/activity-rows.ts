// The latest activity log entries for the dashboard and the wall display, newest first,
// read along the log's (timestamp, id) index so it costs the same for any size of log.
import { sql, type Kysely } from 'kysely';
import type { ActivityEntry } from '../../shared/inventory.js';
import type { DB } from '../db/schema.js';

interface Row {
  id: string;
  user_id: string | null;
  user_name: string;
  action: ActivityEntry['action'];
  resource_type: ActivityEntry['resourceType'];
  resource_id: string;
  resource_name: string;
  timestamp: Date;
  details: string;
}

/** The newest entries; with `until`, the newest at or before that moment (as-of dashboards). */
export async function latestActivity(db: Kysely<DB>, limit: number, until?: Date): Promise<ActivityEntry[]> {
  const upTo = until ? sql`where timestamp <= ${until}` : sql``;
  const rows = await sql<Row>`select id, user_id, user_name, action, resource_type, resource_id, resource_name, timestamp, details
    from activity_log ${upTo} order by timestamp desc, id desc limit ${limit}`.execute(db);
  return rows.rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    timestamp: new Date(row.timestamp).toISOString(),
    details: row.details,
  }));
}
