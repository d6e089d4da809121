// The item commands the API's bodies make (checked by their schemas): what a route hands to
// ItemService. Field rules are the decisions' (decide.ts); these only map names and fill in
// what a body may leave out.
import { randomUUID } from 'node:crypto';
import type { AdjustStockBody, CreateItemBody, UpdateItemBody } from '../../shared/inventory.js';
import type { ItemFields } from '../../shared/inventory-events.js';
import type { AdjustStock, CreateItem, UpdateItem } from './decide.js';

/** A new item, with its id. */
export const createItemCommand = (body: CreateItemBody): CreateItem => ({
  itemId: randomUUID(),
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

/** An edit: the fields the body sets (the others are left as they are). */
export const updateItemCommand = (body: UpdateItemBody): UpdateItem => ({
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

/** A stock adjustment; `occurredAt` as the device sent it (recordAdjustment checks it). */
export const adjustStockCommand = (body: AdjustStockBody): AdjustStock => ({
  delta: body.delta,
  reason: body.reason,
  note: body.note?.trim() || null,
  ...(body.occurredAt === undefined ? {} : { occurredAt: new Date(body.occurredAt) }),
});
