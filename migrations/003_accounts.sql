-- Accounts projections: users, custom roles and store settings, all rebuilt from events.
-- Rows are written only by the projections in server/accounts; `version` is the stream
-- version of the last event applied, the expected version of the next command.

create table users (
  id text primary key,
  name text not null,
  email text,
  role text not null,
  status text not null default 'active',
  provider text not null,
  avatar text,
  -- 'pending' while a sign-up's Store Manager request waits for a manager.
  manager_request text,
  founder boolean not null default false,
  browser_notifications boolean not null default false,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  version integer not null
);
-- The first account of a store becomes its manager. Two first sign-ups racing both see an
-- empty store; this index lets exactly one of them commit, and the other retries as staff.
create unique index users_one_founder on users (founder) where founder;
create index users_role on users (role);

create table roles (
  id text primary key,
  name text not null,
  description text not null,
  permissions jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  version integer not null
);

-- One row once settings were first changed; until then the defaults of shared/accounts.ts apply.
create table settings (
  id integer primary key check (id = 1),
  store_name text not null,
  email text not null,
  low_stock_threshold integer not null,
  email_notifications boolean not null,
  push_notifications boolean not null,
  allow_guests boolean not null,
  updated_at timestamptz not null,
  version integer not null
);
