// The delivery state of each endpoint in the database: its cursor in the event log, which
// instance holds it (a lease with an expiry, so a crashed instance's endpoints are taken
// over), its retry schedule, and the delivery log rows written with each cursor move.
// Every write is conditional on holding the lease at the same generation, so an instance
// that lost its lease (or an endpoint a manager replayed) can never move the cursor.
// Messages of different streams are delivered side by side, so the stored cursor is the
// smallest undelivered point; what was delivered beyond it is known from the delivery log
// (loggedAfter), so the next holder sends again only what was really in flight.
import { sql, type Kysely } from 'kysely';
import { parseCursor, type Cursor } from '../eventstore/types.js';
import { compareCursors } from '../realtime/cursor-order.js';
import type { EndpointFilter } from './webhook-payload.js';
import type { Permission } from '../../shared/permissions.js';
import { siteHolderOf } from '../accounts/principal-resolver.js';
import { visibleSites } from '../auth/site-access.js';

/**
 * The sites an endpoint's maker may see now (roles per site): it never sends events of
 * others. null: every site (they work at every site, or nobody made it).
 */
function ownerSites(row: {
  owner_role: string | null;
  owner_permissions: Permission[] | string | null;
  owner_all_sites: boolean | null;
  owner_site_roles: string | null;
}): string[] | null {
  if (row.owner_role === null || row.owner_all_sites !== false) return null;
  const sites = visibleSites(
    siteHolderOf({
      role: row.owner_role,
      permissions: row.owner_permissions,
      all_sites: row.owner_all_sites,
      site_roles: row.owner_site_roles,
    }),
  );
  return sites === 'all' ? null : [...sites].sort();
}

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
  /** The message has a row of its own in webhook_deliveries already (retried, refused or replayed): a delivery updates it. */
  logged?: boolean;
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
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];

/** A Postgres array literal of texts, each quoted (message ids and types are ours, but quoting costs nothing). */
const textArray = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
const intArray = (values: Array<number | null>) =>
  `{${values.map((v) => (v === null ? 'NULL' : String(Math.round(v)))).join(',')}}`;

export class CursorStore {
  constructor(
    private readonly db: Kysely<any>,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  /** Enabled endpoints whose retry time has come and that no other instance holds. */
  async due(): Promise<DueEndpoint[]> {
    const rows = await sql<{
      id: string;
      url: string;
      secret: string;
      event_types: unknown;
      category_ids: unknown;
      site_ids: unknown;
      owner_role: string | null;
      owner_permissions: Permission[] | string | null;
      owner_all_sites: boolean | null;
      owner_site_roles: string | null;
      tx_id: string;
      position: number;
      generation: number;
      attempts: number;
      failing_since: Date | null;
    }>`select e.id::text as id, e.url, s.secret, e.event_types, e.category_ids::text[] as category_ids,
        e.site_ids::text[] as site_ids, c.tx_id::text as tx_id, c.position, c.generation, c.attempts, c.failing_since,
        o.role as owner_role, orole.permissions as owner_permissions, o.all_sites as owner_all_sites,
        (select json_agg(json_build_object('siteId', g.site_id, 'role', g.role, 'permissions', gr.permissions))
          from user_site_roles g left join roles gr on gr.id = g.role where g.user_id = o.id) as owner_site_roles
      from webhook_endpoints e
      join webhook_cursors c on c.endpoint_id = e.id
      join webhook_secrets s on s.endpoint_id = e.id
      left join users o on o.id = e.owner_uid
      left join roles orole on orole.id = o.role
      where e.enabled and (c.next_attempt_at is null or c.next_attempt_at <= now())
        and (c.lease_owner is null or c.lease_owner = ${this.owner} or c.lease_until < now())`.execute(this.db);
    return rows.rows.map((r) => ({
      id: r.id,
      url: r.url,
      secret: r.secret,
      eventTypes: parseArray(r.event_types),
      categoryIds: parseArray(r.category_ids),
      siteIds: parseArray(r.site_ids),
      ownerSites: ownerSites(r),
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
   * Moves the cursor, renews (or gives up) the lease and writes the delivery log, in one
   * statement. False when the lease was lost: nothing is written and the caller must stop.
   * Deliveries go into one webhook_delivered row with the messages in arrays (migration
   * 017); what must update a message's own row (a retry, a refusal, a delivery whose message
   * has a row already: `logged`) is upserted into webhook_deliveries.
   */
  async move(endpointId: string, generation: number, move: CursorMove): Promise<boolean> {
    const delivered: DeliveryRow[] = [];
    const own = new Map<string, DeliveryRow>();
    for (const row of move.rows) {
      if (row.status === 'delivered' && !row.logged && row.cursor !== null) delivered.push(row);
      // One row per message (a statement cannot upsert the same row twice): the latest attempt.
      else own.set(row.message_id, row);
    }
    const parts = [
      sql`with moved as (
        update webhook_cursors set tx_id = ${move.cursor.txId}::xid8, position = ${move.cursor.position},
          attempts = ${move.attempts}, failing_since = ${move.failingSince}, next_attempt_at = ${move.nextAttemptAt},
          lease_owner = case when ${move.release} then null else lease_owner end,
          lease_until = case when ${move.release} then null else now() + make_interval(secs => ${this.leaseMs / 1000}) end
        where endpoint_id = ${endpointId} and lease_owner = ${this.owner} and generation = ${generation}
        returning endpoint_id)`,
    ];
    if (own.size > 0) {
      parts.push(sql`, logged as (
        insert into webhook_deliveries (endpoint_id, message_id, event_type, cursor, status, attempts, response_code, latency_ms, error)
        select m.endpoint_id, r.message_id, r.event_type, r.cursor, r.status, 1, r.response_code, r.latency_ms, r.error
        from moved m, jsonb_to_recordset(${JSON.stringify([...own.values()])}::jsonb) as r (message_id text, event_type text, cursor text, status text,
          response_code int, latency_ms int, error text)
        on conflict (endpoint_id, message_id) do update set status = excluded.status,
          attempts = webhook_deliveries.attempts + 1, response_code = excluded.response_code,
          latency_ms = excluded.latency_ms, error = excluded.error, updated_at = now()
        returning 1)`);
    }
    if (delivered.length > 0) {
      let last = parseCursor(delivered[0]!.cursor!)!;
      for (const row of delivered) {
        const at = parseCursor(row.cursor!)!;
        if (compareCursors(at, last) > 0) last = at;
      }
      parts.push(sql`, batched as (
        insert into webhook_delivered (endpoint_id, message_ids, event_types, cursors, response_codes, latencies_ms, last_tx_id, last_position)
        select m.endpoint_id, ${textArray(delivered.map((r) => r.message_id))}::text[], ${textArray(delivered.map((r) => r.event_type))}::text[],
          ${textArray(delivered.map((r) => r.cursor!))}::text[], ${intArray(delivered.map((r) => r.response_code))}::int[],
          ${intArray(delivered.map((r) => r.latency_ms))}::int[], ${last.txId}::xid8, ${last.position}
        from moved m
        returning 1)`);
    }
    // Data-modifying WITH parts run whether or not the final select reads them.
    parts.push(sql` select count(*)::int as moved from moved`);
    const result = await sql<{ moved: number }>`${sql.join(parts, sql``)}`.execute(this.db);
    return Number(result.rows[0]?.moved ?? 0) === 1;
  }

  /**
   * What the delivery log knows of the messages after `cursor`: those done (delivered, or
   * refused with a 4xx that is not worth retrying), which a previous holder delivered beyond
   * the smallest undelivered message and are not sent again; and those with a row of their
   * own in webhook_deliveries (retried, refused, or marked by a replay), whose next delivery
   * updates that row. A replay marks the rows it will send again as pending (and moves the
   * batches it reaches into rows), so they are not done.
   */
  async loggedAfter(
    endpointId: string,
    cursor: Cursor,
    recent = 5000,
  ): Promise<{ done: Set<string>; ownRows: Set<string> }> {
    const rows = await sql<{
      message_id: string;
      status: string;
      response_code: number | null;
    }>`select message_id, status, response_code from (
        select message_id, cursor, status, response_code from webhook_deliveries
        where endpoint_id = ${endpointId} and not test order by id desc limit ${recent}) r
      where r.cursor is not null
        and (split_part(r.cursor, ':', 1)::xid8, split_part(r.cursor, ':', 2)::bigint) > (${cursor.txId}::xid8, ${cursor.position}::bigint)`.execute(
      this.db,
    );
    const batched = await sql<{ message_id: string }>`select u.message_id
      from webhook_delivered b, unnest(b.message_ids, b.cursors) as u (message_id, cursor)
      where b.endpoint_id = ${endpointId} and (b.last_tx_id, b.last_position) > (${cursor.txId}::xid8, ${cursor.position}::bigint)
        and (split_part(u.cursor, ':', 1)::xid8, split_part(u.cursor, ':', 2)::bigint) > (${cursor.txId}::xid8, ${cursor.position}::bigint)`.execute(
      this.db,
    );
    const done = new Set(batched.rows.map((r) => r.message_id));
    const ownRows = new Set<string>();
    for (const r of rows.rows) {
      ownRows.add(r.message_id);
      const refused =
        r.status === 'failed' &&
        r.response_code !== null &&
        r.response_code >= 300 &&
        r.response_code <= 499 &&
        r.response_code !== 429;
      if (r.status === 'delivered' || refused) done.add(r.message_id);
    }
    return { done, ownRows };
  }

  /** Gives up every endpoint this instance holds (on shutdown), so another takes over at once. */
  async releaseAll(): Promise<void> {
    await sql`update webhook_cursors set lease_owner = null, lease_until = null where lease_owner = ${this.owner}`.execute(
      this.db,
    );
  }
}
