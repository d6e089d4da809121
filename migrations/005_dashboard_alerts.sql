-- Dashboard and alerts projections: low-stock episodes, per-user alert dismissals and
-- choices, and the stock roll-ups the dashboard and wall display read instead of scanning
-- every item. All are rebuilt from events by `npm run projections:rebuild`; the inserts at
-- the end fill them from the events already stored, exactly as a replay would.

-- One row per time an item went low: opened by ItemWentLow, closed by ItemRecovered (or
-- ItemDeleted). The opening event's position names the episode.
create table low_stock_episodes (
  started_position bigint primary key,
  item_id uuid not null,
  started_at timestamptz not null,
  ended_at timestamptz,
  -- What cleared it: the reason of the stock movement (restock, correction, count, ...),
  -- 'threshold' when an edited threshold did, 'deleted' when the item was deleted.
  cleared_by text
);
create unique index low_stock_episodes_open on low_stock_episodes (item_id) where ended_at is null;
create index low_stock_episodes_started on low_stock_episodes (started_at);
create index low_stock_episodes_ended on low_stock_episodes (ended_at) where ended_at is not null;

-- A user's dismissal of the alert of one episode; gone when the item recovers.
create table alert_dismissals (
  user_id text not null,
  item_id uuid not null,
  episode bigint not null,
  dismissed_at timestamptz not null,
  primary key (user_id, item_id)
);
create index alert_dismissals_item on alert_dismissals (item_id);

-- A user's alert choices, once changed; until then the defaults of shared/alerts.ts apply.
create table alert_settings (
  user_id text primary key,
  in_app_toasts boolean not null,
  notify_when text not null,
  updated_at timestamptz not null
);

-- The dashboard's own copy of what it needs per item (the items row is gone by the time
-- an ItemDeleted reaches the dashboard projection).
create table dashboard_items (
  item_id uuid primary key,
  category_id uuid not null,
  quantity integer not null,
  price numeric(12, 2) not null,
  low boolean not null
);

-- Net change per UTC day of item count, units on hand and stock value: the running sum is
-- the stock at the end of each day, the sum of all rows the stock now.
create table stock_daily (
  day date primary key,
  items_delta integer not null,
  units_delta bigint not null,
  value_delta numeric(20, 2) not null
);

-- Stock by category for the wall display; a category without items has no row.
create table category_stock (
  category_id uuid primary key,
  item_count integer not null,
  units bigint not null,
  value numeric(20, 2) not null,
  low_count integer not null
);

-- Fill from the events already stored (a store created before this migration). Times are
-- cut to milliseconds, as the projections receive them (JavaScript dates).
insert into low_stock_episodes (started_position, item_id, started_at, ended_at, cleared_by)
select s.position, substr(s.stream_id, 6)::uuid, date_trunc('milliseconds', s.created_at), date_trunc('milliseconds', e.created_at),
  case
    when e.type is null then null
    when e.type = 'ItemDeleted' then 'deleted'
    else coalesce((select p.data ->> 'reason' from events p
      where p.stream_id = e.stream_id and p.stream_version = e.stream_version - 1 and p.type = 'StockAdjusted'), 'threshold')
  end
from events s
left join lateral (
  select x.type, x.created_at, x.stream_id, x.stream_version from events x
  where x.stream_id = s.stream_id and x.stream_version > s.stream_version and x.type in ('ItemRecovered', 'ItemDeleted')
  order by x.stream_version limit 1
) e on true
where s.type = 'ItemWentLow';

insert into dashboard_items (item_id, category_id, quantity, price, low)
select i.id, i.category_id, i.quantity, i.price,
  exists (select 1 from low_stock_episodes l where l.item_id = i.id and l.ended_at is null)
from items i;

insert into category_stock (category_id, item_count, units, value, low_count)
select category_id, count(*), sum(quantity), sum(quantity * price), count(*) filter (where low)
from dashboard_items group by category_id;

insert into stock_daily (day, items_delta, units_delta, value_delta)
with ev as (
  select stream_id, stream_version, type, data, (created_at at time zone 'UTC')::date as day,
    case type
      when 'ItemCreated' then round((data ->> 'price')::numeric, 2)
      when 'ItemUpdated' then round((data -> 'changes' -> 'price' ->> 'to')::numeric, 2)
    end as set_price,
    case type when 'ItemCreated' then (data ->> 'quantity')::int when 'StockAdjusted' then (data ->> 'quantity')::int end as set_qty
  from events
  where stream_type = 'item'
    and (type in ('ItemCreated', 'StockAdjusted', 'ItemDeleted') or (type = 'ItemUpdated' and data -> 'changes' ? 'price'))
), grouped as (
  select *, count(set_price) over w as price_group, count(set_qty) over w as qty_group
  from ev window w as (partition by stream_id order by stream_version)
), filled as (
  select *,
    first_value(set_price) over (partition by stream_id, price_group order by stream_version) as price,
    first_value(set_qty) over (partition by stream_id, qty_group order by stream_version) as qty
  from grouped
)
select day,
  sum(case type when 'ItemCreated' then 1 when 'ItemDeleted' then -1 else 0 end),
  sum(case type when 'ItemCreated' then qty when 'StockAdjusted' then (data ->> 'delta')::int when 'ItemDeleted' then -qty else 0 end),
  sum(case type
    when 'ItemCreated' then qty * price
    when 'StockAdjusted' then (data ->> 'delta')::int * price
    when 'ItemDeleted' then -qty * price
    else qty * (round((data -> 'changes' -> 'price' ->> 'to')::numeric, 2) - round((data -> 'changes' -> 'price' ->> 'from')::numeric, 2))
  end)
from filled group by day;
