// The activity log: one entry per create, update or delete of an item or category, worded
// as the spec words it. Entry ids come from event ids so a rebuild produces the same rows.
import { sql } from 'kysely';
import type { ActivityAction, ResourceType } from '../../shared/inventory.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';

const nouns: Record<ResourceType, string> = { inventory: 'inventory item', category: 'category' };
const verbs: Record<ActivityAction, string> = { create: 'Created new', update: 'Updated', delete: 'Deleted' };

/** The resource's name: given by the event, or read from its (already updated) row. */
type NameSource = string | { table: 'items' | 'categories' };

async function record(trx: Transaction, event: StoredEvent, action: ActivityAction, resourceType: ResourceType, name: NameSource) {
  const resourceId = event.streamId.slice(event.streamId.indexOf('-') + 1);
  const actor = event.metadata.actor;
  const resourceName =
    typeof name === 'string' ? sql`${name}::text` : sql`coalesce((select name from ${sql.table(name.table)} where id = ${resourceId}), '')`;
  const details = `${verbs[action]} ${nouns[resourceType]}: `;
  await sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id, resource_name,
      timestamp, details)
    select ${event.eventId.replace(/-/g, '').slice(0, 16)}, ${event.position}, ${actor.uid}, ${actor.name}, ${action},
      ${resourceType}, ${resourceId}, n.name, ${event.createdAt}, ${details}::text || n.name
    from (select ${resourceName} as name) n`.execute(trx);
}

export const activityProjection: Projection = {
  name: 'activity',
  tables: ['activity_log'],
  handlers: {
    ItemCreated: (e, trx) => record(trx, e, 'create', 'inventory', e.data.name),
    ItemUpdated: (e, trx) => record(trx, e, 'update', 'inventory', { table: 'items' }),
    StockAdjusted: (e, trx) => record(trx, e, 'update', 'inventory', { table: 'items' }),
    ItemDeleted: (e, trx) => record(trx, e, 'delete', 'inventory', e.data.name),
    CategoryCreated: (e, trx) => record(trx, e, 'create', 'category', e.data.name),
    CategoryUpdated: (e, trx) => record(trx, e, 'update', 'category', { table: 'categories' }),
    CategoryDeleted: (e, trx) => record(trx, e, 'delete', 'category', e.data.name),
  },
};
