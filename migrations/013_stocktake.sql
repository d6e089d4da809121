-- Stocktakes: projections of the stocktake-<id> streams, rebuilt from events like
-- the others. A count's expected quantity is not stored with it: it is read from
-- item_versions at the count's moment (countedAt) when the session is shown, so it is right
-- whatever order counts and sales reach the server in; the approval event records the
-- expected quantity it posted against.
create table stocktakes (
  id uuid primary key,
  name text not null,
  scope text not null,
  category_id uuid,
  status text not null,
  started_at timestamptz not null,
  started_by text not null,
  closed_at timestamptz,
  version integer not null
);
create index stocktakes_started on stocktakes (started_at desc);

-- The items a session counts (fixed when it starts), and what was posted once approved.
create table stocktake_lines (
  stocktake_id uuid not null,
  item_id uuid not null,
  ord integer not null,
  approved_at timestamptz,
  approved_count_id uuid,
  approved_counted integer,
  approved_expected integer,
  approved_delta integer,
  primary key (stocktake_id, item_id)
);

-- One row per StockCounted event (its id is the count's id).
create table stocktake_counts (
  id uuid primary key,
  stocktake_id uuid not null,
  item_id uuid not null,
  counted integer not null,
  counted_at timestamptz not null,
  counted_by text not null,
  recorded_at timestamptz not null
);
create index stocktake_counts_line on stocktake_counts (stocktake_id, item_id, counted_at);
