// Inventory and category events: past-tense facts, data only. Streams are `item-{id}`
// and `category-{id}`.
import type { AdjustReason } from './inventory.js';

export interface ItemFields {
  name: string;
  description: string;
  sku: string;
  categoryId: string;
  quantity: number;
  price: number;
  threshold: number;
  imageUrl: string | null;
  expiryDate: string | null;
  /**
   * EAN-13, UPC-A, EAN-8 or Code 128 text (shared/barcode.ts), unique per store. Events
   * written before barcodes existed have no such field: read it as `barcode ?? null`.
   */
  barcode: string | null;
}

export type EditableItemField = Exclude<keyof ItemFields, 'quantity'>;

export type Changes<T> = { [K in keyof T]?: { from: T[K]; to: T[K] } };

export type InventoryEvent =
  | { type: 'ItemCreated'; data: ItemFields & { itemId: string } }
  | { type: 'ItemUpdated'; data: { changes: Changes<Omit<ItemFields, 'quantity'>> } }
  | {
      type: 'StockAdjusted';
      /** occurredAt: when it was made, if before it was recorded (an outbox's replay; see AdjustStockBody). */
      data: { delta: number; reason: AdjustReason; note: string | null; quantity: number; occurredAt?: string };
    }
  | { type: 'ItemWentLow'; data: { quantity: number; threshold: number } }
  | { type: 'ItemRecovered'; data: { quantity: number; threshold: number } }
  | { type: 'ItemDeleted'; data: { name: string; sku: string } };

export interface CategoryFields {
  name: string;
  description: string;
}

export type CategoryEvent =
  | { type: 'CategoryCreated'; data: CategoryFields & { categoryId: string } }
  | { type: 'CategoryUpdated'; data: { changes: Changes<CategoryFields> } }
  | { type: 'CategoryDeleted'; data: { name: string } };

export const itemStream = (id: string) => ({ id: `item-${id}`, type: 'item' });
export const categoryStream = (id: string) => ({ id: `category-${id}`, type: 'category' });
