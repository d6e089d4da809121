// The event store's append statement with the events' times given, for filling a bench store
// with months of history in minutes. EventStore.appendBatch stamps every event with now(), so
// a store filled at bench speed would hold 90 days of changes within a few minutes; here each
// event carries the time it would have been written. Everything else is the app's own path:
// the events' insert is composed with every projection's set-based form (the first form that
// covers the batch's types, as EventStore chooses), and the handlers of projections without
// one run event by event in the same transaction, so the read tables hold what the app writes.
// tests/integration/history-bench-fill.test.ts checks a filled store against a replay.
//
// Unlike appendBatch it checks no stream versions and keeps no idempotency records: the
// caller (a bench fill) knows every stream's version and writes each event once. A batch must
// keep to one UTC day: the set-based forms, written for a group commit's events of one moment,
// book an item's whole batch to the day of its first event (see dashboard/projection.ts).
import { sql, type RawBuilder } from 'kysely';
import { toStoredEvent } from '../../server/eventstore/event-store.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import type { BatchProjection, EventMetadata, Projection } from '../../server/eventstore/types.js';

export interface BackdatedEvent {
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  data: unknown;
  /** Whole milliseconds, as the app stores event times. */
  createdAt: Date;
  /** Its id, when the caller names it (a revert's metadata cites it); else a new one. */
  eventId?: string;
  /** Metadata of its own, laid over the batch's (a revert's `reverts`). */
  metadata?: Record<string, unknown>;
}

const formsOf = (p: Projection): BatchProjection[] =>
  p.batch === undefined ? [] : Array.isArray(p.batch) ? p.batch : [p.batch];

/** The set-based forms that run for these types, and the projections whose handlers run event by event. */
function plan(projections: Projection[], types: Set<string>): { forms: BatchProjection[]; byEvent: Projection[] } {
  const forms: BatchProjection[] = [];
  const byEvent: Projection[] = [];
  for (const projection of projections) {
    const handled = [...types].filter((type) => projection.handlers[type]);
    if (handled.length === 0) continue;
    const form = formsOf(projection).find((f) => handled.every((type) => f.types.includes(type)));
    if (form) forms.push(form);
    else byEvent.push(projection);
  }
  return { forms, byEvent };
}

/** Appends `events` (in the order given, one UTC day at most) with their own times, in one transaction. */
export async function appendBackdated(
  store: EventStore,
  events: BackdatedEvent[],
  metadata: EventMetadata,
): Promise<void> {
  if (events.length === 0) return;
  const { forms, byEvent } = plan(store.projections, new Set(events.map((e) => e.type)));
  const projected: RawBuilder<unknown>[] = forms.flatMap((form) =>
    Object.entries(form.ctes).map(([name, body]) => sql`${sql.id(name)} as (${body})`),
  );
  await store.db.transaction().execute(async (trx) => {
    // A VALUES list, as appendBatch writes it: the planner then knows how many rows come (an
    // unnest of arrays is guessed at 100, and the forms' joins went quadratic at 10,000).
    const query = sql<any>`with
      input (ord, stream_id, stream_type, stream_version, type, data, created_at, event_id, metadata) as (values ${sql.join(
        events.map(
          (
            e,
            i,
          ) => sql`(${i}::int, ${e.streamId}::text, ${e.streamType}::text, ${e.streamVersion}::int, ${e.type}::text,
          ${JSON.stringify(e.data)}::jsonb, ${e.createdAt.toISOString()}::timestamptz, ${e.eventId ?? null}::uuid,
          ${e.metadata ? JSON.stringify({ ...metadata, ...e.metadata }) : null}::jsonb)`,
        ),
      )}),
      new_events as (
        insert into events (stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at)
        select stream_id, stream_type, stream_version, coalesce(event_id, gen_random_uuid()), type, data,
          coalesce(metadata, ${JSON.stringify(metadata)}::jsonb), date_trunc('milliseconds', created_at)
        from input order by ord
        returning position, tx_id, stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at)
      ${projected.length ? sql`, ${sql.join(projected)}` : sql``}
      select position, tx_id::text as tx_id, stream_id, stream_type, stream_version, event_id::text as event_id, type,
        ${byEvent.length ? sql`data, metadata` : sql`null as data, null as metadata`}, created_at
      from new_events order by position`;
    const rows = await query.execute(trx);
    if (rows.rows.length !== events.length)
      throw new Error(`backdated append wrote ${rows.rows.length} of ${events.length} events`);
    for (const row of byEvent.length ? rows.rows : []) {
      const event = toStoredEvent(row);
      for (const projection of byEvent) await projection.handlers[event.type]?.(event, trx);
    }
  });
  store.committed();
}
