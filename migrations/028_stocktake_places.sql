-- Stocktakes count at a place: a whole site or one location (with the locations inside it).
-- Lines and counts are per item and location, so posting a count changes the stock at the
-- counted location only. Sessions from before places counted Main location (all stock was
-- there): the fills below give them what a replay of their events gives (shared/stocktake.ts
-- sessionPlace: no place named means Main store, Main location).
alter table stocktakes add column site_id uuid;
-- null: the whole site.
alter table stocktakes add column location_id uuid;
-- The locations counts may name (fixed at the start), as a JSON array of ids.
alter table stocktakes add column location_ids jsonb;
-- Where a count that names no location goes.
alter table stocktakes add column home_location_id uuid;

update stocktakes set site_id = '00000000-0000-4000-8000-000000000001',
  location_id = '00000000-0000-4000-8000-000000000002',
  location_ids = '["00000000-0000-4000-8000-000000000002"]'::jsonb,
  home_location_id = '00000000-0000-4000-8000-000000000002';

alter table stocktakes alter column site_id set not null;
alter table stocktakes alter column location_ids set not null;
alter table stocktakes alter column home_location_id set not null;

alter table stocktake_lines add column location_id uuid not null default '00000000-0000-4000-8000-000000000002';
alter table stocktake_lines alter column location_id drop default;
alter table stocktake_lines drop constraint stocktake_lines_pkey;
alter table stocktake_lines add primary key (stocktake_id, item_id, location_id);

alter table stocktake_counts add column location_id uuid not null default '00000000-0000-4000-8000-000000000002';
alter table stocktake_counts alter column location_id drop default;
drop index stocktake_counts_line;
create index stocktake_counts_line on stocktake_counts (stocktake_id, item_id, location_id, counted_at);
