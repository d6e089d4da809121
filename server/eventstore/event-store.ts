// The event store: append with optimistic concurrency and idempotency, inline projections
// in the same transaction, and reads by stream or after a gap-safe cursor. An append is one
// statement: the version check, the event rows, the idempotency record and, for projections
// that declare a set-based form of their handlers, their updates too (data-modifying CTEs);
// handlers without one run event by event after it, in the same transaction. The group
// commit's appends run that statement prepared (prepared-statements.ts): parsing and
// planning its many CTEs cost more than running them.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { ConflictError } from '../errors.js';
import { PreparedStatements, StatementLost } from './prepared-statements.js';
import type {
  AppendResult,
  BatchProjection,
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

/**
 * A concurrent writer committed one of the batch's idempotency keys between our check and
 * our insert. The transaction must roll back and run again: the next check sees the key.
 */
export class IdempotencyRace extends Error {
  constructor() {
    super('an idempotency key was claimed concurrently');
  }
}

/** One event of an append, as the statement reads it (a row of jsonb_to_recordset). */
interface InputRow {
  ord: number;
  stream_id: string;
  stream_type: string;
  n: number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  idem_key: string | null;
}

export interface AppendOptions {
  /**
   * The transaction's connection, as `backendColumn` read it (prepared-statements.ts): given,
   * the append runs as a statement prepared on that connection.
   */
  backend?: number;
  /**
   * More data-modifying statements to run in the append's statement, as CTEs (a caller's own
   * writes that belong to the same commit; they must not read the append's CTEs). Their text
   * must not vary with the batch if the append is to stay one prepared statement.
   */
  ctes?: Record<string, RawBuilder<unknown>>;
  /**
   * The time to stamp the events with, as the caller read the transaction's time (to the
   * millisecond) before deciding; by default the append reads it itself.
   */
  at?: Date;
}

/** One stream's part of an append: the version it must be at, and each command's events in order. */
export interface StreamBatch {
  stream: StreamRef;
  expectedVersion: ExpectedVersion;
  commands: Array<{ events: NewEvent[]; metadata: EventMetadata }>;
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

/**
 * The stream's last event was written by a transaction whose id is greater than ours.
 * Readers (the feed, a projection rebuild) order the log by (tx_id, position): appending now
 * would put our later version before the earlier one. PostgreSQL hands a transaction its id
 * when it first locks or writes, which can be while it still waits for the item's row lock,
 * so under contention a later writer can hold the older id. Nothing was written; the whole
 * transaction runs again and gets a new id, greater than the committed head's.
 */
export class StreamOrderConflict extends Error {
  constructor(streamId: string) {
    super(`stream ${streamId}: its head was written by a newer transaction`);
  }
}

/**
 * Runs `attempt` again (a few times) when it lost an idempotency or stream-order race, or
 * found its prepared statement gone, and rolled back.
 */
export async function retryRace<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const retryable =
        error instanceof IdempotencyRace || error instanceof StreamOrderConflict || error instanceof StatementLost;
      if (!retryable || i >= 20) throw error;
    }
  }
}

type HeadRow = { stream_id: string; expected: number | null };

/**
 * The append's values as VALUES lists: the planner then knows how many rows come (a large
 * import's joins went quadratic on a guessed row count). The statement's text grows with
 * the batch, so it is planned afresh each time.
 */
function valuesInputs(inputs: InputRow[], heads: HeadRow[]): RawBuilder<unknown> {
  const rows = inputs.map(
    (i) => sql`(${i.ord}::int, ${i.stream_id}::text, ${i.stream_type}::text, ${i.n}::int, ${i.event_id}::uuid,
      ${i.type}::text, ${JSON.stringify(i.data)}::jsonb, ${JSON.stringify(i.metadata)}::jsonb, ${i.idem_key}::text)`,
  );
  return sql`input (ord, stream_id, stream_type, n, event_id, type, data, metadata, idem_key) as (values ${sql.join(rows)}),
    given_heads (stream_id, expected) as (values ${sql.join(heads.map((h) => sql`(${h.stream_id}::text, ${h.expected}::int)`))})`;
}

/**
 * The append's values as two JSON documents: the statement's text is then the same whatever
 * the batch's size, as a prepared statement needs (the group commit's batches are small, so
 * the planner's guess at their row count does no harm).
 */
function jsonInputs(inputs: InputRow[], heads: HeadRow[]): RawBuilder<unknown> {
  return sql`input as (select * from jsonb_to_recordset(${JSON.stringify(inputs)}::jsonb) as i (ord int, stream_id text,
      stream_type text, n int, event_id uuid, type text, data jsonb, metadata jsonb, idem_key text)),
    given_heads as (select * from jsonb_to_recordset(${JSON.stringify(heads)}::jsonb) as h (stream_id text, expected int))`;
}

const batchForms = (projection: Projection): BatchProjection[] =>
  projection.batch === undefined ? [] : Array.isArray(projection.batch) ? projection.batch : [projection.batch];

export class EventStore {
  private readonly handlers = new Map<string, Array<Projection['handlers'][string]>>();
  private readonly committedListeners = new Set<() => void>();
  private readonly prepared = new PreparedStatements();

  constructor(
    readonly db: Kysely<DB>,
    readonly projections: Projection[] = [],
  ) {
    const cteNames = new Map<string, string>();
    for (const projection of projections) {
      for (const [type, handler] of Object.entries(projection.handlers)) {
        const list = this.handlers.get(type) ?? [];
        list.push(handler);
        this.handlers.set(type, list);
      }
      // A projection's forms never run together, so they may share names; projections may not.
      for (const name of batchForms(projection).flatMap((form) => Object.keys(form.ctes))) {
        const owner = cteNames.get(name);
        if (owner && owner !== projection.name)
          throw new Error(`projection ${projection.name}: batch CTE ${name} is already taken`);
        cteNames.set(name, projection.name);
      }
    }
  }

  /**
   * The store's one after-commit signal: called after every commit that wrote events. The
   * subscriptions module (server/subscriptions) listens to it; what runs after commit
   * subscribes there, never here.
   */
  onCommitted(listener: () => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** Raises the after-commit signal (callers that commit their own transactions call it after commit). */
  committed(): void {
    for (const listener of this.committedListeners) listener();
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
        result = await retryRace(() =>
          this.db.transaction().execute((trx) => this.appendIn(trx, stream, expectedVersion, events, metadata)),
        );
      } catch (error) {
        if (!isUniqueViolation(error, 'events_stream_version_unique')) throw error;
        if (expectedVersion !== 'any' || attempt >= 20) {
          throw new WrongExpectedVersionError(stream.id, expectedVersion, null);
        }
      }
    }
    if (!result.replayed && result.events.length > 0) this.committed();
    return result;
  }

  /**
   * Runs `work` in one transaction with an `append` bound to it: read state (for example
   * with `select ... for update`), decide, append, all atomically. Listeners hear after commit.
   * If a concurrent duplicate of an idempotency key commits meanwhile, `work` runs again.
   */
  async transact<T>(
    work: (
      trx: Transaction,
      append: (
        stream: StreamRef,
        expected: ExpectedVersion,
        events: NewEvent[],
        metadata: EventMetadata,
      ) => Promise<AppendResult>,
    ) => Promise<T>,
  ): Promise<T> {
    let wrote = false;
    let result: T;
    try {
      result = await retryRace(() =>
        this.db.transaction().execute((trx) =>
          work(trx, async (stream, expected, events, metadata) => {
            const appended = await this.appendIn(trx, stream, expected, events, metadata);
            if (!appended.replayed && appended.events.length > 0) wrote = true;
            return appended;
          }),
        ),
      );
    } catch (error) {
      if (isUniqueViolation(error, 'events_stream_version_unique')) {
        throw new WrongExpectedVersionError('stream', 'any', null);
      }
      throw error;
    }
    if (wrote) this.committed();
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
    const prior = await this.priorResult(trx, metadata.idempotencyKey);
    if (prior) return prior;
    if (events.length === 0) throw new Error('append needs at least one event');
    const [results] = await this.appendBatch(trx, [{ stream, expectedVersion, commands: [{ events, metadata }] }]);
    return results![0]!;
  }

  /**
   * Appends several commands' events, on one or more streams, in one statement inside the
   * caller's transaction: each stream's version is checked, each command's events get the
   * stream's next versions in order, each command with an idempotency key gets its record.
   * Returns each stream's commands' results, in the order given. Throws
   * WrongExpectedVersionError (nothing written) when a stream is not at its expected
   * version, and IdempotencyRace when a key was committed by someone else meanwhile (the
   * statement then fails as a whole; a caller's transaction must roll back; the keys are
   * checked beforehand by the caller).
   */
  async appendBatch(trx: Transaction, batches: StreamBatch[], options: AppendOptions = {}): Promise<AppendResult[][]> {
    const inputs: InputRow[] = [];
    const heads: HeadRow[] = [];
    const owners = new Map<string, { stream: number; command: number }>();
    const keys = new Set<string>();
    const types = new Set<string>();
    batches.forEach((batch, b) => {
      const expected = batch.expectedVersion === 'any' ? null : batch.expectedVersion;
      heads.push({ stream_id: batch.stream.id, expected });
      let n = 0;
      batch.commands.forEach((command, c) => {
        const key = command.metadata.idempotencyKey ?? null;
        if (key) keys.add(key);
        for (const event of command.events) {
          const eventId = randomUUID();
          owners.set(eventId, { stream: b, command: c });
          types.add(event.type);
          inputs.push({
            ord: inputs.length,
            stream_id: batch.stream.id,
            stream_type: batch.stream.type,
            n: ++n,
            event_id: eventId,
            type: event.type,
            data: event.data,
            metadata: command.metadata,
            idem_key: key,
          });
        }
      });
    });
    const { forms, rest } = this.batchFormsFor(types);
    const projected = [
      ...forms.flatMap((form) => Object.entries(form.ctes)),
      ...Object.entries(options.ctes ?? {}),
    ].map(([name, body]) => sql`${sql.id(name)} as (${body})`);
    // Created at whole milliseconds: handlers (and a rebuild) see event times as JavaScript
    // dates, so set-based projections must see the very same value.
    const statement = sql<EventRow & { claimed: number }>`with
      ${options.backend !== undefined ? jsonInputs(inputs, heads) : valuesInputs(inputs, heads)},
      heads as (
        select h.stream_id, h.expected,
          (select coalesce(max(e.stream_version), 0) from events e where e.stream_id = h.stream_id) as version,
          (select e.tx_id from events e where e.stream_id = h.stream_id order by e.stream_version desc limit 1) as last_tx
        from given_heads h),
      new_events as (
        insert into events (stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at)
        select i.stream_id, i.stream_type, h.version + i.n, i.event_id, i.type, i.data, i.metadata,
          ${options.at ? sql`${options.at}::timestamptz` : sql`date_trunc('milliseconds', now())`}
        from input i join heads h on h.stream_id = i.stream_id
        where not exists (select 1 from heads s where s.expected is not null and s.expected <> s.version)
          and not exists (select 1 from heads s where s.last_tx > pg_current_xact_id())
        order by i.ord
        returning position, tx_id, stream_id, stream_type, stream_version, event_id, type, data, metadata, created_at),
      claimed as (
        insert into event_idempotency (key, stream_id, result)
        select i.idem_key, min(n.stream_id), jsonb_build_object('streamId', min(n.stream_id),
          'version', max(n.stream_version), 'positions', jsonb_agg(n.position order by n.position))
        from new_events n join input i on i.event_id = n.event_id
        where i.idem_key is not null
        group by i.idem_key
        returning key)
      ${projected.length ? sql`, ${sql.join(projected)}` : sql``}
      select ${eventColumns}, (select count(*)::int from claimed) as claimed from new_events`;
    const run =
      options.backend !== undefined ? this.prepared.execute(trx, statement, options.backend) : statement.execute(trx);
    const rows = await run.catch((error: unknown) => {
      // A key committed by someone else since the caller checked: nothing was written.
      if (isUniqueViolation(error, 'event_idempotency_pkey')) throw new IdempotencyRace();
      throw error;
    });
    if (rows.rows.length === 0) await this.explainRefusedAppend(trx, batches);
    if (Number(rows.rows[0]!.claimed) !== keys.size) throw new IdempotencyRace();
    const stored = rows.rows.map(toStoredEvent).sort((a, b) => a.position - b.position);
    for (const event of stored) {
      for (const handler of rest.get(event.type) ?? []) await handler(event, trx);
    }
    const results = batches.map((batch) =>
      batch.commands.map((): AppendResult => ({ streamId: batch.stream.id, version: 0, events: [], replayed: false })),
    );
    for (const event of stored) {
      const owner = owners.get(event.eventId)!;
      const result = results[owner.stream]![owner.command]!;
      result.events.push(event);
      result.version = event.streamVersion;
    }
    return results;
  }

  /** Nothing was inserted: a stream is at another version, or its head is from a newer transaction. */
  private async explainRefusedAppend(trx: Transaction, batches: StreamBatch[]): Promise<never> {
    const ids = batches.map((b) => b.stream.id);
    const heads = await sql<{ stream_id: string; version: number; ahead: boolean }>`
      select stream_id, max(stream_version)::int as version, bool_or(tx_id > pg_current_xact_id()) as ahead
      from events where stream_id in (${sql.join(ids)}) group by stream_id`.execute(trx);
    const byStream = new Map(heads.rows.map((h) => [h.stream_id, h]));
    for (const batch of batches) {
      const head = byStream.get(batch.stream.id);
      if (batch.expectedVersion !== 'any' && batch.expectedVersion !== (head?.version ?? 0)) {
        throw new WrongExpectedVersionError(batch.stream.id, batch.expectedVersion, head?.version ?? 0);
      }
    }
    const ahead = heads.rows.find((h) => h.ahead);
    if (ahead) throw new StreamOrderConflict(ahead.stream_id);
    throw new Error('append inserted nothing, for no reason found');
  }

  /**
   * Which projections' set-based forms run in the append statement for these event types,
   * and which handlers then run event by event: a projection goes set-based only when one of
   * its forms (the first that does) covers every one of these types it handles.
   */
  private batchFormsFor(types: Set<string>): {
    forms: BatchProjection[];
    rest: Map<string, Array<Projection['handlers'][string]>>;
  } {
    const forms: BatchProjection[] = [];
    const rest = new Map<string, Array<Projection['handlers'][string]>>();
    for (const projection of this.projections) {
      const handled = [...types].filter((type) => projection.handlers[type]);
      if (handled.length === 0) continue;
      const form = batchForms(projection).find((f) => handled.every((type) => f.types.includes(type)));
      if (form) {
        forms.push(form);
        continue;
      }
      for (const type of handled) {
        const list = rest.get(type) ?? [];
        list.push(projection.handlers[type]!);
        rest.set(type, list);
      }
    }
    return { forms, rest };
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
      ? (
          await sql<EventRow>`select ${eventColumns} from events where position in (${sql.join(first.positions)})
          order by position`.execute(trx)
        ).rows.map(toStoredEvent)
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
