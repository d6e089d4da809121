-- Sales roll-ups for the dashboard's revenue and top sellers, so a 30- or 60-day
-- window at any moment reads day rows plus the sales of the partial days at its edges,
-- instead of every sale in the window. Kept by the dashboard projection; rebuilt from events
-- by `npm run projections:rebuild`. A sale is a stock movement with reason 'sale', counted as
-- the movements count it: -delta units at the item's price then. Days are UTC days of the
-- event's time, as stock_daily's.

-- Units sold and revenue per day, beside the stock change of the same (day, shard) row.
alter table stock_daily add column sold_units bigint not null default 0;
alter table stock_daily add column sold_revenue numeric(20, 2) not null default 0;

-- Per item, one row per UTC day it had sales: that day's sales, the item's sales on all days
-- before it, and the previous day it had sales. The sales before midnight M are `*_before`
-- of the item's first sales day on or after M, found through the range (prev_day, day], or,
-- when it sold nothing on or after M, all of its sales (item_sales). Kept for deleted items
-- too: the log keeps their sales.
create table item_sales_daily (
  item_id uuid not null,
  day date not null,
  prev_day date,
  sold bigint not null,
  revenue numeric(20, 2) not null,
  sold_before bigint not null,
  revenue_before numeric(20, 2) not null,
  primary key (item_id, day)
);
-- An item's first sales day has nothing before it: the sales before any M up to it are 0.
create index item_sales_daily_until on item_sales_daily using gist (daterange(prev_day + 1, day + 1)) where prev_day is not null;

-- Per item that ever sold: all its sales and its last sales day.
create table item_sales (
  item_id uuid primary key,
  sold bigint not null,
  revenue numeric(20, 2) not null,
  last_day date not null
);

-- The as-of dashboard's near-expiry card looks only at versions with an expiry date.
create index item_versions_expiring on item_versions using gist (tstzrange(from_at, to_at)) where expiry_date is not null;

-- Fill from the movements already stored (the items projection wrote one per adjustment, at
-- the item's price then), as the dashboard projection would have.
update stock_daily d set sold_units = s.units, sold_revenue = s.revenue
from (
  select (created_at at time zone 'UTC')::date as day,
    greatest(position(lower(right(item_id::text, 1)) in '0123456789abcdef') - 1, 0) as shard,
    sum(-delta) as units, sum(-delta * unit_price) as revenue
  from stock_movements where reason = 'sale' group by 1, 2
) s
where d.day = s.day and d.shard = s.shard;

insert into item_sales_daily (item_id, day, prev_day, sold, revenue, sold_before, revenue_before)
select item_id, day, lag(day) over w, sold, revenue, sum(sold) over w - sold, sum(revenue) over w - revenue
from (
  select item_id, (created_at at time zone 'UTC')::date as day, sum(-delta) as sold, sum(-delta * unit_price) as revenue
  from stock_movements where reason = 'sale' group by 1, 2
) d
window w as (partition by item_id order by day rows between unbounded preceding and current row)
order by day, item_id;

insert into item_sales (item_id, sold, revenue, last_day)
select item_id, sum(sold), sum(revenue), max(day) from item_sales_daily group by item_id order by item_id;
