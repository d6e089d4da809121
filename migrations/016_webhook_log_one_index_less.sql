-- The webhook delivery log is written for every message delivered, and on an
-- embedded (PGlite) store that write runs on the app's own thread: each index is one more
-- B-tree insert per message (~5 us of that thread each, measured on PGlite). Nothing looks a
-- row up by its id alone: every read and the trim go by endpoint, newest first
-- (webhook_deliveries_recent), and the upsert by (endpoint_id, message_id). The id stays,
-- unique by its sequence, as the rows' order.
alter table webhook_deliveries drop constraint if exists webhook_deliveries_pkey;
