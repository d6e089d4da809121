// Category commands and reads. Names are unique (case-insensitive); a category with items
// cannot be deleted. Commands share one shape (eventstore/handle-command.ts): load the
// category's row (locked), decide (decide.ts, pure), append at the version loaded. Reads are
// one statement each, with the request's PrincipalCheck riding along (auth/principal-check.ts).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Category, CategoryItemsPage } from '../../shared/inventory.js';
import { categoryStream } from '../../shared/inventory-events.js';
import type { PrincipalCheck } from '../auth/principal-check.js';
import type { DB } from '../db/schema.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { isUniqueViolation, type EventStore } from '../eventstore/event-store.js';
import { handleCommand } from '../eventstore/handle-command.js';
import type { EventMetadata, Transaction } from '../eventstore/types.js';
import { itemColumns, toItem, type ItemRow } from '../inventory/item-rows.js';
import { createCategory, deleteCategory, updateCategory, type CategoryState } from './decide.js';

interface CategoryRow {
  id: string;
  name: string;
  description: string;
  item_count: number;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const toCategory = (row: CategoryRow): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  itemCount: Number(row.item_count),
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  version: Number(row.version),
});

const toState = (row: CategoryRow): CategoryState => ({
  id: row.id,
  name: row.name,
  description: row.description,
  itemCount: Number(row.item_count),
  version: Number(row.version),
});

async function requireFreeName(trx: Transaction, name: string, exceptId: string | null) {
  const rows =
    await sql`select id from categories where lower(name) = lower(${name.trim()}) and id is distinct from ${exceptId}`.execute(
      trx,
    );
  if (rows.rows.length) throw new ConflictError('Category already exists', { field: 'name' });
}

async function lockCategory(trx: Transaction, id: string): Promise<CategoryRow | null> {
  return (await sql<CategoryRow>`select * from categories where id = ${id} for update`.execute(trx)).rows[0] ?? null;
}

/** A missing category, or one changed since the version the client loaded (If-Match). */
function requireVersion(row: CategoryRow | null, expectedVersion: number | undefined): asserts row is CategoryRow {
  if (!row) throw new NotFoundError('Category not found');
  if (expectedVersion !== undefined && expectedVersion !== Number(row.version)) {
    throw new ConflictError('This category was changed by someone else', { current: toCategory(row) });
  }
}

function mapConstraintErrors(error: unknown): never {
  if (isUniqueViolation(error, 'categories_name_unique'))
    throw new ConflictError('Category already exists', { field: 'name' });
  throw error;
}

export type CategorySort = 'name' | 'price' | 'stock';

const sortColumn: Record<CategorySort, string> = { name: 'lower(name)', price: 'price', stock: 'quantity' };
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** A PrincipalCheck's columns, to append to a select list. */
const alongside = (check?: PrincipalCheck) => (check?.columns ? sql`, ${check.columns}` : sql``);

export class CategoryService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
  ) {}

  async list(check?: PrincipalCheck): Promise<Category[]> {
    const rows = await sql<CategoryRow>`select *${alongside(check)} from categories order by lower(name)`.execute(
      this.db,
    );
    await check?.confirm(rows.rows[0]);
    return rows.rows.map(toCategory);
  }

  async require(id: string, check?: PrincipalCheck): Promise<Category> {
    const rows = await sql<CategoryRow>`select *${alongside(check)} from categories where id = ${id}`.execute(this.db);
    await check?.confirm(rows.rows[0]);
    if (!rows.rows[0]) throw new NotFoundError('Category not found');
    return toCategory(rows.rows[0]);
  }

  async create(body: { name: string; description?: string }, meta: EventMetadata): Promise<Category> {
    const categoryId = randomUUID();
    const created = await handleCommand(
      this.store,
      {
        stream: categoryStream(categoryId),
        load: async () => null,
        check: (trx) => requireFreeName(trx, body.name, null),
        decide: () => createCategory({ categoryId, name: body.name, description: body.description ?? '' }),
        version: () => 0,
      },
      meta,
    ).catch(mapConstraintErrors);
    return this.require(created!.streamId.slice('category-'.length));
  }

  async update(
    id: string,
    body: { name?: string; description?: string },
    expectedVersion: number | undefined,
    meta: EventMetadata,
  ): Promise<Category> {
    await handleCommand(
      this.store,
      {
        stream: categoryStream(id),
        load: (trx) => lockCategory(trx, id),
        check: async (trx, row) => {
          requireVersion(row, expectedVersion);
          if (body.name !== undefined) await requireFreeName(trx, body.name, id);
        },
        decide: (row) => updateCategory(body, row && toState(row)),
        version: (row) => Number(row!.version),
      },
      meta,
    ).catch(mapConstraintErrors);
    return this.require(id);
  }

  async delete(id: string, expectedVersion: number | undefined, meta: EventMetadata): Promise<void> {
    await handleCommand(
      this.store,
      {
        stream: categoryStream(id),
        load: (trx) => lockCategory(trx, id),
        check: async (_trx, row) => requireVersion(row, expectedVersion),
        decide: (row) => deleteCategory(row && toState(row)),
        version: (row) => Number(row!.version),
      },
      meta,
    );
  }

  /**
   * One page of a category's items, searched over name and description, sorted: one
   * statement with the category's existence and the total beside the page (a page past the
   * end has no row to carry the total, so only then is it counted on its own).
   */
  async items(
    id: string,
    options: { q?: string; sort: CategorySort; order: 'asc' | 'desc'; page: number; pageSize: number },
    check?: PrincipalCheck,
  ): Promise<CategoryItemsPage> {
    const q = options.q?.trim().toLowerCase();
    const filter = q
      ? sql`and (lower(name) like ${`%${likeEscape(q)}%`} or lower(description) like ${`%${likeEscape(q)}%`})`
      : sql``;
    const order = sql.raw(`${sortColumn[options.sort]} ${options.order}, id ${options.order}`);
    const offset = (options.page - 1) * options.pageSize;
    const result = await sql<ItemRow & { category_found: boolean | null; total: number | null }>`select c.*, p.*
      from (select (select true from categories where id = ${id}) as category_found${alongside(check)}) c
      left join lateral (
        select ${sql.raw(itemColumns)}, count(*) over () as total from items where category_id = ${id} ${filter}
        order by ${order} limit ${options.pageSize} offset ${offset}) p on true
      order by ${order}`.execute(this.db);
    const first = result.rows[0]!;
    await check?.confirm(first);
    if (!first.category_found) throw new NotFoundError('Category not found');
    const rows = first.id === null ? [] : result.rows;
    const total =
      rows.length > 0
        ? Number(first.total)
        : offset === 0
          ? 0
          : Number(
              (
                await sql<{
                  n: number;
                }>`select count(*)::int as n from items where category_id = ${id} ${filter}`.execute(this.db)
              ).rows[0]!.n,
            );
    return {
      items: rows.map(toItem),
      total,
      page: options.page,
      pageSize: options.pageSize,
      totalPages: Math.max(1, Math.ceil(total / options.pageSize)),
    };
  }
}
