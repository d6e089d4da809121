// Reading the delivery log's batches (migration 017, `webhook_delivered`): a batch row holds
// the messages of one progress write in parallel arrays, and this turns the batch `b` into
// one row per message, `u`, numbered `n` in the order they were answered. The delivery
// log listing and a replay (which turns batches back into rows of their own) both read
// batches this way.
import { sql } from 'kysely';

/** `unnest(...) with ordinality as u (message_id, event_type, cursor, response_code, latency_ms, n)` over batch `b`. */
export const batchMessages = sql`unnest(b.message_ids, b.event_types, b.cursors, b.response_codes, b.latencies_ms)
  with ordinality as u (message_id, event_type, cursor, response_code, latency_ms, n)`;
