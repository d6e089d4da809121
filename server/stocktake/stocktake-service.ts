// Stocktake commands: start a session, record a count, approve lines (or all). Each runs in
// one transaction that locks the session first, so counts and approvals of one session queue;
// an approval also locks the items it posts to (as item commands do: advisory lock, then the
// row, in id order) and appends the session's event and the items' `count` adjustments in
// one statement, so the session never says "approved" without the stock having moved. A
// count's difference is posted at the line's location, the one it was counted at, and
// nowhere else. A session counts at a place (a site, or a location with those inside it):
// starting, counting and approving need the permission at that place's site (site-access.ts).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { itemStream } from '../../shared/inventory-events.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import type { PermissionNeed } from '../../shared/permissions.js';
import {
  lineKey,
  stocktakeStream,
  type ApproveLineBody,
  type StartStocktakeBody,
  type StocktakeCount,
  type SubmitCountBody,
} from '../../shared/stocktake.js';
import type { Principal } from '../auth/principal.js';
import { assertMayAtSites } from '../auth/site-access.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { retryRace, type EventStore, type StreamBatch } from '../eventstore/event-store.js';
import type { EventMetadata, StoredEvent, Transaction } from '../eventstore/types.js';
import { adjustStock } from '../inventory/decide.js';
import { itemStateColumns, rowToState, type ItemRow } from '../inventory/item-rows.js';
import type { ItemState } from '../inventory/item-state.js';
import { loadPlaces, siteOfCaller } from '../inventory/places-sql.js';
import { NO_PLACES, placeNamed } from '../inventory/stock-places.js';
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
import { resolvePlace, stockAtPlace } from './stocktake-places.js';
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
  const d = event.data as SubmitCountBody & { locationId: string };
  return {
    id: event.eventId,
    itemId: d.itemId,
    locationId: d.locationId,
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

  /**
   * Starts a session at a place (the body's location or site; neither: the caller's site);
   * answers its id. The items to count, and the locations each is counted at, are fixed now.
   */
  async start(body: StartStocktakeBody, meta: EventMetadata, principal?: Principal): Promise<string> {
    const stocktakeId = randomUUID();
    return this.store.transact(async (trx, append) => {
      const prior = await this.store.priorResult(trx, meta.idempotencyKey);
      if (prior) return prior.streamId.slice('stocktake-'.length);
      const { place, label } = await resolvePlace(trx, body, siteOfCaller(principal));
      if (principal) assertMayAtSites(principal, 'stocktake:run', [place.siteId], () => label.site);
      const { itemIds, name } = await this.scopeOf(trx, body);
      const named = label.named ? `${name} at ${label.named}` : name;
      const events = startStocktake({
        stocktakeId,
        name: body.name?.trim() || (named.length <= 100 ? named : name),
        scope: body.scope,
        categoryId: body.categoryId ?? null,
        ...(body.categoryIds ? { categoryIds: body.categoryIds } : {}),
        itemIds,
        place,
        stockAt: await stockAtPlace(trx, itemIds, place),
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
    principal?: Principal,
    now: () => Date = () => new Date(),
  ): Promise<StocktakeCount> {
    return this.store.transact(async (trx, append) => {
      await lockStream(trx, stocktakeStream(id).id);
      const prior = await this.store.priorResult(trx, meta.idempotencyKey);
      if (prior?.events[0]) return toCount(prior.events[0]);
      const state = await this.queries.state(trx, id);
      if (!state) throw new NotFoundError('Stocktake not found');
      await this.assertMay(trx, principal, 'stock:update', state);
      const events = countStock(
        {
          itemId: body.itemId,
          ...(body.locationId ? { locationId: body.locationId } : {}),
          counted: body.counted,
          countedAt: new Date(body.countedAt),
        },
        state,
        now(),
      );
      const appended = await append(stocktakeStream(id), 'any', events, meta);
      return toCount(appended.events[0]!);
    });
  }

  /**
   * Approves one line of an item (`countId` picks a count when they disagree). Which line:
   * `locationId`, else the chosen count's location, else the item's only line.
   */
  async approveLine(
    id: string,
    itemId: string,
    body: ApproveLineBody,
    meta: EventMetadata,
    principal?: Principal,
  ): Promise<void> {
    await this.approve(id, meta, principal, async (trx, state) => {
      const locationId = await this.lineLocation(trx, state, itemId, body);
      const [line] = await this.queries.linesToApprove(trx, id, { itemId, locationId });
      if (!line) throw new NotFoundError('This item is not counted at that location in this stocktake');
      return { lines: [{ ...line, countId: body.countId }], close: false };
    });
  }

  /** The location of the line an approval means (see approveLine). */
  private async lineLocation(
    trx: Transaction,
    state: SessionState,
    itemId: string,
    body: ApproveLineBody,
  ): Promise<string> {
    const lines = [...state.lines.values()].filter((l) => l.itemId === itemId);
    if (lines.length === 0) throw new NotFoundError('This item is not part of this stocktake');
    if (body.locationId) return body.locationId.toLowerCase();
    if (body.countId) {
      const count = await sql<{ location_id: string }>`select location_id from stocktake_counts
        where id = ${body.countId} and stocktake_id = ${state.id} and item_id = ${itemId}`.execute(trx);
      if (count.rows[0]) return count.rows[0].location_id;
    }
    if (lines.length > 1)
      throw new UnprocessableError(
        'This item is counted at several locations: say which line (locationId)',
        'locationId',
      );
    return lines[0]!.locationId;
  }

  /** Approves every counted line and closes the session. */
  async approveAll(id: string, meta: EventMetadata, principal?: Principal): Promise<void> {
    await this.approve(id, meta, principal, async (trx, state) => ({
      lines: linesForApproveAll(await this.queries.linesToApprove(trx, id), state),
      close: true,
    }));
  }

  /** Refuses a principal without `need` at the session's site. */
  private async assertMay(
    trx: Transaction,
    principal: Principal | undefined,
    need: PermissionNeed,
    state: SessionState,
  ) {
    if (!principal) return;
    const site = await sql<{ name: string }>`select name from sites where id = ${state.siteId}`.execute(trx);
    assertMayAtSites(principal, need, [state.siteId], () => site.rows[0]?.name ?? 'this site');
  }

  private async approve(
    id: string,
    meta: EventMetadata,
    principal: Principal | undefined,
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
        await this.assertMay(trx, principal, 'stocktake:run', session);
        const { lines, close } = await pick(trx, session);
        const approved = approveLines(lines, session);
        const moving = approved.filter((l) => l.delta !== 0);
        const adjustmentVersions = new Map<string, number>();
        const items = await this.lockItems(
          trx,
          moving.map((l) => l.itemId),
        );
        const places = moving.length
          ? await loadPlaces(
              trx,
              moving.map((l) => l.locationId),
              [],
            )
          : NO_PLACES;
        // An item counted at two locations posts twice to its stream: one batch, a command per line.
        const byItem = new Map<string, { batch: StreamBatch; state: ItemState; version: number }>();
        for (const line of moving) {
          const toApprove = lines.find((l) => lineKey(l) === lineKey(line));
          const name = toApprove?.name ?? 'An item';
          const row = items.get(line.itemId);
          if (!row) throw new ConflictError(`${name} no longer exists`);
          const mine = byItem.get(line.itemId) ?? {
            batch: { stream: itemStream(line.itemId), expectedVersion: Number(row.version), commands: [] },
            state: rowToState(row),
            version: Number(row.version),
          };
          const place = placeNamed(places, line.locationId, 'locationId');
          const there = mine.state.levels[place.id] ?? 0;
          if (there + line.delta < 0) {
            // Said as before places where the item is at that one location only.
            const elsewhere = there !== mine.state.quantity;
            throw new ConflictError(
              elsewhere
                ? `Posting the count of ${name} would take its stock at ${place.name} below 0 (it has ${there} there now)`
                : `Posting the count of ${name} would take its stock below 0 (it is ${mine.state.quantity} now)`,
            );
          }
          const note = adjustmentNote(session.name, line);
          const adjustment = adjustStock(
            { delta: line.delta, reason: 'count', note, locationId: place.id },
            mine.state,
            place,
          );
          // StockAdjusted comes first among the adjustment's events: the stream's next version.
          adjustmentVersions.set(lineKey(line), mine.version + 1);
          // The approver posts it (the actor); the count stays its counter's.
          const metadata: EventMetadata = { ...meta, countedBy: line.countedBy };
          mine.batch.commands.push({ events: adjustment, metadata });
          for (const event of adjustment) {
            mine.version++;
            mine.state = evolveItem(mine.state, event, { version: mine.version, at: null }) ?? mine.state;
          }
          byItem.set(line.itemId, mine);
        }
        const batches: StreamBatch[] = [...byItem.values()].map((b) => b.batch);
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
