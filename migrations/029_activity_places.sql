-- The activity log filtered by site and location: each entry keeps the ids of the places its
-- event names (`place_ids`), so "what happened at Back room" is an index lookup, not a walk
-- of the log. An event names a place by its own stream (a site's or a location's change), or
-- by the locations and sites its data names: where an adjustment or a creation put stock (one
-- written before places existed names none, and was at Main location), both ends of a move,
-- the ends of a transfer step, a stocktake's scope. A location never changes site, so a
-- site's filter is its own id and its locations' ids, read when the filter is asked for.
-- The function is the one definition every writer of the log calls (through
-- server/activity/search-words.ts), and this file's backfill too, so a replay writes the same.
create or replace function activity_place_ids(p_stream_id text, p_type text, p_data jsonb) returns text[]
  language sql immutable as $$
  select coalesce(array_agg(distinct lower(p.id) order by lower(p.id))
      filter (where p.id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'), '{}')
  from (
    select case when p_stream_id like 'site-%' or p_stream_id like 'location-%'
      then substr(p_stream_id, strpos(p_stream_id, '-') + 1) end as id
    union all select p_data ->> 'locationId'
    union all select p_data ->> 'fromLocationId'
    union all select p_data ->> 'toLocationId'
    union all select p_data ->> 'siteId'
    union all select p_data ->> 'fromSiteId'
    union all select p_data ->> 'toSiteId'
    union all select case when p_type in ('StockAdjusted', 'ItemCreated')
        and not (coalesce(p_data, '{}'::jsonb) ?| array['locationId', 'levels'])
      then '00000000-0000-4000-8000-000000000002' end
    union all select jsonb_object_keys(case when jsonb_typeof(p_data -> 'levels') = 'object'
      then p_data -> 'levels' else '{}'::jsonb end)
  ) p
$$;

alter table activity_log add column place_ids text[] not null default '{}';

update activity_log a set place_ids = activity_place_ids(e.stream_id, e.type, e.data)
from events e
where e.position = a.position and activity_place_ids(e.stream_id, e.type, e.data) <> '{}';

-- Every writer in this build names them (searchColumnNames); the default stays so a writer
-- that does not is an entry no place filter finds, never a failed command.

create index activity_log_places on activity_log using gin (place_ids);
