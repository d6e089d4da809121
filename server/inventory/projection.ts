// The `items` read table and `stock_movements` (one row per adjustment, for the dashboard),
// plus the item counts on `categories`.
import { sql } from 'kysely';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { rememberWords } from './search-words.js';

export const itemIdOf = (streamId: string) => streamId.slice('item-'.length);

type Data<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

const columnOf: Record<string, string> = {
  name: 'name',
  description: 'description',
  sku: 'sku',
  categoryId: 'category_id',
  price: 'price',
  threshold: 'threshold',
  imageUrl: 'image_url',
  expiryDate: 'expiry_date',
};

async function touch(trx: Transaction, event: StoredEvent) {
  await sql`update items set version = ${event.streamVersion}, updated_at = ${event.createdAt}
    where id = ${itemIdOf(event.streamId)}`.execute(trx);
}

const refreshSearchText = sql`search_text = lower(name || ' ' || sku || ' ' || description || ' ' || category_name)`;

export const itemsProjection: Projection = {
  name: 'items',
  tables: ['items', 'stock_movements'],
  handlers: {
    ItemCreated: async (event: StoredEvent<Data<'ItemCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into items (id, name, description, sku, category_id, category_name, quantity, price, threshold,
          image_url, expiry_date, version, created_at, updated_at, search_text)
        select ${d.itemId}, ${d.name}, ${d.description}, ${d.sku}, c.id, c.name, ${d.quantity}, ${d.price}, ${d.threshold},
          ${d.imageUrl}, ${d.expiryDate}, ${event.streamVersion}, ${event.createdAt}, ${event.createdAt},
          lower(${d.name} || ' ' || ${d.sku} || ' ' || ${d.description} || ' ' || c.name)
        from categories c where c.id = ${d.categoryId}`.execute(trx);
      await sql`update categories set item_count = item_count + 1 where id = ${d.categoryId}`.execute(trx);
      await rememberWords(trx, d.name, d.description, d.sku);
    },
    ItemUpdated: async (event: StoredEvent<Data<'ItemUpdated'>>, trx) => {
      const id = itemIdOf(event.streamId);
      const changes = event.data.changes;
      const sets = Object.entries(changes).map(([field, change]) => sql`${sql.ref(columnOf[field]!)} = ${change!.to}`);
      if (changes.categoryId) {
        await sql`update categories set item_count = item_count - 1 where id = ${changes.categoryId.from}`.execute(trx);
        await sql`update categories set item_count = item_count + 1 where id = ${changes.categoryId.to}`.execute(trx);
        sets.push(sql`category_name = (select name from categories where id = ${changes.categoryId.to})`);
      }
      await sql`update items set ${sql.join(sets)}, version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${id}`.execute(trx);
      await sql`update items set ${refreshSearchText} where id = ${id}`.execute(trx);
      await rememberWords(trx, changes.name?.to, changes.description?.to, changes.sku?.to);
    },
    StockAdjusted: async (event: StoredEvent<Data<'StockAdjusted'>>, trx) => {
      const id = itemIdOf(event.streamId);
      const d = event.data;
      // One statement for both tables: adjustments are the hot write path.
      await sql`with moved as (
          update items set quantity = ${d.quantity}, version = ${event.streamVersion}, updated_at = ${event.createdAt}
          where id = ${id} returning id, price)
        insert into stock_movements (event_id, item_id, delta, reason, quantity_after, unit_price, user_id, created_at)
        select ${event.eventId}, id, ${d.delta}, ${d.reason}, ${d.quantity}, price, ${event.metadata.actor.uid}, ${event.createdAt}
        from moved`.execute(trx);
    },
    ItemWentLow: async (event, trx) => touch(trx, event),
    ItemRecovered: async (event, trx) => touch(trx, event),
    ItemDeleted: async (event, trx) => {
      const id = itemIdOf(event.streamId);
      await sql`update categories set item_count = item_count - 1
        where id = (select category_id from items where id = ${id})`.execute(trx);
      await sql`delete from items where id = ${id}`.execute(trx);
    },
  },
};
