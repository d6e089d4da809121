-- Inventory projections: items, categories, the activity log, stock movements, and the
-- HTTP idempotency record. All rebuilt from events by `npm run projections:rebuild`.
create extension if not exists pg_trgm with schema public;

create table categories (
  id uuid primary key,
  name text not null,
  description text not null default '',
  item_count integer not null default 0,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create unique index categories_name_unique on categories (lower(name));

create table items (
  id uuid primary key,
  name text not null,
  description text not null default '',
  sku text not null,
  category_id uuid not null,
  category_name text not null,
  quantity integer not null,
  price numeric(12, 2) not null,
  threshold integer not null,
  image_url text,
  expiry_date date,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- What search matches against: name, SKU, description and category name.
  search_text text not null
);
create unique index items_sku_unique on items (lower(sku));
create index items_list_order on items (created_at desc, id desc);
create index items_category on items (category_id, lower(name), id);
create index items_low_stock on items (quantity, threshold) where quantity <= threshold;
create index items_expiry on items (expiry_date) where expiry_date is not null;
create index items_search_trgm on items using gin (search_text public.gin_trgm_ops);

create table activity_log (
  id text primary key,
  position bigint not null,
  user_id text,
  user_name text not null,
  action text not null,
  resource_type text not null,
  resource_id text not null,
  resource_name text not null,
  timestamp timestamptz not null,
  details text not null
);
create index activity_log_timestamp on activity_log (timestamp desc, id desc);
create index activity_log_user on activity_log (lower(user_name), timestamp desc);
create index activity_log_action on activity_log (action, timestamp desc);
create index activity_log_search on activity_log using gin (lower(details || ' ' || user_name) public.gin_trgm_ops);

create table stock_movements (
  event_id uuid primary key,
  item_id uuid not null,
  delta integer not null,
  reason text not null,
  quantity_after integer not null,
  unit_price numeric(12, 2) not null,
  user_id text,
  created_at timestamptz not null
);
create index stock_movements_time on stock_movements (created_at);
create index stock_movements_item on stock_movements (item_id, created_at);

-- Replays of writes sent with an Idempotency-Key: same key and body, same answer.
create table http_idempotency (
  user_id text not null,
  key text not null,
  request_hash text not null,
  status integer not null,
  body text not null,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
create index http_idempotency_age on http_idempotency (created_at);
