// The `categories` read table. Item counts are kept by the items projection.
import { sql } from 'kysely';
import type { CategoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent } from '../eventstore/types.js';
import { rememberWords } from '../inventory/search-words.js';

export const categoryIdOf = (streamId: string) => streamId.slice('category-'.length);

type Data<T extends CategoryEvent['type']> = Extract<CategoryEvent, { type: T }>['data'];

export const categoriesProjection: Projection = {
  name: 'categories',
  tables: ['categories'],
  handlers: {
    CategoryCreated: async (event: StoredEvent<Data<'CategoryCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into categories (id, name, description, item_count, version, created_at, updated_at)
        values (${d.categoryId}, ${d.name}, ${d.description}, 0, ${event.streamVersion}, ${event.createdAt}, ${event.createdAt})`.execute(
        trx,
      );
      await rememberWords(trx, d.name);
    },
    CategoryUpdated: async (event: StoredEvent<Data<'CategoryUpdated'>>, trx) => {
      const { name, description } = event.data.changes;
      const id = categoryIdOf(event.streamId);
      await sql`update categories set
          name = coalesce(${name?.to ?? null}, name),
          description = coalesce(${description?.to ?? null}, description),
          version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${id}`.execute(trx);
      if (name) {
        // Items show their category's name: a rename reaches them in the same transaction.
        await sql`update items set category_name = ${name.to},
            search_text = lower(name || ' ' || sku || ' ' || description || ' ' || ${name.to} || coalesce(' ' || barcode, ''))
          where category_id = ${id}`.execute(trx);
        await rememberWords(trx, name.to);
      }
    },
    CategoryDeleted: async (event, trx) => {
      await sql`delete from categories where id = ${categoryIdOf(event.streamId)}`.execute(trx);
    },
  },
};
