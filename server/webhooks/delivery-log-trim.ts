// Keeps the delivery log from growing for ever: per endpoint, the newest `keep` rows (of
// webhook_deliveries, and messages of webhook_delivered's batches) and anything younger than
// `retentionMs` stay; older rows go. Rows the deliverer still needs
// are never touched: pending ones, and those after the endpoint's cursor (a new lease holder
// reads them to skip what its predecessor already delivered, cursor-store.ts). Runs from
// the deliverer now and then; two instances trimming at once only delete the same rows.
import { sql, type Kysely } from 'kysely';

export interface TrimRules {
  /** Rows kept per endpoint, newest first, however young. */
  keep: number;
  /** Rows older than this go even within `keep` (when the deliverer no longer needs them). */
  retentionMs: number;
}

/** Deletes what the rules let go; returns how many rows (and batches of deliveries) went. */
export async function trimDeliveryLog(db: Kysely<any>, rules: TrimRules): Promise<number> {
  const endpoints = await sql<{ endpoint_id: string }>`select endpoint_id from webhook_cursors`.execute(db);
  let removed = 0;
  for (const { endpoint_id: id } of endpoints.rows) {
    // Beyond the newest `keep` rows, or older than the retention: either lets a row go.
    const result = await sql`delete from webhook_deliveries d
      using webhook_cursors c
      where d.endpoint_id = ${id} and c.endpoint_id = d.endpoint_id and d.status <> 'pending'
        and (d.cursor is null
          or (split_part(d.cursor, ':', 1)::xid8, split_part(d.cursor, ':', 2)::bigint) <= (c.tx_id, c.position::bigint))
        and (d.updated_at < now() - make_interval(secs => ${rules.retentionMs / 1000})
          or d.id < (select min(k.id) from (select id from webhook_deliveries where endpoint_id = ${id}
                     order by id desc limit ${rules.keep}) k))`.execute(db);
    removed += Number(result.numAffectedRows ?? 0);
    // Batches of deliveries (migration 017) go whole: one is kept while fewer than `keep`
    // messages are in newer ones, so the newest `keep` stay (with the rest of the oldest batch
    // among them), and only once every message in it is at or before the cursor.
    const batches = await sql`delete from webhook_delivered d
      using webhook_cursors c
      where d.endpoint_id = ${id} and c.endpoint_id = d.endpoint_id
        and (d.last_tx_id, d.last_position) <= (c.tx_id, c.position::bigint)
        and (d.created_at < now() - make_interval(secs => ${rules.retentionMs / 1000})
          or d.id < (select coalesce(min(k.id), 0) from (
                       select id, sum(cardinality(message_ids)) over (order by id desc) - cardinality(message_ids) as newer
                       from webhook_delivered where endpoint_id = ${id}) k
                     where k.newer < ${rules.keep}))`.execute(db);
    removed += Number(batches.numAffectedRows ?? 0);
  }
  return removed;
}
