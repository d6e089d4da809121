// What the activity log's search matches: the words of each entry as the log shows it (the
// Action column's word, then its sentence: the delta and reason, the item, the fields an
// edit changed with old → new, the note, a revert's why, the import's file), kept in the
// entry's `search_text`; and the people it names (its author, whoever counted a stocktake's
// numbers) in `search_who`, apart, so a guest's search can leave them out. Both are worded by
// SQL functions of migration 022, the one definition the projection's per-event handlers, its
// set-based batch forms and the migration's backfill of older entries all call, so a replay
// writes what the live log holds. Sentences are built when read (entry-sentences.ts); these
// words are what can be stored: names as the entry stored them, prices as plain numbers.
// Beside the words, `place_ids`: the sites and locations the event names (migration 029's
// activity_place_ids), what the log's filters by site and location look up.
import { sql, type RawBuilder } from 'kysely';
import type { ActivityAction } from '../../shared/inventory.js';
import type { StoredEvent } from '../eventstore/types.js';

/** The columns the log is searched and filtered by, for an insert's column list. */
export const searchColumnNames = sql`search_text, search_who, place_ids`;

/** The SQL of an event's parts and its entry's, as one row form or another holds them. */
export interface EntrySql {
  action: RawBuilder<unknown>;
  type: RawBuilder<unknown>;
  data: RawBuilder<unknown>;
  metadata: RawBuilder<unknown>;
  /** The entry's resource name. */
  name: RawBuilder<unknown>;
  userName: RawBuilder<unknown>;
  /** The entry's stored details: stocktake entries take their words from them (null: an item or category entry). */
  details: RawBuilder<unknown>;
  /** The event's stream id: a site's or location's change is at that place. */
  streamId: RawBuilder<unknown>;
}

/** The words of the entry a revert takes back (null: not a revert, or the entry is gone), found as reverted-details.ts finds it. */
const revertedWords = (
  metadata: RawBuilder<unknown>,
) => sql`case when ${metadata} ? 'reverts' then (select o.search_text from activity_log o
  where o.id = left(replace(${metadata} ->> 'reverts', '-', ''), 16)) end`;

/** The values of `search_text, search_who, place_ids`, for a select list. */
export function searchColumns(e: EntrySql): RawBuilder<unknown> {
  return sql`activity_search_text(${e.action}, ${e.type}, ${e.data}, ${e.metadata}, ${e.name}, ${e.details}, ${revertedWords(e.metadata)}),
    activity_search_who(${e.userName}, ${e.type}, ${e.metadata}, ${e.details}),
    activity_place_ids(${e.streamId}, ${e.type}, ${e.data})`;
}

/** The same for one event handled on its own, its entry named `name` and saying `details`. */
export function searchColumnsOf(
  event: StoredEvent,
  action: ActivityAction,
  name: RawBuilder<unknown>,
  details: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return searchColumns({
    action: sql`${action}::text`,
    type: sql`${event.type}::text`,
    data: sql`${JSON.stringify(event.data ?? {})}::jsonb`,
    metadata: sql`${JSON.stringify(event.metadata)}::jsonb`,
    name,
    userName: sql`${event.metadata.actor.name}::text`,
    details,
    streamId: sql`${event.streamId}::text`,
  });
}
