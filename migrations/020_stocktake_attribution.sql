-- Who counted and who approved: approving a line ("Keep 38", Approve) is
-- the manager's act, the count stays the counter's. A count now keeps its counter's uid
-- beside the name (the approval stamps the posted adjustment with it), and an approved line
-- keeps the name of whoever approved it. The fills below bring stores written before this to
-- what a replay of their events gives.
alter table stocktake_counts add column counted_by_uid text;
alter table stocktake_lines add column approved_by text;

update stocktake_counts c set counted_by_uid = e.metadata -> 'actor' ->> 'uid'
from events e
where e.event_id = c.id;

-- A line is approved once: one StocktakeLinesApproved event names it.
update stocktake_lines l set approved_by = e.metadata -> 'actor' ->> 'name'
from events e, jsonb_array_elements(e.data -> 'lines') x
where e.type = 'StocktakeLinesApproved' and e.stream_id = 'stocktake-' || l.stocktake_id::text
  and x ->> 'itemId' = l.item_id::text;
