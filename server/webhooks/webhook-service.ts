// Runs webhook endpoint commands: decide, append to the endpoint's stream and keep its
// delivery state (secret, cursor) in the same transaction. Also the two operational
// commands of the delivery log: replay from a cursor or a moment, and send a test event.
// The secret is stored sealed (server/secrets/secret-box.ts), opened only to sign.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  webhookStream,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointFields,
} from '../../shared/webhooks.js';
import type { EventStore } from '../eventstore/event-store.js';
import { parseCursor, type Cursor, type EventMetadata } from '../eventstore/types.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { decideWebhook, type WebhookCommand } from './decide.js';
import { batchMessages } from './delivered-batches.js';
import type { ConnectGuard } from './connect-guard.js';
import { checkEndpointUrl } from './endpoint-rules.js';
import type { EndpointQueries } from './endpoint-queries.js';
import { sendWebhook } from './send-webhook.js';
import { testPayload } from './webhook-payload.js';
import { openWebhookSecret, sealWebhookSecret } from './webhook-secrets.js';
import type { SecretBox } from '../secrets/secret-box.js';

export type CreatedEndpoint =
  { endpoint: WebhookEndpoint; secret: string } | { endpoint: WebhookEndpoint; secret: null; secretShownOnce: true };

export interface WebhookServiceOptions {
  allowLocalHttp: boolean;
  /** Where a test message may connect (the deliverer's own guard). */
  guard: ConnectGuard;
  timeoutMs: number;
  /** Seals signing secrets for the database, opens them to sign a test event. */
  secrets: SecretBox;
  /** Called after a change that may give the deliverer work (enable, replay). */
  wake(): void;
}

export class WebhookService {
  constructor(
    private readonly db: Kysely<any>,
    private readonly store: EventStore,
    private readonly queries: EndpointQueries,
    private readonly options: WebhookServiceOptions,
  ) {}

  list(): Promise<WebhookEndpoint[]> {
    return this.queries.list();
  }

  async get(id: string): Promise<WebhookEndpoint> {
    const [endpoint] = await this.queries.list(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
    return endpoint;
  }

  /**
   * Creates an endpoint; the signing secret is returned here and never again. A retry whose
   * Idempotency-Key the event store has seen (its stored HTTP answer expired, or was never
   * written) gets the endpoint created then, without its secret.
   */
  async create(fields: WebhookEndpointFields, meta: EventMetadata): Promise<CreatedEndpoint> {
    const checked = { ...fields, url: checkEndpointUrl(fields.url, this.options.allowLocalHttp) };
    const id = randomUUID();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const earlier = await this.store.transact(async (trx, append) => {
      const appended = await append(
        webhookStream(id),
        0,
        decideWebhook({ type: 'Create', endpointId: id, fields: checked }, null),
        meta,
      );
      if (appended.replayed) return appended.streamId.slice(webhookStream('').id.length);
      await sql`insert into webhook_secrets (endpoint_id, secret) values (${id}, ${sealWebhookSecret(this.options.secrets, id, secret)})`.execute(
        trx,
      );
      // Events from now on: the head is read in this transaction, so nothing committed after it is skipped.
      await sql`insert into webhook_cursors (endpoint_id, tx_id, position)
        select ${id}, coalesce(h.tx_id, '0'::xid8), coalesce(h.position, 0) from (select 1) one
        left join lateral (select tx_id, position from events where tx_id < pg_snapshot_xmin(pg_current_snapshot())
          order by tx_id desc, position desc limit 1) h on true`.execute(trx);
      return null;
    });
    if (earlier) return { endpoint: await this.get(earlier), secret: null, secretShownOnce: true };
    this.options.wake();
    return { endpoint: await this.get(id), secret };
  }

  async update(
    id: string,
    changes: Partial<WebhookEndpointFields>,
    meta: EventMetadata,
    expectedVersion?: number,
  ): Promise<WebhookEndpoint> {
    const checked =
      changes.url === undefined
        ? changes
        : { ...changes, url: checkEndpointUrl(changes.url, this.options.allowLocalHttp) };
    await this.run(id, { type: 'Update', changes: checked }, meta, expectedVersion, async (trx) => {
      // Switched on again: a fresh start for the retry schedule (the cursor stays: nothing is skipped).
      if (changes.enabled) {
        await sql`update webhook_cursors set attempts = 0, failing_since = null, next_attempt_at = null where endpoint_id = ${id}`.execute(
          trx,
        );
      }
    });
    // Switched on: deliver again; any other change: a run in progress stops and starts afresh with it.
    this.options.wake();
    return this.get(id);
  }

  /** The deliverer gave up on a failing endpoint. */
  async disable(id: string, reason: string): Promise<void> {
    await this.run(
      id,
      { type: 'Disable', reason },
      { actor: { uid: null, name: 'Stockroom' }, correlationId: randomUUID() },
    );
  }

  async remove(id: string, meta: EventMetadata): Promise<void> {
    await this.run(id, { type: 'Delete' }, meta, undefined, async (trx) => {
      await sql`delete from webhook_secrets where endpoint_id = ${id}`.execute(trx);
      await sql`delete from webhook_cursors where endpoint_id = ${id}`.execute(trx);
      await sql`delete from webhook_deliveries where endpoint_id = ${id}`.execute(trx);
      await sql`delete from webhook_delivered where endpoint_id = ${id}`.execute(trx);
    });
    // A run delivering it stops now, not at its next progress write.
    this.options.wake();
  }

  private async run(
    id: string,
    command: WebhookCommand,
    meta: EventMetadata,
    expectedVersion?: number,
    alongside?: (trx: Kysely<any>) => Promise<void>,
  ) {
    await this.store.transact(async (trx, append) => {
      const state = await this.queries.state(id, trx);
      const events = decideWebhook(command, state);
      if (events.length) await append(webhookStream(id), expectedVersion ?? state!.version, events, meta);
      await alongside?.(trx);
    });
  }

  /**
   * Delivers everything again after `cursor` (a cursor from a payload) or from `from` (a
   * moment). The generation moves, so a delivery in flight cannot write its old cursor back.
   */
  async replay(id: string, target: { cursor?: string; from?: string }): Promise<WebhookEndpoint> {
    await this.get(id);
    let cursor: Cursor | null;
    if (target.cursor !== undefined) {
      cursor = parseCursor(target.cursor);
      if (!cursor) throw new ValidationError('cursor must look like 1234:56 (as in a payload)');
    } else if (target.from !== undefined) {
      const at = new Date(target.from);
      if (Number.isNaN(at.getTime())) throw new ValidationError('from must be a date and time');
      const row = await sql<{ tx_id: string; position: number }>`select tx_id::text as tx_id, position from events
        where created_at < ${at} order by tx_id desc, position desc limit 1`.execute(this.db);
      cursor = row.rows[0]
        ? { txId: row.rows[0].tx_id, position: Number(row.rows[0].position) }
        : { txId: '0', position: 0 };
    } else {
      throw new ValidationError('Give a cursor or a from time to replay from');
    }
    const from = cursor;
    await this.db.transaction().execute(async (trx) => {
      await sql`update webhook_cursors set tx_id = ${from.txId}::xid8, position = ${from.position}, generation = generation + 1,
          lease_owner = null, lease_until = null, attempts = 0, failing_since = null, next_attempt_at = null
        where endpoint_id = ${id}`.execute(trx);
      // Batches of deliveries reaching past the replay point become rows of their own, so
      // the messages sent again can be marked (their order kept: ids are taken in it).
      // A message sent again after a crash can be in two batches: its latest delivery counts.
      await sql`insert into webhook_deliveries (endpoint_id, message_id, event_type, cursor, status, attempts, response_code, latency_ms, created_at, updated_at)
        select endpoint_id, message_id, event_type, cursor, 'delivered', 1, response_code, latency_ms, created_at, created_at from (
          select distinct on (u.message_id) b.endpoint_id, b.id, u.n, u.message_id, u.event_type, u.cursor, u.response_code, u.latency_ms, b.created_at
          from webhook_delivered b,
            ${batchMessages}
          where b.endpoint_id = ${id} and (b.last_tx_id, b.last_position) > (${from.txId}::xid8, ${from.position}::bigint)
          order by u.message_id, b.id desc, u.n desc) latest
        order by id, n
        on conflict (endpoint_id, message_id) do update set status = 'delivered', attempts = webhook_deliveries.attempts + 1,
          response_code = excluded.response_code, latency_ms = excluded.latency_ms, updated_at = excluded.updated_at`.execute(
        trx,
      );
      await sql`delete from webhook_delivered where endpoint_id = ${id}
        and (last_tx_id, last_position) > (${from.txId}::xid8, ${from.position}::bigint)`.execute(trx);
      // Messages after the replay point go out again: pending, so the deliverer does not take
      // them for ones delivered beyond its cursor (cursor-store.ts loggedAfter).
      await sql`update webhook_deliveries set status = 'pending', updated_at = now()
        where endpoint_id = ${id} and not test and cursor is not null and status <> 'pending'
          and (split_part(cursor, ':', 1)::xid8, split_part(cursor, ':', 2)::bigint) > (${from.txId}::xid8, ${from.position}::bigint)`.execute(
        trx,
      );
    });
    this.options.wake();
    return this.get(id);
  }

  deliveries(id: string, limit = 50): Promise<WebhookDelivery[]> {
    return this.queries.deliveries(id, limit);
  }

  /**
   * Sends a test message in the background (never inside the request) and logs it; the
   * delivery log shows it as pending until the receiver answers or the timeout passes.
   */
  async sendTest(id: string): Promise<WebhookDelivery> {
    const secretRow = await sql<{ url: string; secret: string }>`select e.url, s.secret from webhook_endpoints e
      join webhook_secrets s on s.endpoint_id = e.id where e.id = ${id}`.execute(this.db);
    const target = secretRow.rows[0];
    if (!target) throw new NotFoundError('Webhook endpoint not found');
    const secret = openWebhookSecret(this.options.secrets, id, target.secret);
    const messageId = `msg_test_${randomUUID()}`;
    await sql`insert into webhook_deliveries (endpoint_id, message_id, event_type, test, status, attempts)
      values (${id}, ${messageId}, 'webhook.test', true, 'pending', 0)`.execute(this.db);
    void sendWebhook(
      target.url,
      secret,
      { id: messageId, body: testPayload(id, new Date()) },
      this.options.timeoutMs,
      this.options.guard,
    ).then((attempt) =>
      sql`update webhook_deliveries set status = ${attempt.ok ? 'delivered' : 'failed'}, attempts = 1,
          response_code = ${attempt.status}, latency_ms = ${attempt.latencyMs}, error = ${attempt.error}, updated_at = now()
        where endpoint_id = ${id} and message_id = ${messageId}`
        .execute(this.db)
        .catch(() => undefined),
    );
    const [delivery] = (await this.queries.deliveries(id, 50)).filter((d) => d.messageId === messageId);
    return delivery!;
  }
}
