// Stocktake commands: start a session, record a count, approve lines (or all). Each runs in
// one transaction that locks the session first, so counts and approvals of one session queue;
// an approval also locks the items it posts to (as item commands do: advisory lock, then the
// row, in id order) and appends the session's event and the items' `count` adjustments in
// one statement, so the session never says "approved" without the stock having moved. A
// count's difference is posted at the default location of the approver's site.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { itemStream } from '../../shared/inventory-events.js';
import {
  stocktakeStream,
  type StartStocktakeBody,
  type StocktakeCount,
  type SubmitCountBody,
} from '../../shared/stocktake.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { retryRace, type EventStore, type StreamBatch } from '../eventstore/event-store.js';
import type { EventMetadata, StoredEvent, Transaction } from '../eventstore/types.js';
import { adjustStock } from '../inventory/decide.js';
import { itemStateColumns, rowToState, type ItemRow } from '../inventory/item-rows.js';
import { loadPlaces, siteOfCaller } from '../inventory/places-sql.js';
import { placeOf } from '../inventory/stock-places.js';
import {
  approveLines,
  closeStocktake,
  countStock,
  linesApproved,
  linesForApproveAll,
  startStocktake,
  type LineToApprove,
  type PostedLine,
  type SessionState,
} from './decide.js';
import type { StocktakeQueries } from './stocktake-queries.js';

const lockStream = (trx: Transaction, streamId: string) =>
  sql`select pg_advisory_xact_lock(hashtextextended(${streamId}, 0))`.execute(trx);

/**
 * What a stocktake's adjustment says in the item's history (seen live by every inventory
 * viewer): the count and its moment, not the expected quantity (staff count blind).
 */
const adjustmentNote = (name: string, line: PostedLine) =>
  `Stocktake ${name}: counted ${line.counted} at ${line.countedAt}`;

function toCount(event: StoredEvent, expected: number | null = null): StocktakeCount {
  const d = event.data as SubmitCountBody;
  return {
    id: event.eventId,
    itemId: d.itemId,
    counted: d.counted,
    countedAt: d.countedAt,
    countedBy: event.metadata.actor.name,
    expected,
    difference: expected === null ? null : d.counted - expected,
  };
}

/** A several-category count's default name: the names while they fit, else how many. */
function categoriesName(names: string[]): string {
  const listed = `Count: ${names.join(', ')}`;
  return listed.length <= 100 ? listed : `Count: ${names.length} categories`;
}

export class StocktakeService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: StocktakeQueries,
  ) {}

  /** Starts a session; answers its id. The items to count are fixed now. */
  async start(body: StartStocktakeBody, meta: EventMetadata): Promise<string> {
    const stocktakeId = randomUUID();
    return this.store.transact(async (trx, append) => {
      const prior = await this.store.priorResult(trx, meta.idempotencyKey);
      if (prior) return prior.streamId.slice('stocktake-'.length);
      const { itemIds, name } = await this.scopeOf(trx, body);
      const events = startStocktake({
        stocktakeId,
        name: body.name?.trim() || name,
        scope: body.scope,
        categoryId: body.categoryId ?? null,
        ...(body.categoryIds ? { categoryIds: body.categoryIds } : {}),
        itemIds,
      });
      await append(stocktakeStream(stocktakeId), 0, events, meta);
      return stocktakeId;
    });
  }

  /** The items a scope names, in name order, and the session's default name. */
  private async scopeOf(trx: Transaction, body: StartStocktakeBody): Promise<{ itemIds: string[]; name: string }> {
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    switch (body.scope) {
      case 'category': {
        if (!body.categoryId || body.itemIds || body.categoryIds)
          throw new ValidationError('A category count needs categoryId (and no itemIds)');
        const category = await sql<{ name: string }>`select name from categories where id = ${body.categoryId}`.execute(
          trx,
        );
        if (!category.rows[0]) throw new ValidationError('categoryId: Category not found');
        const items = await sql<{
          id: string;
        }>`select id from items where category_id = ${body.categoryId} order by lower(name), id`.execute(trx);
        return { itemIds: ids(items.rows), name: `Count: ${category.rows[0].name}` };
      }
      case 'categories': {
        if (!body.categoryIds?.length || body.categoryId || body.itemIds) {
          throw new ValidationError('A count of several categories needs categoryIds (and no categoryId or itemIds)');
        }
        const categories = await sql<{ id: string; name: string }>`select id, name from categories
          where id in (${sql.join(body.categoryIds)}) order by lower(name), id`.execute(trx);
        if (categories.rows.length !== new Set(body.categoryIds).size)
          throw new ValidationError('categoryIds: Category not found');
        const items = await sql<{
          id: string;
        }>`select id from items where category_id in (${sql.join(body.categoryIds)})
          order by lower(category_name), lower(name), id`.execute(trx);
        return { itemIds: ids(items.rows), name: categoriesName(categories.rows.map((c) => c.name)) };
      }
      case 'low-stock': {
        if (body.categoryId || body.categoryIds || body.itemIds)
          throw new ValidationError('A low-stock count takes no categoryId, categoryIds or itemIds');
        // Low as the alerts say it (shared isLowStock): at or below the threshold, now.
        const items = await sql<{ id: string }>`select id from items where quantity <= threshold
          order by lower(category_name), lower(name), id`.execute(trx);
        return { itemIds: ids(items.rows), name: 'Count: low stock' };
      }
      case 'items': {
        if (!body.itemIds?.length || body.categoryId || body.categoryIds)
          throw new ValidationError('An items count needs itemIds (and no categoryId)');
        const items = await sql<{
          id: string;
        }>`select id from items where id in (${sql.join(body.itemIds)}) order by lower(name), id`.execute(trx);
        if (items.rows.length !== new Set(body.itemIds).size) throw new ValidationError('itemIds: Item not found');
        return {
          itemIds: ids(items.rows),
          name: `Count: ${items.rows.length} ${items.rows.length === 1 ? 'item' : 'items'}`,
        };
      }
      case 'store': {
        if (body.categoryId || body.categoryIds || body.itemIds)
          throw new ValidationError('A whole-store count takes no categoryId or itemIds');
        const items = await sql<{
          id: string;
        }>`select id from items order by lower(category_name), lower(name), id`.execute(trx);
        return { itemIds: ids(items.rows), name: 'Count: whole store' };
      }
    }
  }

  /** Records a count; a repeat of its idempotency key answers the first count and writes nothing. */
  async count(
    id: string,
    body: SubmitCountBody,
    meta: EventMetadata,
    now: () => Date = () => new Date(),
  ): Promise<StocktakeCount> {
    return this.store.transact(async (trx, append) => {
      await lockStream(trx, stocktakeStream(id).id);
      const prior = await this.store.priorResult(trx, meta.idempotencyKey);
      if (prior?.events[0]) return toCount(prior.events[0]);
      const state = await this.queries.state(trx, id);
      if (!state) throw new NotFoundError('Stocktake not found');
      const events = countStock(
        { itemId: body.itemId, counted: body.counted, countedAt: new Date(body.countedAt) },
        state,
        now(),
      );
      const appended = await append(stocktakeStream(id), 'any', events, meta);
      return toCount(appended.events[0]!);
    });
  }

  /** Approves one line (`countId` picks a count when they disagree). */
  async approveLine(
    id: string,
    itemId: string,
    countId: string | undefined,
    meta: EventMetadata,
    siteId = siteOfCaller(),
  ): Promise<void> {
    await this.approve(id, meta, siteId, async (trx, state) => {
      if (!state.lines.has(itemId)) throw new NotFoundError('This item is not part of this stocktake');
      const [line] = await this.queries.linesToApprove(trx, id, [itemId]);
      return { lines: [{ ...line!, countId }], close: false };
    });
  }

  /** Approves every counted line and closes the session. */
  async approveAll(id: string, meta: EventMetadata, siteId = siteOfCaller()): Promise<void> {
    await this.approve(id, meta, siteId, async (trx, state) => ({
      lines: linesForApproveAll(await this.queries.linesToApprove(trx, id), state),
      close: true,
    }));
  }

  private async approve(
    id: string,
    meta: EventMetadata,
    siteId: string,
    pick: (trx: Transaction, state: SessionState) => Promise<{ lines: LineToApprove[]; close: boolean }>,
  ): Promise<void> {
    let wrote = false;
    await retryRace(() =>
      this.store.db.transaction().execute(async (trx) => {
        wrote = false;
        const stream = stocktakeStream(id);
        await lockStream(trx, stream.id);
        if (await this.store.priorResult(trx, meta.idempotencyKey)) return;
        const session = await this.queries.state(trx, id);
        if (!session) throw new NotFoundError('Stocktake not found');
        const { lines, close } = await pick(trx, session);
        const approved = approveLines(lines, session);
        const moving = approved.filter((l) => l.delta !== 0);
        const adjustmentVersions = new Map<string, number>();
        const items = await this.lockItems(
          trx,
          moving.map((l) => l.itemId),
        );
        const place = moving.length
          ? placeOf(await loadPlaces(trx, [], [siteId]), undefined, siteId, 'location')
          : undefined;
        const batches: StreamBatch[] = moving.map((line) => {
          const name = lines.find((l) => l.itemId === line.itemId)?.name ?? 'An item';
          const row = items.get(line.itemId);
          if (!row) throw new ConflictError(`${name} no longer exists`);
          const note = adjustmentNote(session.name, line);
          const state = rowToState(row);
          const there = state.levels[place!.id] ?? 0;
          if (there + line.delta < 0) {
            // Said as before places where the item is at that one location only.
            const elsewhere = there !== state.quantity;
            throw new ConflictError(
              elsewhere
                ? `Posting the count of ${name} would take its stock at ${place!.name} below 0 (it has ${there} there now)`
                : `Posting the count of ${name} would take its stock below 0 (it is ${row.quantity} now)`,
            );
          }
          const adjustment = adjustStock(
            { delta: line.delta, reason: 'count', note, locationId: place!.id },
            state,
            place,
          );
          // StockAdjusted comes first among the adjustment's events: the stream's next version.
          adjustmentVersions.set(line.itemId, Number(row.version) + 1);
          // The approver posts it (the actor); the count stays its counter's.
          const metadata: EventMetadata = { ...meta, countedBy: line.countedBy };
          return {
            stream: itemStream(line.itemId),
            expectedVersion: Number(row.version),
            commands: [{ events: adjustment, metadata }],
          };
        });
        const events = linesApproved(approved, adjustmentVersions);
        const sessionEvents = [...events, ...(close ? closeStocktake(session, approved.length) : [])];
        if (sessionEvents.length)
          batches.push({ stream, expectedVersion: 'any', commands: [{ events: sessionEvents, metadata: meta }] });
        if (batches.length === 0) return;
        await this.store.appendBatch(trx, batches);
        wrote = true;
      }),
    );
    if (wrote) this.store.committed();
  }

  /** Locks the items as item commands do (advisory lock first, then the rows, in id order). */
  private async lockItems(trx: Transaction, ids: string[]): Promise<Map<string, ItemRow>> {
    const sorted = [...new Set(ids)].sort();
    if (sorted.length === 0) return new Map();
    for (const id of sorted) await lockStream(trx, itemStream(id).id);
    const rows = await sql<ItemRow>`select ${sql.raw(itemStateColumns)} from items where id in (${sql.join(sorted)})
      order by id for update`.execute(trx);
    return new Map(rows.rows.map((r) => [r.id, r]));
  }
}
