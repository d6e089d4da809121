// The store as it was at a moment, read from the history projections (migration 012): the
// versions valid at `t` are found through the GiST index on their validity range, so an
// as-of read costs about what a scan of the live table's rows of that moment costs, for any
// length of log. Items show the names their categories had at that moment.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Category, CategoryItemsPage, Item } from '../../shared/inventory.js';
import type { EventCountsByDay } from '../../shared/inventory-history.js';
import { AS_OF_SCRUB_DAYS } from '../../shared/inventory-history.js';
import type { DB } from '../db/schema.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { toItem, type ItemRow } from '../inventory/item-rows.js';
import { decodeItemCursor, encodeItemCursor } from '../inventory/item-cursor.js';
import { itemsPlacedAt, type AsOfPlace } from './as-of-places.js';

/** Versions valid at `t` (uses the GiST index on the range). */
export const validAt = (alias: string, t: Date) =>
  sql`tstzrange(${sql.ref(`${alias}.from_at`)}, ${sql.ref(`${alias}.to_at`)}) @> ${t}::timestamptz`;

/** An item version as an ItemRow, with its category's name at `t` (or its current one). */
export const asOfItemColumns = (t: Date) => sql`v.item_id as id, v.name, v.description, v.sku, v.category_id,
  coalesce((select cv.name from category_versions cv where cv.category_id = v.category_id and ${validAt('cv', t)} limit 1),
    (select c.name from categories c where c.id = v.category_id), '') as category_name,
  v.quantity, v.price, v.threshold, v.image_url, to_char(v.expiry_date, 'YYYY-MM-DD') as expiry_date, v.barcode, v.version,
  v.created_at, v.updated_at`;

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const sortColumn = { name: 'lower(name)', price: 'price', stock: 'quantity' } as const;

/**
 * The earliest moment a history read takes. No store has records before it, and moments
 * far before it break date arithmetic on the way to the database (the dashboard's "30 days
 * before" of 0001-01-01 is year 0, which PostgreSQL has not). Between this and a store's
 * first event the answer is the empty store, as it was then.
 */
export const EARLIEST_MOMENT = new Date('1970-01-01T00:00:00Z');

/** Refuses a moment that is no moment, before EARLIEST_MOMENT, or in the future: "as of" is for what happened. */
export function checkMoment(at: Date, name = 'asOf', now = new Date()): Date {
  if (Number.isNaN(at.getTime())) throw new ValidationError(`${name} must be a date-time`);
  if (at.getTime() < EARLIEST_MOMENT.getTime())
    throw new ValidationError(`${name} is before ${EARLIEST_MOMENT.toISOString()}: there are no records that old`);
  if (at.getTime() > now.getTime() + 60_000) throw new ValidationError(`${name} is in the future`);
  return at;
}

export class AsOfQueries {
  constructor(private readonly db: Kysely<DB>) {}

  /** When the store's first event was recorded, or null while it has none. */
  async firstRecordAt(): Promise<Date | null> {
    const rows = await sql<{ created_at: Date }>`select created_at from events order by position limit 1`.execute(
      this.db,
    );
    return rows.rows[0] ? new Date(rows.rows[0].created_at) : null;
  }

  /**
   * A moment an as-of read may show: checkMoment's bounds, then not before the store's first
   * record, where there is nothing to show (the answer says so rather than an empty store
   * that looks like lost data).
   */
  async moment(raw: string, name = 'asOf'): Promise<Date> {
    const at = checkMoment(new Date(raw), name);
    const first = await this.firstRecordAt();
    if (!first) throw new ValidationError(`${name} is before the store's first record: the store has no history yet`);
    if (at.getTime() < first.getTime()) {
      throw new ValidationError(
        `${name} is before the store's first record (${first.toISOString()}): there is nothing to show from then`,
      );
    }
    return at;
  }

  /** Items at `t`, newest first, keyset-paged like the live list; with a place, those placed there then (as-of-places.ts). */
  async items(
    t: Date,
    limit: number,
    cursor?: string,
    place: AsOfPlace = {},
  ): Promise<{ items: Item[]; nextCursor: string | null }> {
    if (place.siteId || place.locationId) return itemsPlacedAt(this.db, t, place, limit, cursor);
    const after = cursor ? decodeItemCursor(cursor) : null;
    const where = after
      ? sql`and (v.created_at, v.item_id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
      : sql``;
    const rows = await sql<ItemRow & { created_key: string }>`select ${asOfItemColumns(t)},
        to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key
      from item_versions v where ${validAt('v', t)} ${where}
      order by v.created_at desc, v.item_id desc limit ${limit + 1}`.execute(this.db);
    const page = rows.rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toItem),
      nextCursor: rows.rows.length > limit && last ? encodeItemCursor(last) : null,
    };
  }

  async item(t: Date, id: string): Promise<Item> {
    const rows = await sql<ItemRow>`select ${asOfItemColumns(t)} from item_versions v
      where v.item_id = ${id} and ${validAt('v', t)}`.execute(this.db);
    if (!rows.rows[0]) throw new NotFoundError('Item not found');
    return toItem(rows.rows[0]);
  }

  /** Categories at `t` with the number of items each had then, by name. */
  async categories(t: Date): Promise<Category[]> {
    const rows = await sql<CategoryAt>`select cv.category_id as id, cv.name, cv.description, cv.version, cv.created_at,
        cv.updated_at, coalesce(n.count, 0)::int as item_count
      from category_versions cv
      left join (select v.category_id, count(*) as count from item_versions v where ${validAt('v', t)} group by v.category_id) n
        on n.category_id = cv.category_id
      where ${validAt('cv', t)} order by lower(cv.name)`.execute(this.db);
    return rows.rows.map(toCategory);
  }

  async category(t: Date, id: string): Promise<Category> {
    const found = (await this.categories(t)).find((c) => c.id === id);
    if (!found) throw new NotFoundError('Category not found');
    return found;
  }

  /** A category's items at `t`: the same search, sort and pages as the live category page. */
  async categoryItems(
    t: Date,
    id: string,
    options: { q?: string; sort: keyof typeof sortColumn; order: 'asc' | 'desc'; page: number; pageSize: number },
  ): Promise<CategoryItemsPage> {
    await this.category(t, id);
    const q = options.q?.trim().toLowerCase();
    const filter: RawBuilder<unknown> = q
      ? sql`and (lower(name) like ${`%${likeEscape(q)}%`} or lower(description) like ${`%${likeEscape(q)}%`})`
      : sql``;
    const order = sql.raw(`${sortColumn[options.sort]} ${options.order}, id ${options.order}`);
    const offset = (options.page - 1) * options.pageSize;
    const rows = await sql<ItemRow & { total: number }>`select *, count(*) over () as total from (
        select ${asOfItemColumns(t)} from item_versions v where v.category_id = ${id} and ${validAt('v', t)}) i
      where true ${filter} order by ${order} limit ${options.pageSize} offset ${offset}`.execute(this.db);
    const total = rows.rows[0]
      ? Number(rows.rows[0].total)
      : Number(
          (
            await sql<{ n: number }>`select count(*)::int as n from (select v.name, v.description from item_versions v
            where v.category_id = ${id} and ${validAt('v', t)}) i where true ${filter}`.execute(this.db)
          ).rows[0]!.n,
        );
    return {
      items: rows.rows.map(toItem),
      total,
      page: options.page,
      pageSize: options.pageSize,
      totalPages: Math.max(1, Math.ceil(total / options.pageSize)),
    };
  }

  /** Items at or below their threshold at `t`. */
  async lowStock(t: Date): Promise<Item[]> {
    const rows = await sql<ItemRow>`select ${asOfItemColumns(t)} from item_versions v
      where ${validAt('v', t)} and v.quantity <= v.threshold
      order by (v.quantity::float / greatest(v.threshold, 1)), v.name limit 1000`.execute(this.db);
    return rows.rows.map(toItem);
  }

  /** Changes per UTC day over the scrubber's window (activity log entries: every user-made change), and where history starts. */
  async countsByDay(now = new Date()): Promise<EventCountsByDay> {
    const first = await this.firstRecordAt();
    const since = new Date(now.getTime() - AS_OF_SCRUB_DAYS * 24 * 3600 * 1000);
    const rows = await sql<{
      day: string;
      events: number;
    }>`select to_char((timestamp at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
        count(*)::int as events
      from activity_log where timestamp >= ${since} group by 1 order by 1`.execute(this.db);
    return {
      firstRecordAt: first?.toISOString() ?? null,
      days: rows.rows.map((r) => ({ day: r.day, events: Number(r.events) })),
    };
  }
}

interface CategoryAt {
  id: string;
  name: string;
  description: string;
  version: number;
  created_at: Date;
  updated_at: Date;
  item_count: number;
}

const toCategory = (row: CategoryAt): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  itemCount: Number(row.item_count),
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  version: Number(row.version),
});
