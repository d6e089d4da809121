// Reads for /api/webhooks: endpoints with their delivery state, and the delivery log.
// Rows are mapped to the API shapes here and nowhere else.
import { sql, type Kysely } from 'kysely';
import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint, WebhookSubscription } from '../../shared/webhooks.js';
import type { EndpointState } from './decide.js';
import { batchMessages } from './delivered-batches.js';

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  event_types: unknown;
  category_ids: unknown;
  site_ids: unknown;
  enabled: boolean;
  disabled_reason: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  tx_id: string | null;
  position: number | null;
  failing_since: Date | null;
  next_attempt_at: Date | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const list = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: list(row.event_types) as WebhookSubscription[],
    categoryIds: list(row.category_ids),
    siteIds: list(row.site_ids),
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    version: row.version,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    cursor: `${row.tx_id ?? 0}:${row.position ?? 0}`,
    failingSince: iso(row.failing_since),
    nextAttemptAt: iso(row.next_attempt_at),
  };
}

export class EndpointQueries {
  constructor(private readonly db: Kysely<any>) {}

  async list(id?: string, db: Kysely<any> = this.db): Promise<WebhookEndpoint[]> {
    const rows =
      await sql<EndpointRow>`select e.id::text as id, e.url, e.description, e.event_types, e.category_ids::text[] as category_ids,
        e.site_ids::text[] as site_ids, e.enabled, e.disabled_reason, e.version, e.created_at, e.updated_at,
        c.tx_id::text as tx_id, c.position, c.failing_since, c.next_attempt_at
      from webhook_endpoints e left join webhook_cursors c on c.endpoint_id = e.id
      ${id ? sql`where e.id = ${id}` : sql``}
      order by e.created_at, e.id`.execute(db);
    return rows.rows.map(toEndpoint);
  }

  async state(id: string, db: Kysely<any> = this.db): Promise<EndpointState | null> {
    const [endpoint] = await this.list(id, db);
    return endpoint ?? null;
  }

  async deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    const rows = await sql<{
      message_id: string;
      event_type: string;
      cursor: string | null;
      test: boolean;
      status: DeliveryStatus;
      attempts: number;
      response_code: number | null;
      latency_ms: number | null;
      error: string | null;
      created_at: Date;
      updated_at: Date;
    }>`select message_id, event_type, cursor, test, status, attempts, response_code, latency_ms, error, created_at, updated_at from (
        (select id, 0::bigint as n, message_id, event_type, cursor, test, status, attempts, response_code, latency_ms, error, created_at, updated_at
          from webhook_deliveries where endpoint_id = ${endpointId} order by id desc limit ${limit})
        union all
        -- Batches of deliveries (migration 017), newest first, each message in the order answered.
        select b.id, u.n, u.message_id, u.event_type, u.cursor, false, 'delivered', 1, u.response_code, u.latency_ms, null, b.created_at, b.created_at
        from (select * from webhook_delivered where endpoint_id = ${endpointId} order by id desc limit ${limit}) b,
          ${batchMessages}
      ) log order by id desc, n desc limit ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
      messageId: r.message_id,
      eventType: r.event_type,
      cursor: r.cursor,
      test: r.test,
      status: r.status,
      attempts: r.attempts,
      responseCode: r.response_code,
      latencyMs: r.latency_ms,
      error: r.error,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
    }));
  }
}
