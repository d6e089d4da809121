// The `webhook_endpoints` read table, from the webhook-<id> streams.
import { sql } from 'kysely';
import type { WebhookEvent } from '../../shared/webhooks.js';
import type { Projection, StoredEvent } from '../eventstore/types.js';

type Data<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>['data'];

export const endpointIdOf = (streamId: string) => streamId.slice('webhook-'.length);

const textArray = (values: string[]) => sql`${JSON.stringify(values)}::jsonb`;
const asTextArray = (values: string[]) => sql`array(select jsonb_array_elements_text(${textArray(values)}))`;

export const webhooksProjection: Projection = {
  name: 'webhooks',
  tables: ['webhook_endpoints'],
  handlers: {
    WebhookEndpointCreated: async (event: StoredEvent<Data<'WebhookEndpointCreated'>>, trx) => {
      const d = event.data;
      // Its maker: the endpoint never sends events of sites they may not see (cursor-store.ts).
      const owner = event.metadata?.actor?.uid ?? null;
      await sql`insert into webhook_endpoints (id, url, description, event_types, category_ids, site_ids, owner_uid, enabled,
          version, created_at, updated_at)
        values (${d.endpointId}, ${d.url}, ${d.description}, ${asTextArray(d.eventTypes)}, ${asTextArray(d.categoryIds)}::uuid[],
          ${asTextArray(d.siteIds ?? [])}::uuid[], ${owner}, ${d.enabled}, ${event.streamVersion}, ${event.createdAt},
          ${event.createdAt})`.execute(trx);
    },
    WebhookEndpointUpdated: async (event: StoredEvent<Data<'WebhookEndpointUpdated'>>, trx) => {
      const c = event.data.changes;
      await sql`update webhook_endpoints set
          url = coalesce(${c.url ?? null}, url),
          description = coalesce(${c.description ?? null}, description),
          event_types = ${c.eventTypes ? asTextArray(c.eventTypes) : sql`event_types`},
          category_ids = ${c.categoryIds ? sql`${asTextArray(c.categoryIds)}::uuid[]` : sql`category_ids`},
          site_ids = ${c.siteIds ? sql`${asTextArray(c.siteIds)}::uuid[]` : sql`site_ids`},
          enabled = coalesce(${c.enabled ?? null}, enabled),
          -- switched on again by a manager: the server's reason no longer holds
          disabled_reason = case when ${c.enabled ?? null}::boolean then null else disabled_reason end,
          version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${endpointIdOf(event.streamId)}`.execute(trx);
    },
    WebhookEndpointDisabled: async (event: StoredEvent<Data<'WebhookEndpointDisabled'>>, trx) => {
      await sql`update webhook_endpoints set enabled = false, disabled_reason = ${event.data.reason},
          version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${endpointIdOf(event.streamId)}`.execute(trx);
    },
    WebhookEndpointDeleted: async (event, trx) => {
      await sql`delete from webhook_endpoints where id = ${endpointIdOf(event.streamId)}`.execute(trx);
    },
  },
};
