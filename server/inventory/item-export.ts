// The item CSV export (GET /api/inventory/export.csv): every item, or those a screen's
// filters show, read in keyset pages of 1,000 so a store of any size streams out without
// being held in memory, and written in the columns the CSV import reads, then the store's
// currency (which the import leaves out: no item field has that name). By location (asked
// for, or filtered by a site or location as the lists are), a row per item and location
// with the site's and location's codes and the units there: the import reads that back too,
// setting each location's quantity. Stock at sites the reader may not see stays out.
import { sql, type Kysely, type RawBuilder } from 'kysely';
// The export's columns are the import's fields, so an exported file imports back as it is.
import { IMPORT_FIELDS, ITEM_EXPORT_FIELDS } from '../../shared/import.js';
import { csvLine, csvNumberCell, csvTextCell } from '../../shared/csv-cell.js';
import { DEFAULT_MONEY } from '../../shared/money-format.js';
import { CSV_DELIMITERS, decimalCommaIn, STANDARD_CSV, type CsvFormat } from '../../shared/csv-format.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';
import type { ItemRow } from './item-rows.js';
import { locationsInside } from './location-subtree.js';

export interface ItemExportFilter {
  /** The category page's items only, filtered and sorted as that page does. */
  categoryId?: string;
  /**
   * Text the screen is searching for. With a category: in name or description (the
   * category page's search); without: every word in name, SKU, barcode, description or
   * category (the Inventory page's search, without its typo guesses).
   */
  q?: string;
  sort: 'name' | 'price' | 'stock';
  order: 'asc' | 'desc';
  /** A row per item and location (the items placed at the site or location, when one is given). */
  byLocation?: boolean;
  siteId?: string;
  locationId?: string;
  /** The sites whose stock the reader may see (server/auth/site-access.ts visibleSites). */
  visibleSites?: 'all' | readonly string[];
}

/** Whether the export has a row per item and location (asked for, or filtered by place). */
export const exportsByLocation = (filter: ItemExportFilter): boolean =>
  Boolean(filter.byLocation || filter.siteId || filter.locationId);

const PAGE = 1000;
/** The sites a reader limited to some sees (roles per site); null for every site. */
const limitedTo = (filter: ItemExportFilter): readonly string[] | null =>
  filter.visibleSites && filter.visibleSites !== 'all' ? filter.visibleSites : null;
/**
 * The quantity column: the item's total, or for a reader limited to some sites the units at
 * those sites (a row per location already says the units there).
 */
function quantityOf(filter: ItemExportFilter): RawBuilder<unknown> {
  const sites = limitedTo(filter);
  if (!sites) return sql`quantity`;
  if (sites.length === 0) return sql`0 as quantity`;
  return sql`(select coalesce(sum(s.quantity), 0)::int from stock_levels s
    where s.item_id = items.id and s.site_id in (${sql.join(sites.map((id) => sql`${id}::uuid`))})) as quantity`;
}
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (column: string, text: string) => sql`${sql.raw(column)} like ${`%${likeEscape(text)}%`}`;

/** The sort keys, most significant first; the item id always ends them, so every row has its own place. */
function sortKeys(filter: ItemExportFilter): string[] {
  if (!filter.categoryId) return ['lower(category_name)', 'lower(name)'];
  return [{ name: 'lower(name)', price: 'price', stock: 'items.quantity' }[filter.sort]];
}

/** Which stock_levels rows (alias `s`) a by-location export writes (a location's: with those inside it, as the lists). */
function levelsWhere(filter: ItemExportFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (filter.siteId) parts.push(sql`s.site_id = ${filter.siteId}::uuid`);
  if (filter.locationId) parts.push(sql`s.location_id in ${locationsInside(filter.locationId)}`);
  const visible = filter.visibleSites ?? 'all';
  if (visible !== 'all')
    parts.push(visible.length ? sql`s.site_id in (${sql.join(visible.map((id) => sql`${id}::uuid`))})` : sql`false`);
  return sql.join(parts, sql` and `);
}

function whereOf(filter: ItemExportFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  // Filtered by place: the items placed there, as the lists show them; a reader limited to
  // some sites gets the items placed at those sites only (roles per site).
  if (filter.siteId || filter.locationId || limitedTo(filter))
    parts.push(sql`exists (select 1 from stock_levels s where s.item_id = items.id and ${levelsWhere(filter)})`);
  const q = filter.q?.trim().toLowerCase();
  if (filter.categoryId) {
    parts.push(sql`category_id = ${filter.categoryId}`);
    if (q) parts.push(sql`(${contains('lower(name)', q)} or ${contains('lower(description)', q)})`);
  } else if (q) {
    for (const word of q.split(/\s+/).slice(0, 8)) parts.push(contains('search_text', word));
  }
  return sql.join(parts, sql` and `);
}

/** An item as exported: its row and the currency its price is in (and by location: where, and the units there). */
export type ExportedItem = ItemRow & { currency: string; site?: string | null; location?: string | null };

type ExportRow = ExportedItem & Record<`k${number}`, unknown>;

/**
 * The matching items, to be read page by page. An unknown category is a NotFoundError
 * here, before the response starts (a stream cannot change its status once it has begun).
 */
export async function exportedItems(
  db: Kysely<DB>,
  filter: ItemExportFilter,
  pageSize = PAGE,
): Promise<AsyncGenerator<ExportedItem>> {
  if (filter.categoryId) {
    const found = await sql`select 1 from categories where id = ${filter.categoryId}`.execute(db);
    if (found.rows.length === 0) throw new NotFoundError('Category not found');
  }
  return exportsByLocation(filter) ? byLocation(db, filter, pageSize) : pages(db, filter, pageSize);
}

/**
 * Each item's rows by location, site by site (by name), then location by name; an item with
 * no stock rows (nowhere yet) gets one row with no place when nothing narrows the export.
 */
async function* byLocation(db: Kysely<DB>, filter: ItemExportFilter, pageSize: number): AsyncGenerator<ExportedItem> {
  let page: ExportedItem[] = [];
  const flush = async function* (items: ExportedItem[]) {
    if (items.length === 0) return;
    const levels = await sql<{ item_id: string; site: string; location: string; quantity: number }>`
      select s.item_id, st.code as site, l.code as location, s.quantity from stock_levels s
      join locations l on l.id = s.location_id join sites st on st.id = s.site_id
      where s.item_id in (${sql.join(items.map((i) => sql`${i.id}::uuid`))}) and ${levelsWhere(filter)}
      order by s.item_id, lower(st.name), st.id, lower(l.name), l.id`.execute(db);
    const byItem = new Map<string, typeof levels.rows>();
    for (const row of levels.rows) byItem.set(row.item_id, [...(byItem.get(row.item_id) ?? []), row]);
    const narrowed = Boolean(filter.siteId || filter.locationId || (filter.visibleSites ?? 'all') !== 'all');
    for (const item of items) {
      const at = byItem.get(item.id) ?? [];
      if (at.length === 0 && !narrowed) yield { ...item, site: null, location: null, quantity: 0 };
      for (const level of at)
        yield { ...item, site: level.site, location: level.location, quantity: Number(level.quantity) };
    }
  };
  for await (const item of pages(db, filter, pageSize)) {
    page.push(item);
    if (page.length >= pageSize) {
      yield* flush(page);
      page = [];
    }
  }
  yield* flush(page);
}

async function* pages(db: Kysely<DB>, filter: ItemExportFilter, pageSize: number): AsyncGenerator<ExportedItem> {
  const keys = [...sortKeys(filter), 'id'];
  const order = filter.categoryId ? filter.order : 'asc';
  const dir = sql.raw(order);
  const keyList = sql.raw(keys.join(', '));
  const keyColumns = sql.raw(keys.map((k, i) => `${k} as k${i}`).join(', '));
  const orderBy = sql.join(keys.map((k) => sql`${sql.raw(k)} ${dir}`));
  let after: unknown[] | null = null;
  for (;;) {
    const past: RawBuilder<unknown> = after
      ? sql`and (${keyList}) ${sql.raw(order === 'desc' ? '<' : '>')} (${sql.join(after)})`
      : sql``;
    const rows =
      await sql<ExportRow>`select id, name, sku, barcode, category_name, ${quantityOf(filter)}, price, threshold, description,
        to_char(expiry_date, 'YYYY-MM-DD') as expiry_date, image_url,
        coalesce((select currency from settings where id = 1), ${DEFAULT_MONEY.currency}) as currency, ${keyColumns}
      from items where ${whereOf(filter)} ${past}
      order by ${orderBy} limit ${pageSize}`.execute(db);
    yield* rows.rows;
    if (rows.rows.length < pageSize) return;
    const last = rows.rows.at(-1)!;
    after = keys.map((_, i) => last[`k${i}`]);
  }
}

export const itemCsvHeader = (format: CsvFormat = STANDARD_CSV, byLocation = false): string =>
  csvLine([...(byLocation ? IMPORT_FIELDS : ITEM_EXPORT_FIELDS), 'currency'], CSV_DELIMITERS[format.delimiter]);

/**
 * One item (or, by location, one item at one location) as a CSV line: text defused against
 * formulas, numbers left as numbers (4,5 in a semicolon file).
 */
export function itemCsvRow(row: ExportedItem, format: CsvFormat = STANDARD_CSV, byLocation = false): string {
  const comma = decimalCommaIn(format);
  return csvLine(
    [
      csvTextCell(row.name),
      csvTextCell(row.sku),
      csvTextCell(row.barcode),
      csvTextCell(row.category_name),
      ...(byLocation ? [csvTextCell(row.site ?? null), csvTextCell(row.location ?? null)] : []),
      csvNumberCell(Number(row.quantity), comma),
      csvNumberCell(Number(row.price), comma),
      csvNumberCell(Number(row.threshold), comma),
      csvTextCell(row.description),
      csvTextCell(row.expiry_date === null ? null : String(row.expiry_date)),
      csvTextCell(row.image_url),
      csvTextCell(row.currency),
    ],
    CSV_DELIMITERS[format.delimiter],
  );
}
