// Item commands: lock the item's row, decide, append with the expected version, all in one
// transaction. The row lock makes concurrent adjustments queue instead of conflicting.
// Stock adjustments, the busiest command, go through a group commit (eventstore/group-commit.ts):
// those that arrive while their item's transaction is in flight are decided one after the
// other on the state the previous one left, and written together.
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { AdjustStockBody, CreateItemBody, Item, UpdateItemBody } from '../../shared/inventory.js';
import { itemStream, type InventoryEvent, type ItemFields } from '../../shared/inventory-events.js';
import { actorOf, type Principal } from '../auth/principal.js';
import { stampColumns, type PrincipalCheck } from '../auth/principal-check.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUniqueViolation, retryRace, type EventStore } from '../eventstore/event-store.js';
import { GroupCommitter, type Pending } from '../eventstore/group-commit.js';
import { backendColumn, backendIn } from '../eventstore/prepared-statements.js';
import type { EventMetadata, NewEvent, Transaction } from '../eventstore/types.js';
import { adjustmentMoment, adjustStock, createItem, deleteItem, updateItem, type AdjustStock } from './decide.js';
import { itemColumns, rowToState, toItem, type ItemRow } from './item-rows.js';
import type { ItemQueries } from './item-queries.js';
import type { ItemState } from './item-state.js';
import { freshAnswer, keepAnswer, type StoredAnswer } from '../http/idempotency.js';

async function lockItem(trx: Transaction, id: string): Promise<ItemRow | null> {
  // First, before anything gives this transaction its id: writers of one item queue here
  // with no id yet, so each gets one after the writer before it committed, and the log's
  // (tx_id, position) order follows the item's versions (see StreamOrderConflict).
  await sql`select pg_advisory_xact_lock(hashtextextended(${itemStream(id).id}, 0))`.execute(trx);
  const rows = await sql<ItemRow>`select ${sql.raw(itemColumns)} from items where id = ${id} for update`.execute(trx);
  return rows.rows[0] ?? null;
}

/**
 * Locks the categories an item write touches, in id order, before anything else: the
 * projection updates their item counts, so taking those locks first (and always in the
 * same order) keeps concurrent writes queueing instead of deadlocking, and keeps a
 * category from being deleted while an item moves in.
 */
async function lockCategories(trx: Transaction, ids: string[]): Promise<Set<string>> {
  const sorted = [...new Set(ids)].sort();
  const rows = await sql<{ id: string }>`select id from categories where id in (${sql.join(sorted)})
    order by id for update`.execute(trx);
  return new Set(rows.rows.map((r) => r.id));
}

async function requireCategory(trx: Transaction, id: string): Promise<void> {
  if (!(await lockCategories(trx, [id])).has(id)) throw new ValidationError('category_id: Category not found', 'category_id');
}

async function requireFreeSku(trx: Transaction, sku: string, exceptId: string | null): Promise<void> {
  const rows = await sql`select id from items where lower(sku) = lower(${sku.trim()}) and id is distinct from ${exceptId}`.execute(trx);
  if (rows.rows.length) throw new ConflictError('SKU already exists', { field: 'sku' });
}

/**
 * A barcode names one item in the store: a scan must never have two answers. Checked here
 * for a message that names the item; the unique index catches the race of two writers.
 */
async function requireFreeBarcode(trx: Transaction, barcode: string | null | undefined, exceptId: string | null): Promise<void> {
  const code = barcode?.trim();
  if (!code) return;
  const rows = await sql<{ name: string }>`select name from items where barcode = ${code} and id is distinct from ${exceptId}`.execute(trx);
  if (rows.rows[0]) throw new ConflictError(`Barcode already used by ${rows.rows[0].name}`, { field: 'barcode' });
}

function mapConstraintErrors(error: unknown): never {
  if (isUniqueViolation(error, 'items_sku_unique')) throw new ConflictError('SKU already exists', { field: 'sku' });
  if (isUniqueViolation(error, 'items_barcode_unique')) throw new ConflictError('Barcode already used by another item', { field: 'barcode' });
  throw error;
}

const fieldsFromBody = (body: UpdateItemBody): Partial<ItemFields> => ({
  name: body.name,
  description: body.description,
  sku: body.sku,
  categoryId: body.category_id,
  quantity: body.quantity,
  price: body.price,
  threshold: body.threshold,
  imageUrl: body.image_url,
  expiryDate: body.expiry_date,
  barcode: body.barcode,
});

/**
 * An HTTP request's Idempotency-Key whose stored answer the batch looks up, and whose answer
 * it stores, itself (server/http/idempotency.ts, `idempotency: 'by-handler'`).
 */
export interface AnswerKey {
  userId: string;
  key: string;
  hash: string;
  /** Called once the answer is stored. */
  recorded(): void;
}

/** An adjustment's answer: the item it left, or the answer stored for its Idempotency-Key. */
export type AdjustAnswer = { item: Item } | { replay: StoredAnswer };

interface AdjustCommand {
  itemId: string;
  adjust: AdjustStock;
  meta: EventMetadata;
  check?: PrincipalCheck;
  answer?: AnswerKey;
}

type AdjustOutcome = AdjustAnswer | { error: unknown };

/** What the lock statement reports besides the rows (see decideAdjustments). */
type Alongside = Record<string, unknown> & { seen_keys?: unknown; stored_answers?: unknown; batch_at?: unknown };

/** One item's part of a batch: its locked row, its state as decided so far, its commands' events. */
interface StreamWork {
  row: ItemRow;
  state: ItemState;
  commands: Array<{ events: NewEvent[]; metadata: EventMetadata }>;
}

const eventsSoFar = (work: StreamWork) => work.commands.reduce((n, c) => n + c.events.length, 0);

/** The state an adjustment's events leave (quantity; the rest of an item does not change). */
function foldAdjustment(state: ItemState, events: InventoryEvent[]): ItemState {
  const adjusted = events.find((e) => e.type === 'StockAdjusted');
  return { ...state, quantity: adjusted ? adjusted.data.quantity : state.quantity, version: state.version + events.length };
}

const parseJson = <T>(value: unknown): T | undefined => (typeof value === 'string' ? JSON.parse(value) : (value ?? undefined)) as T | undefined;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The batch's time, as the lock statement read it (`batch_at`). */
function batchAtIn(report: Alongside | undefined): Date {
  const value = report?.batch_at;
  return value instanceof Date ? value : new Date(value as string);
}

/**
 * Stores answers (a JSON list of user_id, key, request_hash, body) as status 200; a key
 * answered meanwhile keeps its answer, one whose answer expired (not swept yet) gets this one.
 * One row per key: an update on conflict may not meet a row its own statement inserted (two
 * requests with one key in a batch both have an answer).
 */
const storeAnswers = (rows: string, keepHours: number) => sql`insert into http_idempotency (user_id, key, request_hash, status, body)
  select distinct on (a.user_id, a.key) a.user_id, a.key, a.request_hash, 200, a.body
  from jsonb_to_recordset(${rows}::jsonb) as a (user_id text, key text, request_hash text, body text)
  order by a.user_id, a.key
  ${keepAnswer(keepHours)}`;

/** The commit of a batch failed: its outcome is unknown, so it is not tried again command by command. */
class CommitFailed extends Error {
  constructor(override readonly cause: unknown) {
    super('commit failed');
  }
}

export interface ItemServiceOptions {
  /** Adjustment transactions in flight at once (default 4; 1 on PGlite). */
  lanes?: number;
  /** Most adjustments in one transaction (default 64). */
  maxBatch?: number;
  /** Adjustments waiting before a second transaction runs beside one in flight (default 8). */
  overlapAt?: number;
  /** Hours a stored answer to an Idempotency-Key is replayed (config.idempotency.keepHours; default 48, as there). */
  answerKeepHours?: number;
}

export class ItemService {
  private readonly adjustments: GroupCommitter<AdjustCommand, AdjustAnswer>;
  private readonly answerKeepHours: number;

  constructor(
    private readonly store: EventStore,
    private readonly queries: ItemQueries,
    options: ItemServiceOptions = {},
  ) {
    this.answerKeepHours = options.answerKeepHours ?? 48;
    this.adjustments = new GroupCommitter({
      lanes: options.lanes ?? 4,
      maxBatch: options.maxBatch ?? 64,
      overlapAt: options.overlapAt ?? 8,
      maxQueued: 10_000,
      maxWaitMs: 30_000,
      run: (batch) => this.runAdjustments(batch),
    });
  }

  async create(body: CreateItemBody, meta: EventMetadata): Promise<Item> {
    const itemId = randomUUID();
    const streamId = await this.store
      .transact(async (trx, append) => {
        await requireCategory(trx, body.category_id);
        // After the lock: a duplicate of a create still in flight waits for it, then replays it.
        const prior = await this.store.priorResult(trx, meta.idempotencyKey);
        if (prior) return prior.streamId;
        await requireFreeSku(trx, body.sku, null);
        await requireFreeBarcode(trx, body.barcode, null);
        const fields: ItemFields = {
          name: body.name,
          description: body.description ?? '',
          sku: body.sku,
          categoryId: body.category_id,
          quantity: body.quantity,
          price: body.price,
          threshold: body.threshold,
          imageUrl: body.image_url ?? null,
          expiryDate: body.expiry_date ?? null,
          barcode: body.barcode ?? null,
        };
        return (await append(itemStream(itemId), 0, createItem({ itemId, fields }, null), meta)).streamId;
      })
      .catch(mapConstraintErrors);
    return this.queries.require(streamId.slice('item-'.length));
  }

  async update(id: string, body: UpdateItemBody, expectedVersion: number | undefined, meta: EventMetadata): Promise<Item> {
    await this.store
      .transact(async (trx, append) => {
        const row = await lockItem(trx, id);
        if (await this.store.priorResult(trx, meta.idempotencyKey)) return;
        if (!row) throw new NotFoundError('Item not found');
        if (expectedVersion !== undefined && expectedVersion !== Number(row.version)) {
          throw new ConflictError('This item was changed by someone else', { current: toItem(row) });
        }
        if (body.category_id !== undefined && body.category_id !== row.category_id) {
          const found = await lockCategories(trx, [row.category_id, body.category_id]);
          if (!found.has(body.category_id)) throw new ValidationError('category_id: Category not found', 'category_id');
        }
        if (body.sku !== undefined) await requireFreeSku(trx, body.sku, id);
        await requireFreeBarcode(trx, body.barcode, id);
        const events = updateItem({ changes: fieldsFromBody(body) }, rowToState(row));
        if (events.length) await append(itemStream(id), Number(row.version), events, meta);
      })
      .catch(mapConstraintErrors);
    return this.queries.require(id);
  }

  /**
   * Adjusts stock; answers the item as this adjustment left it. `check` settles a cached
   * principal inside the transaction, before anything is decided (principal-check.ts).
   */
  async adjust(id: string, body: AdjustStockBody, meta: EventMetadata, check?: PrincipalCheck): Promise<Item> {
    const answer = await this.adjustAnswering(id, body, meta, check);
    if (!('item' in answer)) throw new Error('no stored answers without an AnswerKey');
    return answer.item;
  }

  /** adjust, for an HTTP request whose Idempotency-Key the batch handles (`answer`). */
  adjustAnswering(id: string, body: AdjustStockBody, meta: EventMetadata, check?: PrincipalCheck, answer?: AnswerKey): Promise<AdjustAnswer> {
    const occurredAt = adjustmentMoment(body.occurredAt, new Date());
    const adjust: AdjustStock = { delta: body.delta, reason: body.reason, note: body.note?.trim() || null, occurredAt };
    return this.adjustments.submit(id, { itemId: id, adjust, meta, check, answer });
  }

  /** Settles every command of a batch: together, or, if that fails before commit, one by one. */
  private async runAdjustments(batch: Pending<AdjustCommand, AdjustAnswer>[]): Promise<void> {
    try {
      const outcomes = await this.adjustTogether(batch.map((p) => p.command));
      outcomes.forEach((outcome, i) => ('error' in outcome ? batch[i]!.reject(outcome.error) : batch[i]!.resolve(outcome)));
    } catch (error) {
      // The commit itself failed (its outcome may be unknown): every command gets that answer,
      // as each would have alone; with its Idempotency-Key a retry is safe. Anything earlier
      // rolled back: each command is tried alone, so one bad command fails alone.
      if (error instanceof CommitFailed || batch.length === 1) {
        for (const pending of batch) pending.reject(error instanceof CommitFailed ? error.cause : error);
        return;
      }
      for (const pending of batch) {
        try {
          const [outcome] = await this.adjustTogether([pending.command]);
          if ('error' in outcome!) pending.reject(outcome.error);
          else pending.resolve(outcome!);
        } catch (alone) {
          pending.reject(alone instanceof CommitFailed ? alone.cause : alone);
        }
      }
    }
  }

  /**
   * The answers to store for the batch's requests that carry an Idempotency-Key: written in
   * the batch's own transaction (in its append statement when it writes), so an answer is
   * stored exactly when its change commits, at no statement or commit of its own. Sorted by
   * key, so concurrent batches wait for each other's keys in the same order.
   */
  private answersOf(commands: AdjustCommand[], outcomes: AdjustOutcome[]): Array<{ answer: AnswerKey; body: string }> {
    return commands
      .flatMap((command, i) => {
        const outcome = outcomes[i]!;
        return command.answer && 'item' in outcome ? [{ answer: command.answer, body: JSON.stringify(outcome.item) }] : [];
      })
      .sort((a, b) => (a.answer.userId === b.answer.userId ? cmp(a.answer.key, b.answer.key) : cmp(a.answer.userId, b.answer.userId)));
  }

  /**
   * One transaction for a batch: one statement that locks the items (with the keys seen
   * before, the stored answers and the cached principals' stamps riding along), one statement
   * that appends every event, writes the idempotency records and the projections, one commit.
   */
  private async adjustTogether(commands: AdjustCommand[]): Promise<AdjustOutcome[]> {
    let committing = false;
    let wrote = false;
    let recorded: AnswerKey[] = [];
    let outcomes: AdjustOutcome[];
    try {
      outcomes = await retryRace(() =>
        this.store.db.transaction().execute(async (trx) => {
          committing = false;
          const decided = await this.decideAdjustments(trx, commands);
          wrote = decided.wrote;
          recorded = decided.recorded;
          committing = true;
          return decided.outcomes;
        }),
      );
    } catch (error) {
      if (committing) throw new CommitFailed(error);
      throw error;
    }
    if (wrote) this.store.committed();
    for (const answer of recorded) answer.recorded();
    return outcomes;
  }

  /** Locks the items, decides every command in order on the state the one before left, appends. */
  private async decideAdjustments(
    trx: Transaction,
    commands: AdjustCommand[],
  ): Promise<{ outcomes: AdjustOutcome[]; wrote: boolean; recorded: AnswerKey[] }> {
    const ids = [...new Set(commands.map((c) => c.itemId))].sort();
    const keys = [...new Set(commands.map((c) => c.meta.idempotencyKey).filter((k): k is string => !!k))];
    const cached = commands.map((c) => c.check?.principal).filter((p): p is Principal => !!p?.tentative);
    // Riding along with the lock: which keys were used before, the cached principals' stamps,
    // and which connection this is (the append runs as a statement prepared on it).
    // The events' time (the append stamps them with the transaction's start, to the
    // millisecond), so the answers are known, and stored, before the append.
    const alongside: RawBuilder<unknown>[] = [backendColumn, sql`date_trunc('milliseconds', now()) as batch_at`];
    if (keys.length) alongside.push(sql`(select coalesce(json_agg(key), '[]') from event_idempotency where key in (${sql.join(keys)})) as seen_keys`);
    if (cached.length) alongside.push(stampColumns(cached));
    const answerKeys = commands.flatMap((c) => (c.answer ? [sql`(${c.answer.userId}, ${c.answer.key})`] : []));
    if (answerKeys.length) {
      alongside.push(sql`(select coalesce(json_agg(json_build_array(user_id, key, request_hash, status, body)), '[]')
        from http_idempotency where (user_id, key) in (${sql.join(answerKeys)}) and ${freshAnswer(this.answerKeepHours)}) as stored_answers`);
    }
    const extra = alongside.length ? sql`, ${sql.join(alongside)}` : sql``;
    // Locked in id order, so batches sharing items (on other instances) queue instead of deadlocking.
    const locked = await sql<ItemRow & Alongside>`select ${sql.raw(itemColumns)} ${extra} from items
      where id in (${sql.join(ids)}) order by id for update`.execute(trx);
    let report: Alongside | undefined = locked.rows[0];
    if (!report && alongside.length) report = (await sql<Alongside>`select ${sql.join(alongside)}`.execute(trx)).rows[0];
    const seen = new Set(parseJson<string[]>(report?.seen_keys) ?? []);
    const stored = new Map(
      (parseJson<Array<[string, string, string, number, string]>>(report?.stored_answers) ?? []).map(
        ([userId, key, hash, status, body]) => [JSON.stringify([userId, key]), { request_hash: hash, status, body }] as const,
      ),
    );

    const streams = new Map<string, StreamWork>();
    for (const row of locked.rows) {
      streams.set(row.id, { row, state: rowToState(row), commands: [] });
    }
    const decided: Array<
      { error: unknown } | { replay: StoredAnswer } | { stream: StreamWork; quantity: number; events: number; command: number | null }
    > = [];
    for (const command of commands) {
      try {
        let meta = command.meta;
        if (command.check) meta = { ...meta, actor: actorOf(await command.check.confirm(report, trx)) };
        const prior = command.answer && stored.get(JSON.stringify([command.answer.userId, command.answer.key]));
        if (prior) {
          // Answered before: the stored answer goes back as it was (or 422 for another request).
          decided.push({ replay: prior });
          continue;
        }
        const work = streams.get(command.itemId);
        const key = meta.idempotencyKey;
        if (key && seen.has(key)) {
          // A retry of an adjustment already made: nothing new, the item as it now stands.
          if (!work) throw new NotFoundError('Item not found');
          decided.push({ stream: work, quantity: work.state.quantity, events: eventsSoFar(work), command: null });
          continue;
        }
        if (!work) throw new NotFoundError('Item not found');
        const events = adjustStock(command.adjust, work.state);
        work.state = foldAdjustment(work.state, events);
        work.commands.push({ events, metadata: meta });
        if (key) seen.add(key);
        decided.push({ stream: work, quantity: work.state.quantity, events: eventsSoFar(work), command: work.commands.length - 1 });
      } catch (error) {
        decided.push({ error });
      }
    }

    const writing = [...streams.values()].filter((w) => w.commands.length > 0);
    const at = batchAtIn(report);
    const outcomes = decided.map((d): AdjustOutcome => {
      if ('error' in d || 'replay' in d) return d;
      const { row } = d.stream;
      return {
        item: toItem({
          ...row,
          quantity: d.quantity,
          version: Number(row.version) + d.events,
          updated_at: d.events > 0 ? at : row.updated_at,
        }),
      };
    });
    const answers = this.answersOf(commands, outcomes);
    const rows = JSON.stringify(answers.map(({ answer, body }) => ({ user_id: answer.userId, key: answer.key, request_hash: answer.hash, body })));
    if (writing.length) {
      const batches = writing.map((w) => ({ stream: itemStream(w.row.id), expectedVersion: Number(w.row.version), commands: w.commands }));
      // The answers ride in the append (always, an empty list when none: the statement's text stays one).
      const appended = await this.store.appendBatch(trx, batches, { backend: backendIn(report), ctes: { adjust_answers: storeAnswers(rows, this.answerKeepHours) } });
      if (appended[0]![0]!.events[0]!.createdAt.getTime() !== at.getTime()) throw new Error('events stamped with another time than the batch read');
    } else if (answers.length) {
      // Nothing to append (retries of adjustments made before whose answers were not stored).
      await sql`with ${sql.id('adjust_answers')} as (${storeAnswers(rows, this.answerKeepHours)}) select 1`.execute(trx);
    }
    return { outcomes, wrote: writing.length > 0, recorded: answers.map((a) => a.answer) };
  }

  async delete(id: string, expectedVersion: number | undefined, meta: EventMetadata): Promise<void> {
    await this.store.transact(async (trx, append) => {
      const row = await lockItem(trx, id);
      if (await this.store.priorResult(trx, meta.idempotencyKey)) return;
      if (!row) throw new NotFoundError('Item not found');
      if (expectedVersion !== undefined && expectedVersion !== Number(row.version)) {
        throw new ConflictError('This item was changed by someone else', { current: toItem(row) });
      }
      // The category's count changes too: lock it the same way creates do.
      await lockCategories(trx, [row.category_id]);
      await append(itemStream(id), Number(row.version), deleteItem(rowToState(row)), meta);
    });
  }
}
