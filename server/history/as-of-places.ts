// The items at a site or location as of a moment, with their units there then
// (`quantityHere`), as the live list filtered by place answers now. Where stock was is not in
// the history projection's item versions (they keep totals), so it is folded from the items'
// events up to the moment with the fold the decisions use (levelsAfter, shared/inventory-fold.ts):
// any event that moves stock between locations is counted as it is counted live.
//
// Only items that could have been there are folded: those with a stock_levels row at one of
// the place's locations now (a row stays, at 0, once an item was ever there, so every item
// that was there then has one), and items of that moment deleted since (a delete takes their
// rows away). Pages follow the live list's order (newest first) and cursor; a page folds
// candidates in chunks until it has enough, so its cost grows with the items ever placed
// there, not with the store.
import { sql, type Kysely } from 'kysely';
import type { Item } from '../../shared/inventory.js';
import type { InventoryEvent, StockLevels } from '../../shared/inventory-events.js';
import { levelsAfter } from '../../shared/inventory-fold.js';
import type { DB } from '../db/schema.js';
import { decodeItemCursor, encodeItemCursor } from '../inventory/item-cursor.js';
import { toItem, type ItemRow } from '../inventory/item-rows.js';
import { locationsInside } from '../inventory/location-subtree.js';
import { asOfItemColumns, validAt } from './as-of-queries.js';

/** A list's place: a site, a location, or a location that must be at the site. */
export interface AsOfPlace {
  siteId?: string;
  locationId?: string;
}

/** Items folded per statement: enough to fill a page in one or two, few enough to stay small. */
const CHUNK = 500;

type CandidateRow = ItemRow & { created_key: string };

/**
 * The location ids of the place (any, archived too: stock was there before it was archived);
 * a location's with those inside it, in the tree as it is now (as the live list).
 */
async function locationsOf(db: Kysely<DB>, place: AsOfPlace): Promise<Set<string>> {
  const conditions = [
    ...(place.siteId ? [sql`site_id = ${place.siteId}::uuid`] : []),
    ...(place.locationId ? [sql`id in ${locationsInside(place.locationId)}`] : []),
  ];
  const rows = await sql<{ id: string }>`select id::text as id from locations
    where ${sql.join(conditions, sql` and `)}`.execute(db);
  return new Set(rows.rows.map((r) => r.id.toLowerCase()));
}

/** The items of moment `t` that may have been at the locations, newest first, after the cursor. */
async function candidates(db: Kysely<DB>, t: Date, locations: Set<string>, cursor?: string): Promise<CandidateRow[]> {
  const after = cursor ? decodeItemCursor(cursor) : null;
  const where = after
    ? sql`and (v.created_at, v.item_id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const ids = JSON.stringify([...locations]);
  const rows = await sql<CandidateRow>`select ${asOfItemColumns(t)},
      to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key
    from item_versions v
    where ${validAt('v', t)} ${where} and (
      v.item_id in (select s.item_id from stock_levels s
        where s.location_id in (select x::uuid from jsonb_array_elements_text(${ids}::jsonb) x))
      or not exists (select 1 from items i where i.id = v.item_id))
    order by v.created_at desc, v.item_id desc`.execute(db);
  return rows.rows;
}

/** Each item's levels at `t`: its events recorded up to then, folded. */
async function levelsAt(db: Kysely<DB>, t: Date, itemIds: string[]): Promise<Map<string, StockLevels>> {
  const streams = JSON.stringify(itemIds.map((id) => `item-${id}`));
  const rows = await sql<{ stream_id: string; type: string; data: unknown }>`select e.stream_id, e.type, e.data
    from events e
    where e.stream_id in (select jsonb_array_elements_text(${streams}::jsonb)) and e.created_at <= ${t}::timestamptz
    order by e.stream_id, e.stream_version`.execute(db);
  const levels = new Map<string, StockLevels>();
  for (const row of rows.rows) {
    const id = row.stream_id.slice('item-'.length);
    const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
    const before = levels.get(id) ?? {};
    // An event that moves no stock (an edit, a low-stock crossing) leaves the levels as they were.
    levels.set(id, levelsAfter(before, { type: row.type, data } as InventoryEvent) ?? before);
  }
  return levels;
}

/** Units at the locations, and whether the item was ever at one of them by then. */
function unitsAt(levels: StockLevels, locations: Set<string>): { placed: boolean; units: number } {
  let placed = false;
  let units = 0;
  for (const [id, n] of Object.entries(levels)) {
    if (!locations.has(id.toLowerCase())) continue;
    placed = true;
    units += n;
  }
  return { placed, units };
}

/** The items placed at the site or location at `t`, newest first, each with its units there then. */
export async function itemsPlacedAt(
  db: Kysely<DB>,
  t: Date,
  place: AsOfPlace,
  limit: number,
  cursor?: string,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const locations = await locationsOf(db, place);
  if (locations.size === 0) return { items: [], nextCursor: null };
  const rows = await candidates(db, t, locations, cursor);
  const found: CandidateRow[] = [];
  for (let start = 0; start < rows.length && found.length <= limit; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const levels = await levelsAt(
      db,
      t,
      chunk.map((row) => row.id),
    );
    for (const row of chunk) {
      const here = unitsAt(levels.get(row.id) ?? {}, locations);
      if (here.placed) found.push({ ...row, quantity_here: here.units });
    }
  }
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    nextCursor: found.length > limit && last ? encodeItemCursor(last) : null,
  };
}
