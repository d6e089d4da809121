// The item commands the API's bodies make (checked by their schemas): what a route hands to
// ItemService. Field rules are the decisions' (decide.ts); these only map names and fill in
// what a body may leave out.
import { randomUUID } from 'node:crypto';
import type { AdjustStockBody, CreateItemBody, MoveStockBody, UpdateItemBody } from '../../shared/inventory.js';
import type { ItemFields } from '../../shared/inventory-events.js';
import type { AdjustStock, CreateItem, MoveStock, UpdateItem } from './decide.js';
import type { SiteCheck } from './stock-places.js';

/** A new item, with its id; its opening quantity at the location the body names (else the site's default). */
export const createItemCommand = (body: CreateItemBody, siteId: string, atSite?: SiteCheck): CreateItem => ({
  itemId: randomUUID(),
  siteId,
  ...(atSite ? { atSite } : {}),
  ...(body.location_id === undefined ? {} : { locationId: body.location_id.toLowerCase() }),
  fields: {
    name: body.name,
    description: body.description ?? '',
    sku: body.sku,
    categoryId: body.category_id,
    quantity: body.quantity,
    price: body.price,
    threshold: body.threshold,
    imageUrl: body.image_url ?? null,
    expiryDate: body.expiry_date ?? null,
    barcode: body.barcode ?? null,
  },
});

/** An edit: the fields the body sets (the others are left as they are); a quantity is counted at `siteId`'s default location. */
export const updateItemCommand = (body: UpdateItemBody, siteId: string, atSite?: SiteCheck): UpdateItem => ({
  siteId,
  ...(atSite ? { atSite } : {}),
  changes: {
    name: body.name,
    description: body.description,
    sku: body.sku,
    categoryId: body.category_id,
    quantity: body.quantity,
    price: body.price,
    threshold: body.threshold,
    imageUrl: body.image_url,
    expiryDate: body.expiry_date,
    barcode: body.barcode,
  } satisfies Partial<ItemFields>,
});

/**
 * A stock adjustment; `occurredAt` as the device sent it (recordAdjustment checks it); at the
 * location the body names, else at the default location of `siteId` (the caller's site).
 */
export const adjustStockCommand = (body: AdjustStockBody, siteId: string, atSite?: SiteCheck): AdjustStock => ({
  ...(atSite ? { atSite } : {}),
  delta: body.delta,
  reason: body.reason,
  note: body.note?.trim() || null,
  ...(body.occurredAt === undefined ? {} : { occurredAt: new Date(body.occurredAt) }),
  ...(body.locationId === undefined ? {} : { locationId: body.locationId.toLowerCase() }),
  siteId,
});

/** A move of stock between two locations of a site. */
export const moveStockCommand = (body: MoveStockBody, atSite?: SiteCheck): MoveStock => ({
  ...(atSite ? { atSite } : {}),
  fromLocationId: body.fromLocationId.toLowerCase(),
  toLocationId: body.toLocationId.toLowerCase(),
  quantity: body.quantity,
  note: body.note?.trim() || null,
});
