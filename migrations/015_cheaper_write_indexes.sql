-- Fewer index writes on the hot write path. Every event and every keyed write
-- paid for these; no read needs them in this shape.
--
-- events (stream_type, position): no statement selects events by stream type (readers go by
-- stream and version, by (tx_id, position) after a cursor, or by position); it was one more
-- B-tree insert per event.
drop index if exists events_stream_type;

-- http_idempotency (created_at) is only read by the sweep of answers older than 48 hours.
-- Rows arrive in time order, so a BRIN index (one summary per range of pages) serves that
-- range scan at almost no cost per insert, where the B-tree took an insert per keyed write.
drop index if exists http_idempotency_age;
create index http_idempotency_age on http_idempotency using brin (created_at);
