-- stock_daily had one row per day, so every stock adjustment in the store updated the same
-- row and concurrent adjustments queued on its lock until each commit. A day now has 16
-- rows, one per shard (the last hex digit of the item id); readers sum them. The rows are
-- recomputed from the events as the dashboard projection now writes them, so
-- projections:verify still finds no difference.
alter table stock_daily add column shard smallint not null default 0;
alter table stock_daily drop constraint stock_daily_pkey;
alter table stock_daily add primary key (day, shard);
delete from stock_daily;

insert into stock_daily (day, shard, items_delta, units_delta, value_delta)
with ev as (
  select stream_id, stream_version, type, data, (created_at at time zone 'UTC')::date as day,
    greatest(position(lower(right(stream_id, 1)) in '0123456789abcdef') - 1, 0) as shard,
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
select day, shard,
  sum(case type when 'ItemCreated' then 1 when 'ItemDeleted' then -1 else 0 end),
  sum(case type when 'ItemCreated' then qty when 'StockAdjusted' then (data ->> 'delta')::int when 'ItemDeleted' then -qty else 0 end),
  sum(case type
    when 'ItemCreated' then qty * price
    when 'StockAdjusted' then (data ->> 'delta')::int * price
    when 'ItemDeleted' then -qty * price
    else qty * (round((data -> 'changes' -> 'price' ->> 'to')::numeric, 2) - round((data -> 'changes' -> 'price' ->> 'from')::numeric, 2))
  end)
from filled group by day, shard;
