-- A reverted sale is not a sale: reverting one wrote a 'correction' that put the
-- stock back, but revenue, units sold, top sellers and the forecast kept the sale. The
-- dashboard projection now takes a reverted sale out of its own day's roll-ups, at its own
-- price, and keeps each such revert here with the time it was made, so a window read as of a
-- moment before the revert still counts the sale (server/dashboard/sales-windows.ts). A
-- revert of that revert puts the sale back the same way (its row negates this one's).
-- Low-stock episodes learn the same: cleared by a revert is not a restock, and an episode
-- whose clearing movement was reverted is not counted as restocked from the revert on.
-- The fills below bring stores written before this to what a replay of their events gives.

-- One row per revert of a sale (or of such a revert): the reverting event, the sale's item,
-- time and price, and the delta that takes it back as a movement of the sale's time would
-- (the sale's delta negated: +2 for a sale of 2).
create table reverted_sales (
  event_id uuid primary key,
  item_id uuid not null,
  sold_at timestamptz not null,
  delta integer not null,
  unit_price numeric(12, 2) not null,
  created_at timestamptz not null
);
create index reverted_sales_sold on reverted_sales (sold_at);
create index reverted_sales_created on reverted_sales (created_at);
create index reverted_sales_item on reverted_sales (item_id, sold_at);

-- When the movement that cleared the episode was reverted (null: never).
alter table low_stock_episodes add column clear_reverted_at timestamptz;

-- The reverts already stored, along their chains (a revert of a revert names the first).
insert into reverted_sales (event_id, item_id, sold_at, delta, unit_price, created_at)
with recursive chain as (
  select n.event_id, m.item_id, m.created_at as sold_at, -m.delta as delta, m.unit_price, n.created_at
  from events n join stock_movements m on m.event_id = (n.metadata ->> 'reverts')::uuid and m.reason = 'sale'
  where n.type = 'StockAdjusted' and n.metadata ? 'reverts'
  union all
  select n.event_id, c.item_id, c.sold_at, -c.delta, c.unit_price, n.created_at
  from chain c join events n on (n.metadata ->> 'reverts')::uuid = c.event_id
  where n.type = 'StockAdjusted' and n.metadata ? 'reverts'
)
select event_id, item_id, sold_at, delta, unit_price, created_at from chain order by event_id;

-- Taken out of the sales days they were booked to (the sale's row is there).
update stock_daily d set sold_units = d.sold_units + s.units, sold_revenue = d.sold_revenue + s.revenue
from (
  select (sold_at at time zone 'UTC')::date as day,
    greatest(position(lower(right(item_id::text, 1)) in '0123456789abcdef') - 1, 0) as shard,
    sum(-delta) as units, sum(-delta * unit_price) as revenue
  from reverted_sales group by 1, 2
) s
where d.day = s.day and d.shard = s.shard;

-- The per-item sales rows of the items with reverted sales, again from their movements and
-- reverts, as migration 014 fills them.
delete from item_sales_daily where item_id in (select item_id from reverted_sales);

insert into item_sales_daily (item_id, day, prev_day, sold, revenue, sold_before, revenue_before)
select item_id, day, lag(day) over w, sold, revenue, sum(sold) over w - sold, sum(revenue) over w - revenue
from (
  select item_id, day, sum(sold) as sold, sum(revenue) as revenue from (
    select item_id, (created_at at time zone 'UTC')::date as day, -delta as sold, -delta * unit_price as revenue
    from stock_movements where reason = 'sale' and item_id in (select item_id from reverted_sales)
    union all
    select item_id, (sold_at at time zone 'UTC')::date, -delta, -delta * unit_price from reverted_sales
  ) m group by 1, 2
) d
window w as (partition by item_id order by day rows between unbounded preceding and current row)
order by day, item_id;

delete from item_sales where item_id in (select item_id from reverted_sales);

insert into item_sales (item_id, sold, revenue, last_day)
select item_id, sum(sold), sum(revenue), max(day) from item_sales_daily
where item_id in (select item_id from reverted_sales) group by item_id order by item_id;

-- Episodes a revert cleared.
update low_stock_episodes l set cleared_by = 'revert'
from events r
join events p on p.stream_id = r.stream_id and p.stream_version = r.stream_version - 1 and p.type = 'StockAdjusted'
where r.type = 'ItemRecovered' and p.metadata ? 'reverts'
  and l.item_id = substr(r.stream_id, 6)::uuid and l.ended_at = r.created_at
  and l.started_position = (select max(e.started_position) from low_stock_episodes e
    where e.item_id = l.item_id and e.started_position < r.position);

-- Episodes whose clearing movement was reverted since.
update low_stock_episodes l set clear_reverted_at = n.created_at
from events n
join events o on o.event_id = (n.metadata ->> 'reverts')::uuid
join events r on r.stream_id = o.stream_id and r.stream_version = o.stream_version + 1 and r.type = 'ItemRecovered'
where n.type = 'StockAdjusted' and n.metadata ? 'reverts'
  and l.item_id = substr(r.stream_id, 6)::uuid and l.ended_at = r.created_at
  and l.started_position = (select max(e.started_position) from low_stock_episodes e
    where e.item_id = l.item_id and e.started_position < r.position);
