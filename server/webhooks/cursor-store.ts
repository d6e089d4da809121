// The delivery state of each endpoint in the database: its cursor in the event log, which
// instance holds it (a lease with an expiry, so a crashed instance's endpoints are taken
// over), its retry schedule, and the delivery log rows written with each cursor move.
// Every write is conditional on holding the lease at the same generation, so an instance
// that lost its lease (or an endpoint a manager replayed) can never move the cursor.
// Messages of different streams are delivered side by side, so the stored cursor is the
// smallest undelivered point; what was delivered beyond it is known from the delivery log
// (deliveredAfter), so the next holder sends again only what was really in flight.
import { sql, type Kysely } from 'kysely';
import type { Cursor } from '../eventstore/types.js';
import type { EndpointFilter } from './webhook-payload.js';

export interface DueEndpoint extends EndpointFilter {
  id: string;
  url: string;
  secret: string;
  cursor: Cursor;
  generation: number;
  attempts: number;
  failingSince: Date | null;
}

export interface DeliveryRow {
  message_id: string;
  event_type: string;
  cursor: string | null;
  status: 'delivered' | 'retrying' | 'failed';
  response_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

export interface CursorMove {
  cursor: Cursor;
  attempts: number;
  failingSince: Date | null;
  nextAttemptAt: Date | null;
  /** Give the endpoint up (retry scheduled, or stopping): any instance may claim it next. */
  release: boolean;
  rows: DeliveryRow[];
}

const parseArray = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.replace(/^\{|\}$/g, '').split(',').filter(Boolean) : [];

export class CursorStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /** Enabled endpoints whose retry time has come and that no other instance holds. */
  async due(): Promise<DueEndpoint[]> {
    const rows = await sql<{
      id: string; url: string; secret: string; event_types: unknown; category_ids: unknown;
      tx_id: string; position: number; generation: number; attempts: number; failing_since: Date | null;
    }>`select e.id::text as id, e.url, s.secret, e.event_types, e.category_ids::text[] as category_ids,
        c.tx_id::text as tx_id, c.position, c.generation, c.attempts, c.failing_since
      from webhook_endpoints e
      join webhook_cursors c on c.endpoint_id = e.id
      join webhook_secrets s on s.endpoint_id = e.id
      where e.enabled and (c.next_attempt_at is null or c.next_attempt_at <= now())
        and (c.lease_owner is null or c.lease_owner = ${this.owner} or c.lease_until < now())`.execute(this.db);
    return rows.rows.map((r) => ({
      id: r.id,
      url: r.url,
      secret: r.secret,
      eventTypes: parseArray(r.event_types),
      categoryIds: parseArray(r.category_ids),
      cursor: { txId: r.tx_id, position: Number(r.position) },
      generation: r.generation,
      attempts: r.attempts,
      failingSince: r.failing_since ? new Date(r.failing_since) : null,
    }));
  }

  /** Takes the endpoint if it is still where `due` saw it; false when another instance or a replay got there first. */
  async claim(endpoint: DueEndpoint): Promise<boolean> {
    const result = await sql`update webhook_cursors set lease_owner = ${this.owner},
        lease_until = now() + make_interval(secs => ${this.leaseMs / 1000})
      where endpoint_id = ${endpoint.id} and generation = ${endpoint.generation}
        and tx_id = ${endpoint.cursor.txId}::xid8 and position = ${endpoint.cursor.position}
        and (lease_owner is null or lease_owner = ${this.owner} or lease_until < now())`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  /**
   * Moves the cursor, renews (or gives up) the lease and writes the delivery rows, in one
   * statement. False when the lease was lost: nothing is written and the caller must stop.
   */
  async move(endpointId: string, generation: number, move: CursorMove): Promise<boolean> {
    // One row per message (a statement cannot upsert the same row twice): the latest attempt.
    const rows = JSON.stringify([...new Map(move.rows.map((r) => [r.message_id, r])).values()]);
    const result = await sql<{ moved: number }>`with moved as (
        update webhook_cursors set tx_id = ${move.cursor.txId}::xid8, position = ${move.cursor.position},
          attempts = ${move.attempts}, failing_since = ${move.failingSince}, next_attempt_at = ${move.nextAttemptAt},
          lease_owner = case when ${move.release} then null else lease_owner end,
          lease_until = case when ${move.release} then null else now() + make_interval(secs => ${this.leaseMs / 1000}) end
        where endpoint_id = ${endpointId} and lease_owner = ${this.owner} and generation = ${generation}
        returning endpoint_id),
      logged as (
        insert into webhook_deliveries (endpoint_id, message_id, event_type, cursor, status, attempts, response_code, latency_ms, error)
        select m.endpoint_id, r.message_id, r.event_type, r.cursor, r.status, 1, r.response_code, r.latency_ms, r.error
        from moved m, jsonb_to_recordset(${rows}::jsonb) as r (message_id text, event_type text, cursor text, status text,
          response_code int, latency_ms int, error text)
        on conflict (endpoint_id, message_id) do update set status = excluded.status,
          attempts = webhook_deliveries.attempts + 1, response_code = excluded.response_code,
          latency_ms = excluded.latency_ms, error = excluded.error, updated_at = now()
        returning 1)
      select (select count(*) from moved)::int as moved, (select count(*) from logged)::int as logged`.execute(this.db);
    return Number(result.rows[0]?.moved ?? 0) === 1;
  }

  /**
   * Messages after `cursor` that the log says are done (delivered, or refused with a 4xx that
   * is not worth retrying), from the endpoint's most recent rows: what a previous holder
   * delivered beyond the smallest undelivered message. A replay marks the rows it will send
   * again as pending, so they are not in here.
   */
  async deliveredAfter(endpointId: string, cursor: Cursor, recent = 5000): Promise<Set<string>> {
    const rows = await sql<{ message_id: string }>`select message_id from (
        select message_id, cursor, status, response_code from webhook_deliveries
        where endpoint_id = ${endpointId} and not test order by id desc limit ${recent}) r
      where r.cursor is not null
        and (r.status = 'delivered' or (r.status = 'failed' and r.response_code between 300 and 499 and r.response_code <> 429))
        and (split_part(r.cursor, ':', 1)::xid8, split_part(r.cursor, ':', 2)::bigint) > (${cursor.txId}::xid8, ${cursor.position}::bigint)`.execute(this.db);
    return new Set(rows.rows.map((r) => r.message_id));
  }

  /** Gives up every endpoint this instance holds (on shutdown), so another takes over at once. */
  async releaseAll(): Promise<void> {
    await sql`update webhook_cursors set lease_owner = null, lease_until = null where lease_owner = ${this.owner}`.execute(this.db);
  }
}
