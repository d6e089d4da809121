-- Outgoing webhooks. webhook_endpoints is a projection of the webhook-<id>
-- streams (rebuilt from events like the others). The rest is delivery state, not a
-- projection: the signing secret (never in an event, so never on the feed or in a
-- rebuild's input), each endpoint's cursor in the event log with its lease and retry
-- schedule, and the delivery log.
create table webhook_endpoints (
  id uuid primary key,
  url text not null,
  description text not null,
  event_types text[] not null,
  category_ids uuid[] not null,
  enabled boolean not null,
  disabled_reason text,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table webhook_secrets (
  endpoint_id uuid primary key,
  secret text not null
);

-- One row per endpoint: delivered everything up to (tx_id, position), the gap-safe cursor
-- of server/eventstore. lease_owner/lease_until: the one instance delivering it now (another
-- may take over once lease_until has passed). generation moves when a manager replays, so a
-- delivery in flight cannot write its older cursor back over the new one.
create table webhook_cursors (
  endpoint_id uuid primary key,
  tx_id xid8 not null,
  position bigint not null,
  generation integer not null default 0,
  lease_owner text,
  lease_until timestamptz,
  attempts integer not null default 0,
  failing_since timestamptz,
  next_attempt_at timestamptz
);

-- One row per message (webhook-id) and endpoint, updated by each attempt.
create table webhook_deliveries (
  id bigserial primary key,
  endpoint_id uuid not null,
  message_id text not null,
  event_type text not null,
  cursor text,
  test boolean not null default false,
  status text not null,
  attempts integer not null,
  response_code integer,
  latency_ms integer,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index webhook_deliveries_message on webhook_deliveries (endpoint_id, message_id);
create index webhook_deliveries_recent on webhook_deliveries (endpoint_id, id desc);
