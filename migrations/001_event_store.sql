-- The event store: every change is a row here; everything else is a projection of it.
create table events (
  position bigint generated always as identity primary key,
  -- The writing transaction: readers order by (tx_id, position) and only read below the
  -- oldest running transaction, so an event that commits late is never skipped.
  tx_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_type text not null,
  stream_version integer not null,
  event_id uuid not null unique,
  type text not null,
  data jsonb not null,
  metadata jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  constraint events_stream_version_unique unique (stream_id, stream_version)
);
create index events_tx_position on events (tx_id, position);
create index events_stream_type on events (stream_type, position);

-- One row per idempotency key given to append: a repeat returns this result and writes nothing.
create table event_idempotency (
  key text primary key,
  stream_id text not null,
  result jsonb not null,
  created_at timestamptz not null default now()
);
