// The stocktake projections (migrations 013, 028): sessions with the place they count,
// their lines (an item at a location) and counts; and the sessions' entries in the activity
// log (the log is the activity feature's table; these rows are written, and rebuilt, by this
// projection's handlers).
import { sql } from 'kysely';
import { sessionPlace, startedLines, type ApprovedLine, type StocktakeEvent } from '../../shared/stocktake.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { searchColumnNames, searchColumnsOf } from '../activity/search-words.js';

type Data<T extends StocktakeEvent['type']> = Extract<StocktakeEvent, { type: T }>['data'];

const idOf = (streamId: string) => streamId.slice('stocktake-'.length);

async function bump(trx: Transaction, event: StoredEvent) {
  await sql`update stocktakes set version = ${event.streamVersion} where id = ${idOf(event.streamId)}`.execute(trx);
}

/** One activity entry, worded after the session's name (and an item's, for a count), with its search words. */
async function logActivity(
  trx: Transaction,
  event: StoredEvent,
  action: 'create' | 'update',
  details: ReturnType<typeof sql>,
) {
  const id = idOf(event.streamId);
  await sql`insert into activity_log (id, position, user_id, user_name, action, resource_type, resource_id, resource_name,
      timestamp, details, ${searchColumnNames})
    select ${event.eventId.replace(/-/g, '').slice(0, 16)}, ${event.position}, ${event.metadata.actor.uid},
      ${event.metadata.actor.name}, ${action}, 'stocktake', ${id}, s.name, ${event.createdAt}, d.details,
      ${searchColumnsOf(event, action, sql`s.name`, sql`d.details`)}
    from stocktakes s cross join lateral (select ${details} as details) d where s.id = ${id}`.execute(trx);
}

/**
 * An approval's entry says whose counts it posted: the entry is the approver's, the counts
 * stay their counters' ("Approved stocktake: Cellar: White Wine 38, counted by Sam Staff";
 * several lines name the counters once each). Counters come from the counts themselves, so
 * approvals written before the event named them read the same.
 */
function approvalDetails(stocktakeId: string, lines: ApprovedLine[]) {
  if (lines.length === 0) return sql`'Approved stocktake: ' || s.name || ' (0 lines)'`;
  const counters = sql`(select string_agg(distinct c.counted_by, ', ' order by c.counted_by) from stocktake_counts c
    where c.stocktake_id = ${stocktakeId} and c.id in (${sql.join(lines.map((l) => l.countId))}))`;
  if (lines.length === 1) {
    const [line] = lines as [ApprovedLine];
    const item = sql`coalesce((select name from items where id = ${line.itemId}), 'an item')`;
    return sql`'Approved stocktake: ' || s.name || ': ' || ${item} || ${` ${line.counted}`}::text
      || coalesce(', counted by ' || ${counters}, '')`;
  }
  return sql`'Approved stocktake: ' || s.name || ${` (${lines.length} lines`}::text || coalesce(', counted by ' || ${counters}, '') || ')'`;
}

export const stocktakeProjection: Projection = {
  name: 'stocktake',
  tables: ['stocktakes', 'stocktake_lines', 'stocktake_counts'],
  handlers: {
    StocktakeStarted: async (event: StoredEvent<Data<'StocktakeStarted'>>, trx) => {
      const d = event.data;
      const place = sessionPlace(d);
      await sql`insert into stocktakes (id, name, scope, category_id, status, started_at, started_by, closed_at, version,
          site_id, location_id, location_ids, home_location_id)
        values (${d.stocktakeId}, ${d.name}, ${d.scope}, ${d.categoryId}, 'open', ${event.createdAt},
          ${event.metadata.actor.name}, null, ${event.streamVersion}, ${place.siteId}, ${place.locationId},
          ${JSON.stringify(place.locationIds)}::jsonb, ${place.homeLocationId})`.execute(trx);
      const lines = startedLines(d).map((l) => [l.itemId, l.locationId]);
      await sql`insert into stocktake_lines (stocktake_id, item_id, location_id, ord)
        select ${d.stocktakeId}, (t.line ->> 0)::uuid, (t.line ->> 1)::uuid, t.ord
        from jsonb_array_elements(${JSON.stringify(lines)}::jsonb) with ordinality as t(line, ord)`.execute(trx);
      await logActivity(
        trx,
        event,
        'create',
        sql`${`Started stocktake: ${d.name} (${d.itemIds.length} items to count)`}::text`,
      );
    },
    StockCounted: async (event: StoredEvent<Data<'StockCounted'>>, trx) => {
      const d = event.data;
      const id = idOf(event.streamId);
      // A count that names no location was made at the session's home location.
      const at = sql`coalesce(${d.locationId ?? null}::uuid, (select home_location_id from stocktakes where id = ${id}))`;
      await sql`insert into stocktake_counts (id, stocktake_id, item_id, location_id, counted, counted_at, counted_by,
          counted_by_uid, recorded_at)
        values (${event.eventId}, ${id}, ${d.itemId}, ${at}, ${d.counted}, ${d.countedAt},
          ${event.metadata.actor.name}, ${event.metadata.actor.uid}, ${event.createdAt})`.execute(trx);
      // Found where it was not expected (a location of the place it had no stock at): a line of its own, last.
      await sql`insert into stocktake_lines (stocktake_id, item_id, location_id, ord)
        select ${id}, ${d.itemId}, ${at}, coalesce(max(ord), 0) + 1 from stocktake_lines where stocktake_id = ${id}
        on conflict do nothing`.execute(trx);
      await bump(trx, event);
      const item = sql`coalesce((select name from items where id = ${d.itemId}), 'an item')`;
      await logActivity(
        trx,
        event,
        'update',
        sql`'Counted ' || ${item} || ${`: ${d.counted} (stocktake `}::text || s.name || ')'`,
      );
    },
    StocktakeLinesApproved: async (event: StoredEvent<Data<'StocktakeLinesApproved'>>, trx) => {
      const id = idOf(event.streamId);
      for (const line of event.data.lines) {
        // The difference posted is the delta of the item's `count` adjustment written in the
        // same commit (the event itself carries no numbers, see ApprovedLine); older events
        // carried it themselves.
        const delta =
          line.delta !== undefined
            ? sql`${line.delta}::int`
            : line.adjustmentVersion === null
              ? sql`0`
              : sql`(select (e.data ->> 'delta')::int from events e
                  where e.stream_id = ${`item-${line.itemId}`} and e.stream_version = ${line.adjustmentVersion})`;
        await sql`update stocktake_lines set approved_at = ${event.createdAt}, approved_by = ${event.metadata.actor.name},
            approved_count_id = ${line.countId},
            approved_counted = ${line.counted}, approved_expected = ${line.counted}::int - d.delta, approved_delta = d.delta
          from (select ${delta} as delta) d
          where stocktake_id = ${id} and item_id = ${line.itemId}
            and location_id = coalesce(${line.locationId ?? null}::uuid,
              (select home_location_id from stocktakes where id = ${id}))`.execute(trx);
      }
      await bump(trx, event);
      await logActivity(trx, event, 'update', approvalDetails(id, event.data.lines));
    },
    StocktakeClosed: async (event: StoredEvent<Data<'StocktakeClosed'>>, trx) => {
      await sql`update stocktakes set status = 'closed', closed_at = ${event.createdAt}, version = ${event.streamVersion}
        where id = ${idOf(event.streamId)}`.execute(trx);
      await logActivity(trx, event, 'update', sql`'Closed stocktake: ' || s.name`);
    },
  },
};
