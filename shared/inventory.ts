// Inventory and category shapes shared by server and client: API responses, event data,
// and the adjustment reasons. The field names are the public API's: renaming one breaks
// the scripts and tills that call it.
import type { SentencePart } from './change-sentence.js';
import type { MoneyFormat } from './money-format.js';

export const ADJUST_REASONS = ['sale', 'restock', 'correction', 'damage', 'count'] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

/** An inventory item as the API returns it (with its version, for optimistic concurrency). */
export interface Item {
  id: string;
  name: string;
  description: string;
  sku: string;
  /** The category's name. */
  category: string;
  categoryId: string;
  category_id: string;
  quantity: number;
  price: number;
  threshold: number;
  imageUrl: string | null;
  image_url: string | null;
  /** Optional expiry date, YYYY-MM-DD. */
  expiryDate: string | null;
  /** EAN-13, UPC-A, EAN-8 or Code 128 text (shared/barcode.ts); unique per store. */
  barcode: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  /** In a list filtered by site or location: the units there (`quantity` stays the total). */
  quantityHere?: number;
}

export interface Category {
  id: string;
  name: string;
  description: string;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** Body of POST /api/inventory (snake_case; created_by is ignored: the server knows who asks). */
export interface CreateItemBody {
  name: string;
  description?: string;
  sku: string;
  category_id: string;
  quantity: number;
  price: number;
  threshold: number;
  image_url?: string | null;
  expiry_date?: string | null;
  /** An empty string or null means no barcode. */
  barcode?: string | null;
  created_by?: string;
  /** Where its opening quantity is; absent: the default location of the caller's site. */
  location_id?: string;
}

/**
 * Body of PUT /api/inventory/{id}: any subset; expected_version (or If-Match) guards against
 * lost updates. A changed quantity is a count at the default location of the caller's site.
 */
export type UpdateItemBody = Partial<Omit<CreateItemBody, 'created_by' | 'location_id'>> & {
  expected_version?: number;
};

export interface AdjustStockBody {
  delta: number;
  reason: AdjustReason;
  note?: string;
  /**
   * When the change was made, by the device's clock, for one sent later (the offline outbox):
   * a stocktake counts it as before a count made after this moment, even if recorded later.
   */
  occurredAt?: string;
  /** Where the stock is taken or put; absent: the default location of the caller's site. */
  locationId?: string;
}

/** Body of POST /api/moves: units of one item from one location to another of the same site. */
export interface MoveStockBody {
  itemId: string;
  fromLocationId: string;
  toLocationId: string;
  quantity: number;
  note?: string;
}

/** GET /api/inventory/{id}/locations: where an item's stock is. */
export interface ItemLocations {
  itemId: string;
  /** The item's quantity on hand: the sum over its locations. */
  total: number;
  /** Units shipped by a transfer and not received or written off yet (not part of `total`). */
  inTransit: number;
  /** Every location it was ever at (0 where it is no more), by site and location name. */
  locations: Array<{
    siteId: string;
    siteName: string;
    locationId: string;
    locationName: string;
    locationCode: string;
    /** Names from the site's top level down to the location: ["Back room", "Shelf 2", "Bin 14"]. */
    locationPath: string[];
    archived: boolean;
    quantity: number;
  }>;
}

/** The oldest occurredAt an adjustment may carry: an outbox that waited longer sends it as new. */
export const ADJUST_MAX_AGE_MS = 7 * 86_400_000;

export interface CategoryItemsPage {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** A location as a history entry names it: its id and its name now. */
export interface NamedLocation {
  id: string;
  name: string;
}

/** One entry of GET /api/inventory/{id}/history. */
export interface HistoryEntry {
  version: number;
  type:
    | 'ItemCreated'
    | 'ItemUpdated'
    | 'StockAdjusted'
    | 'StockMoved'
    | 'StockShipped'
    | 'StockReceived'
    | 'TransitWrittenOff'
    | 'ItemDeleted';
  actor: { uid: string | null; name: string };
  timestamp: string;
  reason: AdjustReason | null;
  note: string | null;
  delta: number | null;
  /** A stocktake's `count` adjustment: who counted the number posted (the actor approved it). */
  countedBy?: string | null;
  changes: FieldChange[];
  /** The event this entry shows: what Revert and Undo name. */
  eventId?: string;
  /** This entry reverts an earlier change: "Reverted: {summary}", and why. */
  reverts?: { eventId: string; summary: string; reason: string | null } | null;
  /** This change was reverted since: by whom and when. */
  revertedBy?: { name: string; at: string } | null;
  /** On an entry that sets a price: the store's currency and locale when it happened, the price's own. */
  money?: MoneyFormat;
  /** Where an adjustment or a creation put or took its stock (absent: where the store kept it before it had places). */
  location?: NamedLocation;
  /** A move: how many units went from where to where. */
  moved?: { quantity: number; from: NamedLocation; to: NamedLocation };
  /**
   * A transfer's step on the item (shipped from `location`, received at it, or units in transit
   * written off): which transfer, by id and number (null: not known any more), and how many units.
   */
  transfer?: { id: string; number: number | null; quantity: number; reason?: string };
}

export type ActivityAction = 'create' | 'update' | 'delete';
export type ResourceType = 'inventory' | 'category' | 'stocktake' | 'site' | 'location' | 'transfer';

export interface ActivityEntry {
  id: string;
  userId: string | null;
  userName: string;
  action: ActivityAction;
  resourceType: ResourceType;
  resourceId: string;
  resourceName: string;
  timestamp: string;
  /** What changed, in a sentence: "-5 (sale) Milk, by Sam, note: table 4" (shared/change-sentence.ts). */
  details: string;
  /** The same sentence in parts (names, numbers, who), for screens that emphasise some. */
  summary?: SentencePart[];
  /** The event behind the entry (what Revert names), and whether it was reverted since. */
  eventId?: string | null;
  reverted?: boolean;
  /** That event's type ("TransferShipped"): which entries of a transfer are steps to undo. */
  eventType?: string | null;
}

export interface ActivityPage {
  entries: ActivityEntry[];
  nextCursor: string | null;
}

/** Stock status: at or below threshold critical, up to twice it low, healthy above. */
export type StockStatus = 'critical' | 'low' | 'healthy';

export function isLowStock(item: { quantity: number; threshold: number }): boolean {
  return item.quantity <= item.threshold;
}

export function stockStatus(item: { quantity: number; threshold: number }): StockStatus {
  if (item.quantity <= item.threshold) return 'critical';
  if (item.quantity <= item.threshold * 2) return 'low';
  return 'healthy';
}
