-- Lists filtered by a site or a location page through the items there newest first, as the
-- whole list does (items_list_order). Each stock_levels row keeps its item's creation time
-- (which never changes: the items projection writes it with the row), so a page is read from
-- the place's index in list order, a page's worth of rows, instead of every row at the place
-- joined to its items and sorted: at 100,000 items over 1,000 locations a site's list summed
-- 100,000 rows (p95 over 500 ms), a location's joined every item (docs/benchmarks.md, Places).
-- The indexes keep their names and leading column, which the archive's stock checks, the
-- as-of reads and the wall display use.
alter table stock_levels add column item_created_at timestamptz;
update stock_levels s set item_created_at = i.created_at from items i where i.id = s.item_id;
alter table stock_levels alter column item_created_at set not null;
drop index stock_levels_location;
drop index stock_levels_site;
create index stock_levels_location on stock_levels (location_id, item_created_at desc, item_id desc);
create index stock_levels_site on stock_levels (site_id, item_created_at desc, item_id desc);
