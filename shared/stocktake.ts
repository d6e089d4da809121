// Stocktakes: a count session's events and the API's shapes. A session's stream
// is `stocktake-{id}`. Counts carry the moment they were counted (the counting phone's
// clock), because a count is compared with the stock the item had at that moment, not
// with the stock when the count reaches the server: sales made meanwhile stay counted once.

// 'categories' counts several categories at once; 'low-stock' the items at or below their
// threshold when the count starts. The manager chooses the scope: a count that started on
// the first category by itself counted what nobody asked for.
export const STOCKTAKE_SCOPES = ['category', 'categories', 'items', 'low-stock', 'store'] as const;
export type StocktakeScope = (typeof STOCKTAKE_SCOPES)[number];

/** Who did something, as events record it (the event store's Actor). */
export interface PersonRef {
  uid: string | null;
  name: string;
}

/** How far a phone's clock may run ahead of the server's before its count is refused. */
export const COUNT_CLOCK_SKEW_MS = 2 * 60_000;

export interface StocktakeStartedData {
  stocktakeId: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
  /** The categories of a 'categories' count (absent for other scopes). */
  categoryIds?: string[];
  /** The items to count, fixed when the session starts. */
  itemIds: string[];
}

export interface StockCountedData {
  itemId: string;
  counted: number;
  /** ISO time the item was counted, by the counting device's clock. */
  countedAt: string;
}

/**
 * A line of StocktakeLinesApproved. No expected quantity or difference here: stocktake events
 * go live to everyone who counts, and staff count blind. What was posted is the item's `count`
 * adjustment at `adjustmentVersion` (its delta is counted - expected); the projection reads it.
 */
export interface ApprovedLine {
  itemId: string;
  /** The StockCounted event whose number was posted. */
  countId: string;
  /**
   * Who counted it (that StockCounted event's actor): the approval is the event's own actor.
   * Absent in events written before it was recorded (the count's event still names them).
   */
  countedBy?: PersonRef;
  counted: number;
  countedAt: string;
  /** The item stream's version of the `count` adjustment posted with this approval; null when none (no difference). */
  adjustmentVersion: number | null;
  /** Only in events written before adjustmentVersion existed (they carried the numbers). */
  expected?: number;
  delta?: number;
}

export type StocktakeEvent =
  | { type: 'StocktakeStarted'; data: StocktakeStartedData }
  | { type: 'StockCounted'; data: StockCountedData }
  | { type: 'StocktakeLinesApproved'; data: { lines: ApprovedLine[] } }
  | { type: 'StocktakeClosed'; data: { approvedLines: number } };

export const stocktakeStream = (id: string) => ({ id: `stocktake-${id}`, type: 'stocktake' });

// ---- API shapes ----

export interface StartStocktakeBody {
  name?: string;
  scope: StocktakeScope;
  /** For scope 'category'. */
  categoryId?: string;
  /** For scope 'categories'. */
  categoryIds?: string[];
  /** For scope 'items'. */
  itemIds?: string[];
}

export interface SubmitCountBody {
  itemId: string;
  counted: number;
  countedAt: string;
}

export interface ApproveLineBody {
  /** Which count to post when the item was counted twice with different results. */
  countId?: string;
}

export type StocktakeStatus = 'open' | 'closed';
export type LineStatus = 'uncounted' | 'counted' | 'conflict' | 'approved';

export interface StocktakeCount {
  id: string;
  itemId: string;
  counted: number;
  countedAt: string;
  countedBy: string;
  /** Quantity at countedAt; null for people who count blind (no Run stocktakes) or a deleted item. */
  expected: number | null;
  difference: number | null;
}

export interface StocktakeLine {
  itemId: string;
  name: string;
  sku: string;
  barcode: string | null;
  price: number;
  status: LineStatus;
  /** The count that applies (the latest; for a conflict, null until the manager picks one). */
  counted: number | null;
  countedAt: string | null;
  expected: number | null;
  difference: number | null;
  /** difference x price at the moment of counting. */
  value: number | null;
  counts: StocktakeCount[];
  /** Who counted the count that applies (once approved: the one that was posted); null when none applies. */
  countedBy: string | null;
  /** Set once approved: what was posted, when and by whom. */
  approvedAt: string | null;
  approvedBy: string | null;
}

export interface StocktakeTotals {
  expected: number | null;
  counted: number;
  difference: number | null;
  value: number | null;
}

export interface StocktakeSummary {
  id: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
  status: StocktakeStatus;
  startedAt: string;
  startedBy: string;
  closedAt: string | null;
  toCount: number;
  counted: number;
  conflicts: number;
  approved: number;
  version: number;
}

export interface StocktakeSession extends StocktakeSummary {
  lines: StocktakeLine[];
  totals: StocktakeTotals;
  /** False for a viewer who counts blind: expected quantities and values are left out. */
  showsVariance: boolean;
}
