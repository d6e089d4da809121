// Rows of the items table mapped to the API's Item shape (the one place this happens).
import type { Item } from '../../shared/inventory.js';
import type { StockLevels } from '../../shared/inventory-events.js';
import type { ItemState } from './item-state.js';

export interface ItemRow {
  id: string;
  name: string;
  description: string;
  sku: string;
  category_id: string;
  category_name: string;
  quantity: number;
  price: number;
  threshold: number;
  image_url: string | null;
  expiry_date: Date | string | null;
  barcode: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  /** Read by itemStateColumns: units by location, as JSON. */
  levels?: unknown;
  /** Read by itemStateColumns: the site of each location in `levels`, and the item's own thresholds by site, as JSON. */
  level_sites?: unknown;
  site_thresholds?: unknown;
  in_transit?: number;
  /** Read with a stock command's lock: the locations it names (places-sql.ts). */
  places?: unknown;
  /** Read by a list filtered by site or location: the units there. */
  quantity_here?: number | string | null;
}

export const itemColumns = `id, name, description, sku, category_id, category_name, quantity, price, threshold,
  image_url, to_char(expiry_date, 'YYYY-MM-DD') as expiry_date, barcode, version, created_at, updated_at`;

/**
 * The columns an item's decisions read (itemColumns and where its stock is), from `items`
 * unaliased: the levels of its stock_levels rows, which the items projection keeps in the
 * same transaction as every append, like the row itself, with their sites, and the item's
 * own thresholds by site (for its low-stock crossings per site, shared/site-low-stock.ts).
 */
export const itemStateColumns = `${itemColumns}, in_transit, site_thresholds,
  (select coalesce(json_object_agg(s.location_id, s.quantity), '{}'::json) from stock_levels s where s.item_id = items.id) as levels,
  (select coalesce(json_object_agg(s.location_id, s.site_id), '{}'::json) from stock_levels s where s.item_id = items.id) as level_sites`;

const jsonOf = (raw: unknown) =>
  (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, number | string> | null | undefined;

function levelsOf(raw: unknown): StockLevels {
  return Object.fromEntries(Object.entries(jsonOf(raw) ?? {}).map(([id, n]) => [id.toLowerCase(), Number(n)]));
}

function sitesOf(raw: unknown): Record<string, string> {
  return Object.fromEntries(
    Object.entries(jsonOf(raw) ?? {}).map(([id, s]) => [id.toLowerCase(), String(s).toLowerCase()]),
  );
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toItem(row: ItemRow): Item {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sku: row.sku,
    category: row.category_name,
    categoryId: row.category_id,
    category_id: row.category_id,
    quantity: Number(row.quantity),
    price: Number(row.price),
    threshold: Number(row.threshold),
    imageUrl: row.image_url,
    image_url: row.image_url,
    expiryDate: row.expiry_date === null ? null : String(row.expiry_date),
    barcode: row.barcode,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    version: Number(row.version),
    ...(row.quantity_here === undefined || row.quantity_here === null
      ? {}
      : { quantityHere: Number(row.quantity_here) }),
  };
}

export function rowToState(row: ItemRow): ItemState {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sku: row.sku,
    categoryId: row.category_id,
    quantity: Number(row.quantity),
    price: Number(row.price),
    threshold: Number(row.threshold),
    imageUrl: row.image_url,
    expiryDate: row.expiry_date === null ? null : String(row.expiry_date),
    barcode: row.barcode,
    version: Number(row.version),
    deleted: false,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    // A row read without its levels (itemColumns) decides as if it held none anywhere.
    levels: levelsOf(row.levels),
    inTransit: Number(row.in_transit ?? 0),
    // Read with its levels, or not at all: then no crossing per site is decided (decide.ts).
    ...(row.level_sites === undefined
      ? {}
      : { levelSites: sitesOf(row.level_sites), siteThresholds: levelsOf(row.site_thresholds) }),
  };
}

/** An item folded from its events (as-of reads), shown with its category's current name. */
export function stateToItem(state: ItemState, categoryName: string): Item {
  return toItem({
    id: state.id,
    name: state.name,
    description: state.description,
    sku: state.sku,
    category_id: state.categoryId,
    category_name: categoryName,
    quantity: state.quantity,
    price: state.price,
    threshold: state.threshold,
    image_url: state.imageUrl,
    expiry_date: state.expiryDate,
    barcode: state.barcode,
    version: state.version,
    created_at: state.createdAt!,
    updated_at: state.updatedAt!,
  });
}
