-- Successful webhook deliveries, one row per progress write of an endpoint's run (every
-- 200 ms or so) with its messages in arrays, in the order they were answered.
-- On an embedded (PGlite) store the delivery log is written on the app's own thread, where
-- a row per message (heap tuple, two index entries, its JSON parsed) cost ~21-25 us of it
-- per message, about a third of what delivery costs that thread; a row per write costs a
-- few us per message.
--
-- webhook_deliveries keeps everything else, a row per message updated by each attempt:
-- retries, refusals, test events, and what a replay marks to be sent again (a replay moves
-- the batches it reaches into it). So a message is in one place: a delivery whose message
-- already has a row there updates that row instead (the run knows which, cursor-store.ts).
--
-- The ids come from the same sequence as webhook_deliveries', so both read newest first
-- together. last_tx_id/last_position: the batch's furthest cursor, for the trim, the replay
-- and a new lease holder's look at what was delivered beyond the stored cursor.
create table webhook_delivered (
  id bigint not null default nextval('webhook_deliveries_id_seq'),
  endpoint_id uuid not null,
  message_ids text[] not null,
  event_types text[] not null,
  cursors text[] not null,
  response_codes integer[] not null,
  latencies_ms integer[] not null,
  last_tx_id xid8 not null,
  last_position bigint not null,
  created_at timestamptz not null default now()
);
create index webhook_delivered_recent on webhook_delivered (endpoint_id, id desc);
