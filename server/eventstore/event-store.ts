// The event store: append with optimistic concurrency and idempotency, inline projections
// in the same transaction, and reads by stream or after a gap-safe cursor.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ConflictError } from '../errors.js';
import type {
  AppendResult,
  Cursor,
  EventMetadata,
  ExpectedVersion,
  NewEvent,
  Projection,
  StoredEvent,
  StreamRef,
  Transaction,
} from './types.js';

export class WrongExpectedVersionError extends ConflictError {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | null,
  ) {
    super(`Conflict: ${streamId} is at version ${actual ?? 'unknown'}, expected ${expected}`);
  }
}

interface EventRow {
  position: number;
  tx_id: string;
  stream_id: string;
  stream_type: string;
  stream_version: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

const eventColumns = sql`position, tx_id::text as tx_id, stream_id, stream_type, stream_version,
  event_id::text as event_id, type, data, metadata, created_at`;

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    position: Number(row.position),
    txId: row.tx_id,
    streamId: row.stream_id,
    streamType: row.stream_type,
    streamVersion: row.stream_version,
    eventId: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
  };
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e?.code === '23505' && (e.constraint === constraint || !!e.message?.includes(constraint));
}

export class EventStore {
  private readonly handlers = new Map<string, Array<Projection['handlers'][string]>>();
  private readonly committedListeners = new Set<() => void>();

  constructor(
    readonly db: Kysely<DB>,
    readonly projections: Projection[] = [],
  ) {
    for (const projection of projections) {
      for (const [type, handler] of Object.entries(projection.handlers)) {
        const list = this.handlers.get(type) ?? [];
        list.push(handler);
        this.handlers.set(type, list);
      }
    }
  }

  /** Called after every commit that wrote events (the realtime feed's in-process wake-up). */
  onCommitted(listener: () => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  async append(
    stream: StreamRef,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    metadata: EventMetadata,
  ): Promise<AppendResult> {
    let result: AppendResult | undefined;
    // With 'any', losing a race for the next version number is not a conflict: try again.
    for (let attempt = 1; !result; attempt++) {
      try {
        result = await this.db.transaction().execute((trx) => this.appendIn(trx, stream, expectedVersion, events, metadata));
      } catch (error) {
        if (!isUniqueViolation(error, 'events_stream_version_unique')) throw error;
        if (expectedVersion !== 'any' || attempt >= 20) {
          throw new WrongExpectedVersionError(stream.id, expectedVersion, null);
        }
      }
    }
    if (!result.replayed && result.events.length > 0) for (const listener of this.committedListeners) listener();
    return result;
  }

  /**
   * Runs `work` in one transaction with an `append` bound to it: read state (for example
   * with `select ... for update`), decide, append, all atomically. Listeners hear after commit.
   */
  async transact<T>(
    work: (
      trx: Transaction,
      append: (stream: StreamRef, expected: ExpectedVersion, events: NewEvent[], metadata: EventMetadata) => Promise<AppendResult>,
    ) => Promise<T>,
  ): Promise<T> {
    let wrote = false;
    let result: T;
    try {
      result = await this.db.transaction().execute((trx) =>
        work(trx, async (stream, expected, events, metadata) => {
          const appended = await this.appendIn(trx, stream, expected, events, metadata);
          if (!appended.replayed && appended.events.length > 0) wrote = true;
          return appended;
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error, 'events_stream_version_unique')) {
        throw new WrongExpectedVersionError('stream', 'any', null);
      }
      throw error;
    }
    if (wrote) for (const listener of this.committedListeners) listener();
    return result;
  }

  /** Appends inside a caller's transaction (several streams in one commit). */
  async appendIn(
    trx: Transaction,
    stream: StreamRef,
    expectedVersion: ExpectedVersion,
    events: NewEvent[],
    metadata: EventMetadata,
  ): Promise<AppendResult> {
    const key = metadata.idempotencyKey;
    if (key) {
      const claimed = await sql`insert into event_idempotency (key, stream_id, result)
        values (${key}, ${stream.id}, '{}'::jsonb) on conflict (key) do nothing returning key`.execute(trx);
      if (claimed.rows.length === 0) return this.replay(trx, key);
    }
    if (events.length === 0) throw new Error('append needs at least one event');
    // One statement reads the stream's head, checks the expected version and inserts every
    // event; the unique (stream_id, stream_version) index catches a writer racing past the check.
    const expected = expectedVersion === 'any' ? null : expectedVersion;
    const rows = sql.join(
      events.map(
        (event, i) =>
          sql`(${i + 1}::int, ${randomUUID()}::uuid, ${event.type}::text, ${JSON.stringify(event.data)}::jsonb)`,
      ),
    );
    const inserted = await sql<EventRow>`with head as (
        select coalesce(max(stream_version), 0) as version from events where stream_id = ${stream.id})
      insert into events (stream_id, stream_type, stream_version, event_id, type, data, metadata)
      select ${stream.id}, ${stream.type}, head.version + e.n, e.event_id, e.type, e.data, ${JSON.stringify(metadata)}::jsonb
      from head, (values ${rows}) as e(n, event_id, type, data)
      where ${expected}::int is null or head.version = ${expected}::int
      returning ${eventColumns}`.execute(trx);
    if (inserted.rows.length === 0) {
      const head = await sql<{ version: number | null }>`select max(stream_version) as version
        from events where stream_id = ${stream.id}`.execute(trx);
      throw new WrongExpectedVersionError(stream.id, expectedVersion, head.rows[0]?.version ?? 0);
    }
    const stored = inserted.rows.map(toStoredEvent).sort((a, b) => a.streamVersion - b.streamVersion);
    for (const storedEvent of stored) await this.project(storedEvent, trx);
    const version = stored.at(-1)!.streamVersion;
    const result: AppendResult = { streamId: stream.id, version, events: stored, replayed: false };
    if (key) {
      await sql`update event_idempotency set result = ${JSON.stringify({
        streamId: stream.id,
        version,
        positions: stored.map((e) => e.position),
      })}::jsonb where key = ${key}`.execute(trx);
    }
    return result;
  }

  /** The result of an earlier append with this idempotency key, if there was one. */
  async priorResult(trx: Transaction, key: string | undefined): Promise<AppendResult | null> {
    if (!key) return null;
    const row = await sql<{ key: string }>`select key from event_idempotency where key = ${key}`.execute(trx);
    return row.rows.length ? this.replay(trx, key) : null;
  }

  private async replay(trx: Transaction, key: string): Promise<AppendResult> {
    const row = await sql<{ result: { streamId: string; version: number; positions: number[] } }>`
      select result from event_idempotency where key = ${key}`.execute(trx);
    const first = row.rows[0]!.result;
    const events = first.positions.length
      ? (await sql<EventRow>`select ${eventColumns} from events where position in (${sql.join(first.positions)})
          order by position`.execute(trx)).rows.map(toStoredEvent)
      : [];
    return { streamId: first.streamId, version: first.version, events, replayed: true };
  }

  /** Runs the registered projections for one event (also used by rebuild). */
  async project(event: StoredEvent, trx: Transaction): Promise<void> {
    for (const handler of this.handlers.get(event.type) ?? []) await handler(event, trx);
  }

  async readStream(streamId: string, options: { until?: Date } = {}): Promise<StoredEvent[]> {
    const until = options.until ? sql`and created_at <= ${options.until}` : sql``;
    const rows = await sql<EventRow>`select ${eventColumns} from events
      where stream_id = ${streamId} ${until} order by stream_version`.execute(this.db);
    return rows.rows.map(toStoredEvent);
  }

  /**
   * Events strictly after the cursor, in commit-safe order. Only transactions older than
   * every running one are read, so an event whose transaction commits late is not skipped:
   * it shows up on a later read, still after the cursor.
   */
  async readAfter(cursor: Cursor, limit = 500, db: Kysely<DB> = this.db): Promise<StoredEvent[]> {
    // ORDER BY names the table: a bare `tx_id` means the `tx_id::text` output column and
    // sorts as text, putting tx 1000 before tx 999.
    const rows = await sql<EventRow>`select ${eventColumns} from events
      where (tx_id, position) > (${cursor.txId}::xid8, ${cursor.position}::bigint)
        and tx_id < pg_snapshot_xmin(pg_current_snapshot())
      order by events.tx_id, events.position limit ${limit}`.execute(db);
    return rows.rows.map(toStoredEvent);
  }

  /** The cursor of the newest event a reader may safely have seen. */
  async headCursor(): Promise<Cursor> {
    const rows = await sql<{ tx_id: string; position: number }>`select tx_id::text as tx_id, position from events
      where tx_id < pg_snapshot_xmin(pg_current_snapshot())
      order by events.tx_id desc, events.position desc limit 1`.execute(this.db);
    const row = rows.rows[0];
    return row ? { txId: row.tx_id, position: Number(row.position) } : { txId: '0', position: 0 };
  }
}
