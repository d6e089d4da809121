-- Places. A site is a store or a warehouse; each has a tree of locations (areas, shelves,
-- bins). Every unit of stock lives at a location: stock_levels holds one row per item and
-- location it has been at (zero rows stay, so an empty bin still lists what belongs there);
-- an item's `quantity` stays its total, the sum over its locations plus what is in transit.
-- Existing stores move into one site, "Main store", with one location: its two creations
-- are written as events (so a rebuild from the log makes them again), dated at the start of
-- the log (so the store "as of" any earlier moment already has them; to the millisecond, as
-- every append dates events, so a replay writes the same rows), and every item's
-- quantity is put at that location.
create table sites (
  id uuid primary key,
  name text not null,
  code text not null,
  address text not null default '',
  time_zone text not null,
  -- Where stock goes at this site when nobody names a location (old clients, the first item).
  default_location_id uuid,
  archived_at timestamptz,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index sites_code_unique on sites (lower(code));

create table locations (
  id uuid primary key,
  site_id uuid not null,
  parent_id uuid,
  name text not null,
  code text not null,
  barcode text,
  archived_at timestamptz,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index locations_code_unique on locations (site_id, lower(code));
create unique index locations_barcode_unique on locations (barcode) where barcode is not null;
create index locations_tree on locations (site_id, parent_id);

create table stock_levels (
  item_id uuid not null,
  location_id uuid not null,
  -- The location's site, kept here so lists filtered by site need no join through locations
  -- (a location never changes site: it moves only within its own tree).
  site_id uuid not null,
  quantity integer not null,
  primary key (item_id, location_id),
  -- A location never holds less than nothing: a last guard under the decisions that refuse it.
  constraint stock_levels_not_negative check (quantity >= 0)
);
create index stock_levels_location on stock_levels (location_id, item_id);
create index stock_levels_site on stock_levels (site_id, item_id);

-- Units shipped from one site and not yet received at another (part of `quantity`).
alter table items add column in_transit integer not null default 0;

insert into events (stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at)
select 'site-00000000-0000-4000-8000-000000000001', 'site', 1, '00000000-0000-4000-8000-0000000000e1'::uuid, 'SiteCreated',
  '{"siteId": "00000000-0000-4000-8000-000000000001", "name": "Main store", "code": "MAIN", "address": "", "timeZone": "UTC"}'::jsonb,
  '{"actor": {"uid": null, "name": "Stockroom"}, "correlationId": "sites-migration"}'::jsonb,
  date_trunc('milliseconds', coalesce((select min(created_at) from events), now()));

insert into events (stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at)
select 'location-00000000-0000-4000-8000-000000000002', 'location', 1, '00000000-0000-4000-8000-0000000000e2'::uuid,
  'LocationCreated',
  '{"locationId": "00000000-0000-4000-8000-000000000002", "siteId": "00000000-0000-4000-8000-000000000001", "parentId": null, "name": "Main location", "code": "MAIN", "barcode": null}'::jsonb,
  '{"actor": {"uid": null, "name": "Stockroom"}, "correlationId": "sites-migration"}'::jsonb,
  date_trunc('milliseconds', coalesce((select min(created_at) from events), now()));

insert into sites (id, name, code, address, time_zone, default_location_id, version, created_at, updated_at)
select '00000000-0000-4000-8000-000000000001', 'Main store', 'MAIN', '', 'UTC', '00000000-0000-4000-8000-000000000002', 1,
  created_at, created_at
from events where event_id = '00000000-0000-4000-8000-0000000000e1';

insert into locations (id, site_id, parent_id, name, code, barcode, version, created_at, updated_at)
select '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', null, 'Main location', 'MAIN', null, 1,
  created_at, created_at
from events where event_id = '00000000-0000-4000-8000-0000000000e2';

insert into stock_levels (item_id, location_id, site_id, quantity)
select id, '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', quantity from items;
