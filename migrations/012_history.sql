-- History projections: every version an item or category had, with the event
-- positions and times it was valid between, so "the store as of t" is an index lookup
-- instead of a fold of the log; and the reverts ledger, whose primary key lets a change be
-- undone only once. All three are rebuilt from events by `npm run projections:rebuild`;
-- the inserts at the end fill them from the events already stored, as a replay would.

-- One row per state of an item: made by the event at `valid_from` (ItemCreated,
-- ItemUpdated or StockAdjusted), ended by the next such event or ItemDeleted (`valid_to`,
-- null while current). ItemWentLow/ItemRecovered only move `version`. `to_at` is never
-- before `from_at` (a transaction's clock can lag the one before it on the same item), so
-- the validity range always exists; such a row is simply never visible.
create table item_versions (
  item_id uuid not null,
  valid_from bigint not null,
  valid_to bigint,
  from_at timestamptz not null,
  to_at timestamptz,
  name text not null,
  description text not null,
  sku text not null,
  category_id uuid not null,
  quantity integer not null,
  price numeric(12, 2) not null,
  threshold integer not null,
  image_url text,
  expiry_date date,
  barcode text,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (item_id, valid_from)
);
-- Not unique: the batch form closes the current row and inserts the next in one statement,
-- and a unique index would be checked before the close is seen.
create index item_versions_current on item_versions (item_id) where valid_to is null;
-- "Which versions were valid at t": the as-of listing, dashboard and category counts.
create index item_versions_during on item_versions using gist (tstzrange(from_at, to_at));
-- "What changed between two moments": versions that began or ended in the window.
create index item_versions_began on item_versions (from_at);
create index item_versions_ended on item_versions (to_at) where to_at is not null;

create table category_versions (
  category_id uuid not null,
  valid_from bigint not null,
  valid_to bigint,
  from_at timestamptz not null,
  to_at timestamptz,
  name text not null,
  description text not null,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (category_id, valid_from)
);
create index category_versions_current on category_versions (category_id) where valid_to is null;

-- One row per reverted event, written by the projection of the compensating event (whose
-- metadata says `reverts`), in its transaction: a second revert of the same event violates
-- the primary key and rolls back.
create table reverts (
  reverted_event_id uuid primary key,
  reverting_event_id uuid not null,
  position bigint not null
);

-- Fill from the events already stored (times cut to milliseconds, as projections see them).
insert into reverts (reverted_event_id, reverting_event_id, position)
select distinct on ((metadata ->> 'reverts')::uuid) (metadata ->> 'reverts')::uuid, event_id, position
from events where metadata ? 'reverts' order by (metadata ->> 'reverts')::uuid, position;

insert into item_versions (item_id, valid_from, valid_to, from_at, to_at, name, description, sku, category_id, quantity,
  price, threshold, image_url, expiry_date, barcode, version, created_at, updated_at)
with ev as (
  select position, stream_id, stream_version, type, data, date_trunc('milliseconds', created_at) as at,
    type in ('ItemCreated', 'ItemUpdated', 'StockAdjusted') as starts,
    type in ('ItemCreated', 'ItemUpdated', 'StockAdjusted', 'ItemDeleted') as ends,
    case when type = 'ItemCreated' then data else data -> 'changes' end as src
  from events
  where stream_type = 'item'
), marked as (
  select *,
    count(*) filter (where type = 'ItemCreated') over w as life,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'name')) over w as g_name,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'description')) over w as g_description,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'sku')) over w as g_sku,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'categoryId')) over w as g_category,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'price')) over w as g_price,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'threshold')) over w as g_threshold,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'imageUrl')) over w as g_image,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'expiryDate')) over w as g_expiry,
    count(*) filter (where type = 'ItemCreated' or (type = 'ItemUpdated' and src ? 'barcode')) over w as g_barcode,
    count(*) filter (where type in ('ItemCreated', 'StockAdjusted')) over w as g_quantity,
    count(*) filter (where starts or type = 'ItemDeleted') over w as g_row
  from ev window w as (partition by stream_id order by stream_version)
), valued as (
  select *,
    case when type = 'ItemCreated' then src ->> 'name' else src -> 'name' ->> 'to' end as v_name,
    case when type = 'ItemCreated' then src ->> 'description' else src -> 'description' ->> 'to' end as v_description,
    case when type = 'ItemCreated' then src ->> 'sku' else src -> 'sku' ->> 'to' end as v_sku,
    case when type = 'ItemCreated' then src ->> 'categoryId' else src -> 'categoryId' ->> 'to' end as v_category,
    case when type = 'ItemCreated' then src ->> 'price' else src -> 'price' ->> 'to' end as v_price,
    case when type = 'ItemCreated' then src ->> 'threshold' else src -> 'threshold' ->> 'to' end as v_threshold,
    case when type = 'ItemCreated' then src ->> 'imageUrl' else src -> 'imageUrl' ->> 'to' end as v_image,
    case when type = 'ItemCreated' then src ->> 'expiryDate' else src -> 'expiryDate' ->> 'to' end as v_expiry,
    case when type = 'ItemCreated' then src ->> 'barcode' else src -> 'barcode' ->> 'to' end as v_barcode,
    case when type in ('ItemCreated', 'StockAdjusted') then data ->> 'quantity' end as v_quantity
  from marked
), filled as (
  select *,
    first_value(v_name) over (partition by stream_id, g_name order by stream_version) as f_name,
    first_value(v_description) over (partition by stream_id, g_description order by stream_version) as f_description,
    first_value(v_sku) over (partition by stream_id, g_sku order by stream_version) as f_sku,
    first_value(v_category) over (partition by stream_id, g_category order by stream_version) as f_category,
    first_value(v_price) over (partition by stream_id, g_price order by stream_version) as f_price,
    first_value(v_threshold) over (partition by stream_id, g_threshold order by stream_version) as f_threshold,
    first_value(v_image) over (partition by stream_id, g_image order by stream_version) as f_image,
    first_value(v_expiry) over (partition by stream_id, g_expiry order by stream_version) as f_expiry,
    first_value(v_barcode) over (partition by stream_id, g_barcode order by stream_version) as f_barcode,
    first_value(v_quantity) over (partition by stream_id, g_quantity order by stream_version) as f_quantity,
    first_value(at) over (partition by stream_id, life order by stream_version) as f_created,
    max(stream_version) over (partition by stream_id, g_row) as f_version
  from valued
), rows as (
  select *, lead(position) over e as next_position, lead(at) over e as next_at
  from filled where ends window e as (partition by stream_id order by stream_version)
)
select substr(stream_id, 6)::uuid, position, next_position, at, greatest(next_at, at),
  f_name, f_description, f_sku, f_category::uuid, f_quantity::int, round(f_price::numeric, 2), f_threshold::int,
  f_image, f_expiry::date, f_barcode, f_version, f_created, at
from rows where starts;

insert into category_versions (category_id, valid_from, valid_to, from_at, to_at, name, description, version, created_at, updated_at)
with ev as (
  select position, stream_id, stream_version, type, data, date_trunc('milliseconds', created_at) as at,
    case when type = 'CategoryCreated' then data else data -> 'changes' end as src
  from events where stream_type = 'category'
), marked as (
  select *,
    count(*) filter (where type = 'CategoryCreated') over w as life,
    count(*) filter (where type = 'CategoryCreated' or (type = 'CategoryUpdated' and src ? 'name')) over w as g_name,
    count(*) filter (where type = 'CategoryCreated' or (type = 'CategoryUpdated' and src ? 'description')) over w as g_description
  from ev window w as (partition by stream_id order by stream_version)
), filled as (
  select *,
    first_value(case when type = 'CategoryCreated' then src ->> 'name' else src -> 'name' ->> 'to' end)
      over (partition by stream_id, g_name order by stream_version) as f_name,
    first_value(case when type = 'CategoryCreated' then src ->> 'description' else src -> 'description' ->> 'to' end)
      over (partition by stream_id, g_description order by stream_version) as f_description,
    first_value(at) over (partition by stream_id, life order by stream_version) as f_created,
    lead(position) over (partition by stream_id order by stream_version) as next_position,
    lead(at) over (partition by stream_id order by stream_version) as next_at
  from marked
)
select substr(stream_id, 10)::uuid, position, next_position, at, greatest(next_at, at), f_name, f_description,
  stream_version, f_created, at
from filled where type <> 'CategoryDeleted';
