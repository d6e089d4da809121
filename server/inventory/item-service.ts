// Item commands, each in the same shape: load the item's state (its row, locked), decide
// (decide.ts, pure), append the events at the version loaded. Creates, edits and deletes run
// one to a transaction (eventstore/handle-command.ts); stock adjustments, the busiest
// command, share transactions with the others of their burst (adjust-stock.ts). Their answer
// is the item as the command left it.
import { sql } from 'kysely';
import type { Item } from '../../shared/inventory.js';
import { itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import { systemClock, type Clock } from '../app-context.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { HookUse } from '../eventstore/batch-hooks.js';
import { BatchedCommandHandler, type BatchOptions } from '../eventstore/batched-commands.js';
import { isUniqueViolation, type EventStore } from '../eventstore/event-store.js';
import { handleCommand } from '../eventstore/handle-command.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import { adjustingItems } from './adjust-stock.js';
import { lockedBarcodeHolder } from './barcode-holder.js';
import {
  createItem,
  deleteItem,
  updateItem,
  type AdjustStock,
  type CreateItem,
  type MoveStock,
  type StockCommand,
  type UpdateItem,
} from './decide.js';
import { itemStateColumns, rowToState, toItem, type ItemRow } from './item-rows.js';
import type { ItemQueries } from './item-queries.js';
import type { ItemState } from './item-state.js';
import { loadPlaces } from './places-sql.js';
import { NO_PLACES, placeOf, type Places } from './stock-places.js';

export async function lockItem(trx: Transaction, id: string): Promise<ItemRow | null> {
  // First, before anything gives this transaction its id: writers of one item queue here
  // with no id yet, so each gets one after the writer before it committed, and the log's
  // (tx_id, position) order follows the item's versions (see StreamOrderConflict).
  await sql`select pg_advisory_xact_lock(hashtextextended(${itemStream(id).id}, 0))`.execute(trx);
  const rows = await sql<ItemRow>`select ${sql.raw(itemStateColumns)} from items where id = ${id} for update`.execute(
    trx,
  );
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
  if (!(await lockCategories(trx, [id])).has(id))
    throw new ValidationError('category_id: Category not found', 'category_id');
}

async function requireFreeSku(trx: Transaction, sku: string, exceptId: string | null): Promise<void> {
  const rows =
    await sql`select id from items where lower(sku) = lower(${sku.trim()}) and id is distinct from ${exceptId}`.execute(
      trx,
    );
  if (rows.rows.length) throw new ConflictError('SKU already exists', { field: 'sku' });
}

/**
 * A barcode names one item or one location in the store: a scan must never have two answers.
 * Checked here for a message that names the holder; the unique index catches the race of two
 * item writers, the code's lock (barcode-holder.ts) that of an item and a location.
 */
async function requireFreeBarcode(
  trx: Transaction,
  barcode: string | null | undefined,
  exceptId: string | null,
): Promise<void> {
  const code = barcode?.trim();
  if (!code) return;
  const holder = await lockedBarcodeHolder(trx, code, { itemId: exceptId });
  if (!holder) return;
  // An item is named as it always was; a location says it is one (a shelf label's code).
  const holderName = holder.what === 'item' ? holder.name : `location ${holder.name}`;
  throw new ConflictError(`Barcode already used by ${holderName}`, { field: 'barcode' });
}

/** A missing item, or one changed since the version the client loaded (If-Match). */
function requireVersion(row: ItemRow | null, expectedVersion: number | undefined): asserts row is ItemRow {
  if (!row) throw new NotFoundError('Item not found');
  if (expectedVersion !== undefined && expectedVersion !== Number(row.version)) {
    throw new ConflictError('This item was changed by someone else', { current: toItem(row) });
  }
}

function mapConstraintErrors(error: unknown): never {
  if (isUniqueViolation(error, 'items_sku_unique')) throw new ConflictError('SKU already exists', { field: 'sku' });
  if (isUniqueViolation(error, 'items_barcode_unique'))
    throw new ConflictError('Barcode already used by another item', { field: 'barcode' });
  throw error;
}

/**
 * The places a create or a count needs: the location it names, or its site's default. None
 * for a command with neither (a caller from before places: stock at the main location).
 */
async function placesOfCommand(trx: Transaction, locationId?: string, siteId?: string): Promise<Places> {
  if (locationId === undefined && siteId === undefined) return NO_PLACES;
  return loadPlaces(trx, [locationId], locationId === undefined ? [siteId!] : []);
}

function placeFor(places: Places, locationId: string | undefined, siteId: string | undefined, field = 'location_id') {
  return places === NO_PLACES ? undefined : placeOf(places, locationId, siteId ?? '', field);
}

/** The item's state as its locked row holds it (see adjust-stock.ts for why the row is the state). */
const stateOf = (row: ItemRow | null): ItemState | null => row && rowToState(row);

export interface ItemServiceOptions extends BatchOptions {
  /** The time adjustments are recorded at (default: the system's clock). */
  clock?: Clock;
}

export class ItemService {
  private readonly adjustments: BatchedCommandHandler<ItemRow, ItemState, StockCommand, InventoryEvent, Item>;
  private readonly clock: Clock;

  constructor(
    private readonly store: EventStore,
    private readonly queries: ItemQueries,
    options: ItemServiceOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.adjustments = new BatchedCommandHandler(store, adjustingItems, options);
  }

  async create(command: CreateItem, metadata: EventMetadata): Promise<Item> {
    const { fields } = command;
    const created = await handleCommand(
      this.store,
      {
        stream: itemStream(command.itemId),
        // The category, locked: a duplicate of a create still in flight waits for it here, then
        // replays it. Then where its stock goes.
        load: async (trx) => {
          await requireCategory(trx, fields.categoryId);
          return placesOfCommand(trx, command.locationId, command.siteId);
        },
        check: async (trx) => {
          await requireFreeSku(trx, fields.sku, null);
          await requireFreeBarcode(trx, fields.barcode, null);
        },
        decide: (places) => createItem(command, null, placeFor(places, command.locationId, command.siteId)),
        version: () => 0,
      },
      metadata,
    ).catch(mapConstraintErrors);
    return this.queries.require(created!.streamId.slice('item-'.length));
  }

  async update(
    id: string,
    command: UpdateItem,
    expectedVersion: number | undefined,
    metadata: EventMetadata,
  ): Promise<Item> {
    const { changes } = command;
    await handleCommand(
      this.store,
      {
        stream: itemStream(id),
        load: async (trx) => {
          const row = await lockItem(trx, id);
          const counts = changes.quantity !== undefined && row !== null && changes.quantity !== Number(row.quantity);
          return { row, places: counts ? await placesOfCommand(trx, undefined, command.siteId) : NO_PLACES };
        },
        check: async (trx, { row }) => {
          requireVersion(row, expectedVersion);
          if (changes.categoryId !== undefined && changes.categoryId !== row.category_id) {
            const found = await lockCategories(trx, [row.category_id, changes.categoryId]);
            if (!found.has(changes.categoryId))
              throw new ValidationError('category_id: Category not found', 'category_id');
          }
          if (changes.sku !== undefined) await requireFreeSku(trx, changes.sku, id);
          await requireFreeBarcode(trx, changes.barcode, id);
        },
        decide: ({ row, places }) =>
          updateItem(command, stateOf(row), placeFor(places, undefined, command.siteId, 'quantity')),
        version: ({ row }) => Number(row!.version),
      },
      metadata,
    ).catch(mapConstraintErrors);
    return this.queries.require(id);
  }

  async delete(id: string, expectedVersion: number | undefined, metadata: EventMetadata): Promise<void> {
    await handleCommand(
      this.store,
      {
        stream: itemStream(id),
        load: (trx) => lockItem(trx, id),
        check: async (trx, row) => {
          requireVersion(row, expectedVersion);
          // The category's count changes too: lock it the same way creates do.
          await lockCategories(trx, [row.category_id]);
        },
        decide: (row) => deleteItem(stateOf(row)),
        version: (row) => Number(row!.version),
      },
      metadata,
    );
  }

  /**
   * Adjusts stock; answers the item as this adjustment left it. `hooks`: what the request's
   * layers add to its batch (auth/principal-check.ts, http/answer-hook.ts).
   */
  adjust(id: string, command: AdjustStock, metadata: EventMetadata, hooks: HookUse[] = []): Promise<Item> {
    return this.adjustments.handle({ id, command, metadata, hooks, now: this.clock() });
  }

  /**
   * Moves stock between two locations of a site: one StockMoved on the item's stream, decided
   * with its adjustments (the same lock and batch); answers the item as the move left it.
   */
  move(id: string, command: MoveStock, metadata: EventMetadata, hooks: HookUse[] = []): Promise<Item> {
    return this.adjustments.handle({ id, command, metadata, hooks, now: this.clock() });
  }
}
