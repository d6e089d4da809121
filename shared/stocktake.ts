// Stocktakes (issue 15): a count session's events and the API's shapes. A session's stream
// is `stocktake-{id}`. Counts carry the moment they were counted (the counting phone's
// clock), because a count is compared with the stock the item had at that moment, not
// with the stock when the count reaches the server: sales made meanwhile stay counted once.

export const STOCKTAKE_SCOPES = ['category', 'items', 'store'] as const;
export type StocktakeScope = (typeof STOCKTAKE_SCOPES)[number];

/** How far a phone's clock may run ahead of the server's before its count is refused. */
export const COUNT_CLOCK_SKEW_MS = 2 * 60_000;

export interface StocktakeStartedData {
  stocktakeId: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
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
  categoryId?: string;
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
  /** Set once approved: what was posted. */
  approvedAt: string | null;
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
