// Item commands: lock the item's row, decide, append with the expected version, all in one
// transaction. The row lock makes concurrent adjustments queue instead of conflicting.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AdjustStockBody, CreateItemBody, Item, UpdateItemBody } from '../../shared/inventory.js';
import { itemStream, type ItemFields } from '../../shared/inventory-events.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUniqueViolation, type EventStore } from '../eventstore/event-store.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import { adjustStock, createItem, deleteItem, updateItem } from './decide.js';
import { itemColumns, rowToState, toItem, type ItemRow } from './item-rows.js';
import type { ItemQueries } from './item-queries.js';

async function lockItem(trx: Transaction, id: string): Promise<ItemRow | null> {
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
  if (!(await lockCategories(trx, [id])).has(id)) throw new ValidationError('category_id: Category not found');
}

async function requireFreeSku(trx: Transaction, sku: string, exceptId: string | null): Promise<void> {
  const rows = await sql`select id from items where lower(sku) = lower(${sku.trim()}) and id is distinct from ${exceptId}`.execute(trx);
  if (rows.rows.length) throw new ConflictError('SKU already exists');
}

function mapConstraintErrors(error: unknown): never {
  if (isUniqueViolation(error, 'items_sku_unique')) throw new ConflictError('SKU already exists');
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
});

export class ItemService {
  constructor(
    private readonly store: EventStore,
    private readonly queries: ItemQueries,
  ) {}

  async create(body: CreateItemBody, meta: EventMetadata): Promise<Item> {
    const itemId = randomUUID();
    const streamId = await this.store
      .transact(async (trx, append) => {
        await requireCategory(trx, body.category_id);
        // After the lock: a duplicate of a create still in flight waits for it, then replays it.
        const prior = await this.store.priorResult(trx, meta.idempotencyKey);
        if (prior) return prior.streamId;
        await requireFreeSku(trx, body.sku, null);
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
          if (!found.has(body.category_id)) throw new ValidationError('category_id: Category not found');
        }
        if (body.sku !== undefined) await requireFreeSku(trx, body.sku, id);
        const events = updateItem({ changes: fieldsFromBody(body) }, rowToState(row));
        if (events.length) await append(itemStream(id), Number(row.version), events, meta);
      })
      .catch(mapConstraintErrors);
    return this.queries.require(id);
  }

  async adjust(id: string, body: AdjustStockBody, meta: EventMetadata): Promise<Item> {
    await this.store.transact(async (trx, append) => {
      const row = await lockItem(trx, id);
      if (await this.store.priorResult(trx, meta.idempotencyKey)) return;
      if (!row) throw new NotFoundError('Item not found');
      const events = adjustStock({ delta: body.delta, reason: body.reason, note: body.note?.trim() || null }, rowToState(row));
      await append(itemStream(id), Number(row.version), events, meta);
    });
    return this.queries.require(id);
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
