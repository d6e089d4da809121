// The activity log's entry for a site or location change: who did what to which place, as
// the log words it (shared/change-sentence.ts). Written by the sites projection's handlers
// (the log is the activity feature's table), so a rebuild writes the same rows. The entry
// keeps the sentence's words for the log's search: the places it names as they were then.
import { sql } from 'kysely';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import type { ActivityAction } from '../../shared/inventory.js';
import { placesNamedBy, type PlaceEvent } from '../../shared/sites.js';
import { searchColumnNames, searchColumnsOf } from '../activity/search-words.js';
import type { StoredEvent, Transaction } from '../eventstore/types.js';

/**
 * The correlation id of the two creations migrations/023_sites_and_stock_levels.sql wrote
 * (Main store and its location): the store had them from the start, nobody made them, and
 * the log the migration found has no entries for them.
 */
const MIGRATION_CORRELATION = 'sites-migration';

const idsIn = (ids: string[]) => sql`jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)`;

export async function logPlaceChange(trx: Transaction, event: StoredEvent<PlaceEvent['data']>): Promise<void> {
  if (event.metadata.correlationId === MIGRATION_CORRELATION) return;
  const isSite = event.streamType === 'site';
  const id = event.streamId.slice(event.streamId.indexOf('-') + 1);
  const named = placesNamedBy(event.type, event.data);
  const rows = await sql<{ id: string; name: string; own: boolean }>`
    select id::text as id, name, false as own from locations where id::text in (select ${idsIn(named)})
    union all select id::text, name, false from sites where id::text in (select ${idsIn(named)})
    union all select id::text, name, true from ${sql.table(isSite ? 'sites' : 'locations')} where id = ${id}`.execute(
    trx,
  );
  const subject = rows.rows.find((r) => r.own)?.name ?? '';
  const names = Object.fromEntries(rows.rows.filter((r) => !r.own).map((r) => [r.id, r.name]));
  const details = sentenceText(describeChange({ type: event.type, data: event.data, subject, names }, null));
  const action: ActivityAction = event.type.endsWith('Created') ? 'create' : 'update';
  const actor = event.metadata.actor;
  await sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id, resource_name,
      timestamp, details, ${searchColumnNames})
    values (${event.eventId.replace(/-/g, '').slice(0, 16)}, ${event.position}, ${actor.uid}, ${actor.name}, ${action},
      ${isSite ? 'site' : 'location'}, ${id}, ${subject}, ${event.createdAt}, ${details},
      ${searchColumnsOf(event, action, sql`${subject}::text`, sql`${details}::text`)})`.execute(trx);
}
