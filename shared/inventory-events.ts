// Inventory and category events: past-tense facts, data only. Streams are `item-{id}`
// and `category-{id}`. Every unit of an item's stock is at a location (shared/places.ts):
// events that put stock somewhere name where, and one that names nowhere was written before
// places existed, when all stock was at MAIN_LOCATION_ID. An item's `quantity` is what it
// has on hand: the sum over its locations, so readers of the total never need the locations.
// Units shipped by a transfer between sites and not yet received (or written off) are its
// `inTransit`, apart from the quantity: moves and a transfer's shipping and receiving never
// change quantity + inTransit, only adjustments and a write-off of units in transit do.
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

/** Units of an item by location id. */
export type StockLevels = Record<string, number>;

export type InventoryEvent =
  | {
      type: 'ItemCreated';
      /**
       * locationId: where its opening `quantity` is (absent: MAIN_LOCATION_ID). levels: the
       * quantity spread over several locations, written by a revert of a delete so the item
       * comes back where its stock was (its sum is `quantity`); it wins over locationId.
       */
      data: ItemFields & { itemId: string; locationId?: string; levels?: StockLevels };
    }
  | { type: 'ItemUpdated'; data: { changes: Changes<Omit<ItemFields, 'quantity'>> } }
  | {
      type: 'StockAdjusted';
      /**
       * quantity: the item's total after it. locationId: where the delta happened (absent:
       * MAIN_LOCATION_ID). occurredAt: when it was made, if before it was recorded (an outbox's
       * replay; see AdjustStockBody).
       */
      data: {
        delta: number;
        reason: AdjustReason;
        note: string | null;
        quantity: number;
        locationId?: string;
        occurredAt?: string;
      };
    }
  | {
      /** Units taken from one location to another of the same site: the total does not change. */
      type: 'StockMoved';
      data: { fromLocationId: string; toLocationId: string; quantity: number; note?: string | null };
    }
  | {
      /**
       * A transfer's shipment (shared/transfers.ts, stream transfer-{transferId}) took units
       * from a location of its source site into transit. quantityAfter and inTransitAfter:
       * the item's quantity on hand and its units in transit after it.
       */
      type: 'StockShipped';
      data: {
        itemId: string;
        transferId: string;
        fromLocationId: string;
        quantity: number;
        quantityAfter: number;
        inTransitAfter: number;
      };
    }
  | {
      /** Units in transit received at a location of the transfer's destination site. */
      type: 'StockReceived';
      data: {
        itemId: string;
        transferId: string;
        toLocationId: string;
        quantity: number;
        quantityAfter: number;
        inTransitAfter: number;
      };
    }
  | {
      /** Units in transit that will never arrive, written off with a reason: a loss, as a negative adjustment is. */
      type: 'TransitWrittenOff';
      data: { itemId: string; transferId: string; quantity: number; reason: string; inTransitAfter: number };
    }
  | { type: 'ItemWentLow'; data: { quantity: number; threshold: number } }
  | { type: 'ItemRecovered'; data: { quantity: number; threshold: number } }
  | {
      /**
       * The item's own low-stock threshold at one site (null: cleared, the site uses the
       * item's threshold again). See shared/site-low-stock.ts.
       */
      type: 'SiteThresholdSet';
      data: { siteId: string; threshold: number | null };
    }
  /**
   * The low-stock crossings at one site (its units: the sum over its locations), for items
   * watched per site (shared/site-low-stock.ts); the item's own crossings above stay those of
   * its total.
   */
  | { type: 'SiteWentLow'; data: { siteId: string; quantity: number; threshold: number } }
  | { type: 'SiteRecovered'; data: { siteId: string; quantity: number; threshold: number } }
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
