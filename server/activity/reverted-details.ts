// How the activity log words a revert: "Reverted: {the original entry's details}", then who
// asked why. The original entry is found by its id (the first 16 hex digits of its event id,
// as the activity projection names entries), so a rebuild writes the same text.
import { sql, type RawBuilder } from 'kysely';
import type { StoredEvent } from '../eventstore/types.js';

/** SQL for the details of an event whose metadata is the SQL `metadata`: `plain` unless it reverts something. */
export function revertedDetailsOf(metadata: RawBuilder<unknown>, plain: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`case when ${metadata} ? 'reverts' then 'Reverted: '
      || coalesce((select o.details from activity_log o
        where o.id = left(replace(${metadata} ->> 'reverts', '-', ''), 16)), 'an earlier change')
      || coalesce(' (why: ' || nullif(${metadata} ->> 'revertReason', '') || ')', '')
    else ${plain} end`;
}

/** The same for one event handled on its own. */
export function revertedDetails(event: StoredEvent, plain: RawBuilder<unknown>): RawBuilder<string> {
  return revertedDetailsOf(sql`${JSON.stringify(event.metadata)}::jsonb`, plain);
}
