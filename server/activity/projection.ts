// The activity log: one entry per create, update or delete of an item or category, worded
// as the Activity Log screen shows it. Entry ids come from event ids so a rebuild produces the same rows.
// What an entry shows is built when it is read, from its event (entry-sentences.ts); what
// the log's search matches are the words of that sentence, stored beside it (search-words.ts).
// The `details` stored here are the entry's older wording, kept for CSVs of old reports.
import { sql } from 'kysely';
import type { ActivityAction, ResourceType } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { importedFrom } from '../../shared/import.js';
import { revertedDetails, revertedDetailsOf } from './reverted-details.js';
import { fieldAt, itemBatchSteps } from '../inventory/item-batch-steps.js';
import { searchColumnNames, searchColumns, searchColumnsOf } from './search-words.js';

type Data<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

const nouns: Record<ResourceType, string> = {
  inventory: 'inventory item',
  category: 'category',
  stocktake: 'stocktake',
  site: 'site',
  location: 'location',
  transfer: 'transfer',
};
const verbs: Record<ActivityAction, string> = { create: 'Created new', update: 'Updated', delete: 'Deleted' };

/** The resource's name: given by the event, or read from its (already updated) row. */
type NameSource = string | { table: 'items' | 'categories' };

/**
 * What an item update says besides the name: a barcode change, since a relabelled item is
 * something a store wants to find in its log ("why does this scan no longer work?").
 */
function barcodeNote(event: StoredEvent): string {
  const change = (event.data as Data<'ItemUpdated'>).changes.barcode;
  if (!change) return '';
  if (change.to === null) return ` (barcode ${change.from} removed)`;
  if (change.from === null || change.from === undefined) return ` (barcode set to ${change.to})`;
  return ` (barcode ${change.from} changed to ${change.to})`;
}

/** A CSV import's changes say where they came from, so the log tells them from hand edits. */
const importNote = (event: StoredEvent) =>
  event.metadata.importFile ? ` (${importedFrom(event.metadata.importFile)})` : '';

async function record(
  trx: Transaction,
  event: StoredEvent,
  action: ActivityAction,
  resourceType: ResourceType,
  name: NameSource,
  note = '',
) {
  const resourceId = event.streamId.slice(event.streamId.indexOf('-') + 1);
  const actor = event.metadata.actor;
  const resourceName =
    typeof name === 'string'
      ? sql`${name}::text`
      : sql`coalesce((select name from ${sql.table(name.table)} where id = ${resourceId}), '')`;
  const details = `${verbs[action]} ${nouns[resourceType]}: `;
  await sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id, resource_name,
      timestamp, details, ${searchColumnNames})
    select ${event.eventId.replace(/-/g, '').slice(0, 16)}, ${event.position}, ${actor.uid}, ${actor.name}, ${action},
      ${resourceType}, ${resourceId}, n.name, ${event.createdAt},
      ${revertedDetails(event, sql`${details}::text || n.name || ${note + importNote(event)}::text`)},
      ${searchColumnsOf(event, action, sql`n.name`, sql`null::text`)}
    from (select ${resourceName} as name) n`.execute(trx);
}

/** An event row's parts as the search words take them, from the set-based forms' row `alias`. */
const fromEvent = (alias: string) => ({
  type: sql.ref(`${alias}.type`),
  data: sql.ref(`${alias}.data`),
  metadata: sql.ref(`${alias}.metadata`),
  userName: sql`${sql.ref(`${alias}.metadata`)} -> 'actor' ->> 'name'`,
  // Item entries take no words from their details.
  details: sql`null::text`,
  streamId: sql.ref(`${alias}.stream_id`),
});

// Parts both set-based forms below share.
const activityCreated = sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id,
      resource_name, timestamp, details, ${searchColumnNames})
    select left(replace(n.event_id::text, '-', ''), 16), n.position, n.metadata -> 'actor' ->> 'uid',
      n.metadata -> 'actor' ->> 'name', 'create', 'inventory', substr(n.stream_id, 6), n.data ->> 'name', n.created_at,
      ${revertedDetailsOf(
        sql`n.metadata`,
        sql`${`${verbs.create} ${nouns.inventory}: `}::text || (n.data ->> 'name')
        || coalesce(' (Imported from ' || nullif(n.metadata ->> 'importFile', '') || ')', '')`,
      )},
      ${searchColumns({ ...fromEvent('n'), action: sql`'create'::text`, name: sql`n.data ->> 'name'` })}
    from new_events n
    where n.type = 'ItemCreated'`;

export const activityProjection: Projection = {
  name: 'activity',
  tables: ['activity_log'],
  handlers: {
    ItemCreated: (e, trx) => record(trx, e, 'create', 'inventory', e.data.name),
    ItemUpdated: (e, trx) => record(trx, e, 'update', 'inventory', { table: 'items' }, barcodeNote(e)),
    StockAdjusted: (e, trx) => record(trx, e, 'update', 'inventory', { table: 'items' }),
    StockMoved: (e, trx) => record(trx, e, 'update', 'inventory', { table: 'items' }),
    ItemDeleted: (e, trx) => record(trx, e, 'delete', 'inventory', e.data.name),
    CategoryCreated: (e, trx) => record(trx, e, 'create', 'category', e.data.name),
    CategoryUpdated: (e, trx) => record(trx, e, 'update', 'category', { table: 'categories' }),
    CategoryDeleted: (e, trx) => record(trx, e, 'delete', 'category', e.data.name),
  },
  batch: [
    // Without edits (the group commit's adjustments, creations): the hot path's form, kept
    // apart so its statement stays as small as it was.
    // A batch of adjustments: one entry each, named after the item as `record` names it.
    // A batch of creations: one entry each, named after the event's data.
    {
      types: ['ItemCreated', 'StockAdjusted'],
      ctes: {
        activity_created: activityCreated,
        activity_adjusted: sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id,
            resource_name, timestamp, details, ${searchColumnNames})
          select left(replace(n.event_id::text, '-', ''), 16), n.position, n.metadata -> 'actor' ->> 'uid',
            n.metadata -> 'actor' ->> 'name', 'update', 'inventory', substr(n.stream_id, 6), coalesce(i.name, ''), n.created_at,
            ${revertedDetailsOf(
              sql`n.metadata`,
              sql`${`${verbs.update} ${nouns.inventory}: `}::text || coalesce(i.name, '')
              || coalesce(' (Imported from ' || (n.metadata ->> 'importFile') || ')', '')`,
            )},
            ${searchColumns({ ...fromEvent('n'), action: sql`'update'::text`, name: sql`coalesce(i.name, '')` })}
          from new_events n left join items i on i.id = substr(n.stream_id, 6)::uuid
          where n.type = 'StockAdjusted'`,
      },
    },
    // With edits (a re-import updating items by SKU, an API edit, a revert), or moves.
    // A batch of creations: one entry each, named after the event's data.
    // A batch of edits, adjustments and moves: one entry each, named after the item as `record` names
    // it: the items row as that event left it (the row before the batch with the batch's
    // changes up to that event, see item-batch-steps.ts), an edit's barcode note as barcodeNote.
    {
      types: ['ItemCreated', 'ItemUpdated', 'StockAdjusted', 'StockMoved'],
      ctes: {
        activity_created: activityCreated,
        activity_steps: itemBatchSteps,
        activity_changed: sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id,
            resource_name, timestamp, details, ${searchColumnNames})
          select left(replace(s.event_id::text, '-', ''), 16), s.position, s.metadata -> 'actor' ->> 'uid',
            s.metadata -> 'actor' ->> 'name', 'update', 'inventory', substr(s.stream_id, 6), s.name, s.created_at,
            ${revertedDetailsOf(
              sql`s.metadata`,
              sql`${`${verbs.update} ${nouns.inventory}: `}::text || s.name || s.barcode_note
              || coalesce(' (Imported from ' || nullif(s.metadata ->> 'importFile', '') || ')', '')`,
            )},
            ${searchColumns({ ...fromEvent('s'), action: sql`'update'::text`, name: sql`s.name` })}
          from (select s.*, ${fieldAt(sql`s.state`, 'name', sql`coalesce(i.name, '')`)} as name,
              case when s.type = 'ItemUpdated' and s.data -> 'changes' ? 'barcode' then
                case when jsonb_typeof(s.data -> 'changes' -> 'barcode' -> 'to') = 'null'
                    then ' (barcode ' || coalesce(s.data -> 'changes' -> 'barcode' ->> 'from', 'null') || ' removed)'
                  when coalesce(jsonb_typeof(s.data -> 'changes' -> 'barcode' -> 'from'), 'null') = 'null'
                    then ' (barcode set to ' || (s.data -> 'changes' -> 'barcode' ->> 'to') || ')'
                  else ' (barcode ' || (s.data -> 'changes' -> 'barcode' ->> 'from') || ' changed to '
                    || (s.data -> 'changes' -> 'barcode' ->> 'to') || ')' end
              else '' end as barcode_note
            from activity_steps s left join items i on i.id = s.item_id
            where s.type in ('ItemUpdated', 'StockAdjusted', 'StockMoved')) s`,
      },
    },
  ],
};
