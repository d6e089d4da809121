// The dashboard's roll-ups, kept in step with the item streams: per item what the sums
// need (dashboard_items), the net change of stock per UTC day (stock_daily) and stock by
// category (category_stock). The dashboard and the wall display read these instead of
// scanning every item. Money stays in numeric (never floats), so a rebuild matches exactly.
import { sql, type RawBuilder } from 'kysely';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';

type Data<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

interface ItemLevel {
  category_id: string;
  quantity: number;
  price: string;
  low: boolean;
}

const itemIdOf = (streamId: string) => streamId.slice('item-'.length);
/** A price from event data as SQL numeric, rounded as the numeric(12, 2) columns round it. */
const money = (value: number) => sql`round(${String(value)}::numeric, 2)`;
const dayOf = (event: StoredEvent) => event.createdAt.toISOString().slice(0, 10);

async function level(trx: Transaction, itemId: string): Promise<ItemLevel | null> {
  const rows = await sql<ItemLevel>`select category_id, quantity, price::text as price, low from dashboard_items
    where item_id = ${itemId}`.execute(trx);
  return rows.rows[0] ?? null;
}

/**
 * The day's roll-up row for this item: a day has 16 rows, one per last hex digit of the
 * item id (migration 006 computes the same in SQL), so concurrent adjustments of different
 * items do not all wait on one row lock. Readers sum the rows.
 */
const shardOf = (streamId: string) => Math.max('0123456789abcdef'.indexOf(streamId.slice(-1).toLowerCase()), 0);

async function addToDay(trx: Transaction, event: StoredEvent, items: number, units: number, value: RawBuilder<unknown>) {
  await sql`insert into stock_daily (day, shard, items_delta, units_delta, value_delta)
    values (${dayOf(event)}::date, ${shardOf(event.streamId)}, ${items}, ${units}, ${value})
    on conflict (day, shard) do update set items_delta = stock_daily.items_delta + excluded.items_delta,
      units_delta = stock_daily.units_delta + excluded.units_delta, value_delta = stock_daily.value_delta + excluded.value_delta`.execute(trx);
}

/** Adds (sign 1) or removes (sign -1) one item's whole contribution to its category. */
async function countInCategory(trx: Transaction, categoryId: string, sign: 1 | -1, quantity: number, price: RawBuilder<unknown>, low: boolean) {
  await sql`insert into category_stock (category_id, item_count, units, value, low_count)
    values (${categoryId}, ${sign}, ${sign * quantity}, ${sign * quantity} * ${price}, ${low ? sign : 0})
    on conflict (category_id) do update set item_count = category_stock.item_count + excluded.item_count,
      units = category_stock.units + excluded.units, value = category_stock.value + excluded.value,
      low_count = category_stock.low_count + excluded.low_count`.execute(trx);
  // A category without items has no row, the same as a fresh roll-up would give.
  await sql`delete from category_stock where category_id = ${categoryId} and item_count = 0`.execute(trx);
}

async function setLow(trx: Transaction, event: StoredEvent, low: boolean) {
  const itemId = itemIdOf(event.streamId);
  const current = await level(trx, itemId);
  if (!current || current.low === low) return;
  await sql`update dashboard_items set low = ${low} where item_id = ${itemId}`.execute(trx);
  await sql`update category_stock set low_count = low_count + ${low ? 1 : -1} where category_id = ${current.category_id}`.execute(trx);
}

export const dashboardProjection: Projection = {
  name: 'dashboard',
  tables: ['dashboard_items', 'stock_daily', 'category_stock'],
  handlers: {
    ItemCreated: async (event: StoredEvent<Data<'ItemCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into dashboard_items (item_id, category_id, quantity, price, low)
        values (${d.itemId}, ${d.categoryId}, ${d.quantity}, ${money(d.price)}, false)`.execute(trx);
      await addToDay(trx, event, 1, d.quantity, sql`${d.quantity} * ${money(d.price)}`);
      await countInCategory(trx, d.categoryId, 1, d.quantity, money(d.price), false);
    },
    ItemUpdated: async (event: StoredEvent<Data<'ItemUpdated'>>, trx) => {
      const { price, categoryId } = event.data.changes;
      if (!price && !categoryId) return;
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const newPrice = price ? money(price.to) : sql`${current.price}::numeric`;
      const newCategory = categoryId ? categoryId.to : current.category_id;
      if (price) await addToDay(trx, event, 0, 0, sql`${current.quantity} * (${money(price.to)} - ${money(price.from)})`);
      await countInCategory(trx, current.category_id, -1, current.quantity, sql`${current.price}::numeric`, current.low);
      await countInCategory(trx, newCategory, 1, current.quantity, newPrice, current.low);
      await sql`update dashboard_items set category_id = ${newCategory}, price = ${newPrice} where item_id = ${itemId}`.execute(trx);
    },
    StockAdjusted: async (event: StoredEvent<Data<'StockAdjusted'>>, trx) => {
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const { delta, quantity } = event.data;
      const price = sql`${current.price}::numeric`;
      await addToDay(trx, event, 0, delta, sql`${delta} * ${price}`);
      await sql`update category_stock set units = units + ${delta}, value = value + ${delta} * ${price}
        where category_id = ${current.category_id}`.execute(trx);
      await sql`update dashboard_items set quantity = ${quantity} where item_id = ${itemId}`.execute(trx);
    },
    ItemWentLow: async (event, trx) => setLow(trx, event, true),
    ItemRecovered: async (event, trx) => setLow(trx, event, false),
    ItemDeleted: async (event, trx) => {
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const price = sql`${current.price}::numeric`;
      await addToDay(trx, event, -1, -current.quantity, sql`${-current.quantity} * ${price}`);
      await countInCategory(trx, current.category_id, -1, current.quantity, price, current.low);
      await sql`delete from dashboard_items where item_id = ${itemId}`.execute(trx);
    },
  },
};
