// A command handler for any stream whose commands come in bursts (stock adjustments), on the
// group commit (group-commit.ts): commands of a stream that arrive while a transaction for it
// is in flight go together in the next one. A batch is one transaction of two statements:
//   1. lock and load: the batch's streams' state rows, locked in id order, with what the event
//      store (the keys seen before, the time, the connection) and the hooks (batch-hooks.ts)
//      need riding along as columns;
//   2. append: every command's events, each stream at the version it was loaded at, the
//      projections' and the hooks' writes riding along as CTEs.
// In between, each command is decided in order, purely, on the state the one before left (the
// aggregate's evolve), so a rule like "no stock below 0" refuses exactly the command that
// would break it. A command that fails fails alone; if a batch fails before its commit each
// command is tried alone, and if the commit itself fails (outcome unknown) every command gets
// that error, as it would have alone (a retry with its idempotency key is safe).
import { sql, type RawBuilder } from 'kysely';
import type { Answered, BatchHook, HookUse } from './batch-hooks.js';
import { retryRace, type EventStore } from './event-store.js';
import { GroupCommitter, type Pending } from './group-commit.js';
import { backendColumn, backendIn } from './prepared-statements.js';
import type { EventMetadata, NewEvent, StreamRef, Transaction } from './types.js';

/** What the runner needs to know of an aggregate: how to load its state, decide, evolve, answer. */
export interface BatchedAggregate<Row extends { id: string }, S extends { version: number }, C, E extends NewEvent, R> {
  stream(id: string): StreamRef;
  /**
   * The statement that locks and reads the streams' state rows, in id order (so batches sharing
   * streams, on other instances too, queue instead of deadlocking), `alongside` after its
   * columns; `commands` are the batch's, for what they need read with the rows.
   */
  lock(ids: string[], alongside: RawBuilder<unknown>, commands: C[]): RawBuilder<Row>;
  /**
   * A statement run before `lock` that only takes the rows' locks, for a state read from other
   * tables too: a `for update` that waits for another writer re-reads the rows it locks, but its
   * subqueries keep the snapshot from before the wait. Locked first, `lock` reads them afresh.
   */
  prelock?(ids: string[]): RawBuilder<unknown>;
  /** The state a row holds. */
  state(row: Row): S;
  /** The refusal of a command on a stream with no row. */
  missing(): Error;
  /**
   * Pure: the command's events, on `state`, at `now` (the command's moment by the app's clock);
   * `row`: the row the state was loaded from, with what the lock read for the commands.
   */
  decide(command: C, state: S, now: Date, row: Row): E[];
  evolve(state: S | null, event: E, meta: { version: number; at: Date; streamId: string }): S | null;
  /** A command's answer: the state it left (`row`: the row it was loaded from). */
  answer(state: S, row: Row): R;
}

export interface BatchedCommand<C> {
  /** The aggregate's id: commands of one id are decided in order. */
  id: string;
  command: C;
  metadata: EventMetadata;
  /** The command's moment (the app's clock, read when it arrived). */
  now: Date;
  hooks?: HookUse[];
}

export interface BatchOptions {
  /** Transactions in flight at once (default 4). */
  lanes?: number;
  /** Most commands in one transaction (default 64). */
  maxBatch?: number;
  /** Commands waiting before a second transaction runs beside one in flight (default 8). */
  overlapAt?: number;
}

type Outcome<R> = { answer: R } | { error: unknown };

/** What a batch's transaction settled: each command's outcome, whether it wrote, what each hook hears after commit. */
interface Settled<R> {
  outcomes: Outcome<R>[];
  wrote: boolean;
  hooks: Array<{ hook: BatchHook<unknown>; answered: Array<Answered<unknown, unknown>> }>;
}

/** One stream's part of a batch: its locked row, its state as decided so far, its commands' events. */
interface StreamWork<Row, S> {
  row: Row;
  state: S | null;
  version: number;
  commands: Array<{ events: NewEvent[]; metadata: EventMetadata }>;
}

/** What the lock statement loaded: a row with its columns, the events' time, the keys used before, each stream's work. */
interface Loaded<Row, S> {
  row: object;
  at: Date;
  seen: Set<string>;
  streams: Map<string, StreamWork<Row, S>>;
}

/** The commit of a batch failed: its outcome is unknown, so it is not tried again command by command. */
class CommitFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('commit failed');
  }
}

const parseJson = <T>(value: unknown): T | undefined =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? undefined)) as T | undefined;

/** The columns the event store reads with the lock (the hooks add theirs). */
type StoreColumns = { seen_keys?: unknown; append_at?: unknown };

export class BatchedCommandHandler<
  Row extends { id: string },
  S extends { version: number },
  C,
  E extends NewEvent,
  R,
> extends GroupCommitter<BatchedCommand<C>, R> {
  constructor(
    private readonly store: EventStore,
    private readonly aggregate: BatchedAggregate<Row, S, C, E, R>,
    options: BatchOptions = {},
  ) {
    super({
      lanes: options.lanes ?? 4,
      maxBatch: options.maxBatch ?? 64,
      overlapAt: options.overlapAt ?? 8,
      maxQueued: 10_000,
      maxWaitMs: 30_000,
    });
  }

  /** Handles a command with the others of its batch; answers as the aggregate answers it. */
  handle(command: BatchedCommand<C>): Promise<R> {
    return this.submit(command.id, command);
  }

  /** Settles every command of a batch (the group commit calls it): together, or, if that fails before commit, one by one. */
  protected override async run(batch: Pending<BatchedCommand<C>, R>[]): Promise<void> {
    try {
      const outcomes = await this.together(batch.map((p) => p.command));
      outcomes.forEach((outcome, i) =>
        'error' in outcome ? batch[i]!.reject(outcome.error) : batch[i]!.resolve(outcome.answer),
      );
    } catch (error) {
      // The commit itself failed (its outcome may be unknown): every command gets that answer,
      // as each would have alone; with its idempotency key a retry is safe. Anything earlier
      // rolled back: each command is tried alone, so one bad command fails alone.
      if (error instanceof CommitFailed || batch.length === 1) {
        for (const pending of batch) pending.reject(error instanceof CommitFailed ? error.cause : error);
        return;
      }
      for (const pending of batch) {
        try {
          const [outcome] = await this.together([pending.command]);
          if ('error' in outcome!) pending.reject(outcome.error);
          else pending.resolve(outcome!.answer);
        } catch (alone) {
          pending.reject(alone instanceof CommitFailed ? alone.cause : alone);
        }
      }
    }
  }

  /** One transaction for these commands; the after-commit listeners and the hooks hear after it. */
  private async together(commands: BatchedCommand<C>[]): Promise<Outcome<R>[]> {
    let committing = false;
    let settled: Settled<R>;
    try {
      settled = await retryRace(() =>
        this.store.db.transaction().execute(async (trx) => {
          committing = false;
          const decided = await this.decideAndAppend(trx, commands);
          committing = true;
          return decided;
        }),
      );
    } catch (error) {
      if (committing) throw new CommitFailed(error);
      throw error;
    }
    if (settled.wrote) this.store.committed();
    for (const { hook, answered } of settled.hooks) hook.committed?.(answered);
    return settled.outcomes;
  }

  /** Locks and loads the streams, decides every command in order on the state the one before left, appends. */
  private async decideAndAppend(trx: Transaction, commands: BatchedCommand<C>[]): Promise<Settled<R>> {
    const hooks = hooksOf(commands);
    const loaded = await this.lockAndLoad(trx, commands, hooks);
    const outcomes = await this.decideInOrder(trx, commands, loaded);
    const answered = hooks.map(({ hook, parts }) => ({
      hook,
      answered: parts.flatMap(({ index, part }): Array<Answered<unknown, unknown>> => {
        const outcome = outcomes[index]!;
        return 'answer' in outcome ? [{ part, answer: outcome.answer }] : [];
      }),
    }));
    const wrote = await this.appendAll(trx, loaded, answered);
    return { outcomes, wrote, hooks: answered };
  }

  /**
   * Step 1, one statement: the streams' rows, locked, with what rides along: which connection
   * this is (the append runs as a statement prepared on it), the time the append stamps the
   * events with (the transaction's, to the millisecond: the answers are known before the
   * append), the idempotency keys used before, and the hooks' columns.
   */
  private async lockAndLoad(
    trx: Transaction,
    commands: BatchedCommand<C>[],
    hooks: ReturnType<typeof hooksOf>,
  ): Promise<Loaded<Row, S>> {
    const keys = [...new Set(commands.map((c) => c.metadata.idempotencyKey).filter((k): k is string => !!k))];
    const columns: RawBuilder<unknown>[] = [backendColumn, sql`date_trunc('milliseconds', now()) as append_at`];
    if (keys.length)
      columns.push(
        sql`(select coalesce(json_agg(key), '[]') from event_idempotency where key in (${sql.join(keys)})) as seen_keys`,
      );
    for (const { hook, parts } of hooks) {
      const column = hook.column?.(parts.map((p) => p.part));
      if (column) columns.push(column);
    }
    const ids = [...new Set(commands.map((c) => c.id))].sort();
    if (this.aggregate.prelock) await this.aggregate.prelock(ids).execute(trx);
    const rows = (
      await this.aggregate
        .lock(
          ids,
          sql`, ${sql.join(columns)}`,
          commands.map((c) => c.command),
        )
        .execute(trx)
    ).rows;
    const row: object & StoreColumns =
      rows[0] ?? (await sql<StoreColumns>`select ${sql.join(columns)}`.execute(trx)).rows[0]!;
    const streams = new Map<string, StreamWork<Row, S>>();
    for (const r of rows) {
      const state = this.aggregate.state(r);
      streams.set(r.id, { row: r, state, version: state.version, commands: [] });
    }
    return { row, at: timeIn(row.append_at), seen: new Set(parseJson<string[]>(row.seen_keys) ?? []), streams };
  }

  /** Step 2, no statement of its own: each command decided on the state the one before it left. */
  private async decideInOrder(
    trx: Transaction,
    commands: BatchedCommand<C>[],
    loaded: Loaded<Row, S>,
  ): Promise<Outcome<R>[]> {
    const { aggregate } = this;
    const outcomes: Outcome<R>[] = [];
    for (const command of commands) {
      try {
        let metadata = command.metadata;
        for (const { hook, part } of command.hooks ?? [])
          metadata = (await hook.before?.(part, loaded.row, trx, metadata)) ?? metadata;
        const work = loaded.streams.get(command.id);
        if (!work?.state) throw aggregate.missing();
        const key = metadata.idempotencyKey;
        // A retry of a command already made is not decided again: it answers the state as it
        // now stands. So does a command that changes nothing.
        const events =
          key && loaded.seen.has(key) ? [] : aggregate.decide(command.command, work.state, command.now, work.row);
        if (events.length) {
          work.state = fold(aggregate, work, events, loaded.at);
          work.commands.push({ events, metadata });
          if (key) loaded.seen.add(key);
        }
        outcomes.push({ answer: aggregate.answer(work.state!, work.row) });
      } catch (error) {
        outcomes.push({ error });
      }
    }
    return outcomes;
  }

  /** Step 3, one statement: every stream's events at the version it was loaded at, the hooks' writes riding along. */
  private async appendAll(trx: Transaction, loaded: Loaded<Row, S>, hooks: Settled<R>['hooks']): Promise<boolean> {
    const writes = Object.fromEntries(
      hooks.flatMap(({ hook, answered }) => (hook.write ? [[hook.name, hook.write(answered)]] : [])),
    );
    const writing = [...loaded.streams.values()].filter((w) => w.commands.length > 0);
    if (writing.length) {
      const batches = writing.map((w) => ({
        stream: this.aggregate.stream(w.row.id),
        expectedVersion: w.version,
        commands: w.commands,
      }));
      await this.store.appendBatch(trx, batches, { backend: backendIn(loaded.row), at: loaded.at, ctes: writes });
    } else if (hooks.some((h) => h.hook.write && h.answered.length)) {
      // Nothing to append (retries of commands made before), but answers to store.
      const ctes = Object.entries(writes).map(([name, body]) => sql`${sql.id(name)} as (${body})`);
      await sql`with ${sql.join(ctes)} select 1`.execute(trx);
    }
    return writing.length > 0;
  }
}

/** The state a command's events leave, folded by the aggregate's one evolve. */
function fold<Row extends { id: string }, S extends { version: number }, C, E extends NewEvent, R>(
  aggregate: BatchedAggregate<Row, S, C, E, R>,
  work: StreamWork<Row, S>,
  events: E[],
  at: Date,
): S | null {
  const streamId = aggregate.stream(work.row.id).id;
  return events.reduce<S | null>(
    (state, event) => aggregate.evolve(state, event, { version: (state?.version ?? 0) + 1, at, streamId }),
    work.state,
  );
}

/** The hooks the batch's commands use, in the order first met, each with its commands' parts. */
function hooksOf(
  commands: BatchedCommand<unknown>[],
): Array<{ hook: BatchHook<unknown>; parts: Array<{ index: number; part: unknown }> }> {
  const byHook = new Map<BatchHook<unknown>, Array<{ index: number; part: unknown }>>();
  commands.forEach((command, index) => {
    for (const { hook, part } of command.hooks ?? []) {
      const parts = byHook.get(hook) ?? [];
      parts.push({ index, part });
      byHook.set(hook, parts);
    }
  });
  return [...byHook].map(([hook, parts]) => ({ hook, parts }));
}

const timeIn = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string));
