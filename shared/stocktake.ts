// Stocktakes: a count session's events and the API's shapes. A session's stream
// is `stocktake-{id}`. Counts carry the moment they were counted (the counting phone's
// clock), because a count is compared with the stock the item had at that moment, not
// with the stock when the count reaches the server: sales made meanwhile stay counted once.
// A session counts at a place: a whole site (all its locations) or one location (with the
// locations inside it). Counts are per item and location, and posting one changes the stock
// at that location only: counting the back room never changes the shelf. Sessions from
// before places count at Main location (shared/places.ts), as all stock then was.
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from './places.js';

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
  /** The site counted. Absent in sessions from before places: MAIN_SITE_ID. */
  siteId?: string;
  /** The location counted (with those inside it); null: the whole site. Absent before places: MAIN_LOCATION_ID. */
  locationId?: string | null;
  /** The locations counts may name, fixed at the start. Absent before places: [MAIN_LOCATION_ID]. */
  locationIds?: string[];
  /**
   * Where counts go when they name no location (old phones, queued counts of old sessions):
   * the location counted, or the site's default location. Absent before places: MAIN_LOCATION_ID.
   */
  homeLocationId?: string;
  /**
   * Each item's lines (parallel to itemIds): the indexes in locationIds of the locations it is
   * counted at (those of the place where it has stock rows; else the home location). Absent:
   * every item at homeLocationId.
   */
  lineLocations?: number[][];
}

/** Where a session counts, for events written before places named it. */
export function sessionPlace(d: StocktakeStartedData): {
  siteId: string;
  locationId: string | null;
  locationIds: string[];
  homeLocationId: string;
} {
  const home = d.homeLocationId ?? MAIN_LOCATION_ID;
  return {
    siteId: d.siteId ?? MAIN_SITE_ID,
    locationId: d.locationId === undefined ? MAIN_LOCATION_ID : d.locationId,
    locationIds: d.locationIds ?? [home],
    homeLocationId: home,
  };
}

/** The (item, location) lines a session starts with, in order. */
export function startedLines(d: StocktakeStartedData): { itemId: string; locationId: string }[] {
  const { locationIds, homeLocationId } = sessionPlace(d);
  return d.itemIds.flatMap((itemId, i) => {
    const at = d.lineLocations?.[i];
    return at?.length
      ? at.map((k) => ({ itemId, locationId: locationIds[k] ?? homeLocationId }))
      : [{ itemId, locationId: homeLocationId }];
  });
}

export interface StockCountedData {
  itemId: string;
  /** Where it was counted. Absent (old sessions, old phones): the session's home location. */
  locationId?: string;
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
  /** The line's location (its adjustment was made there). Absent before places: the session's home location. */
  locationId?: string;
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
  /** The site to count (all its locations). Neither this nor locationId: the caller's site. */
  siteId?: string;
  /** The location to count, with the locations inside it (its site is implied). */
  locationId?: string;
}

export interface SubmitCountBody {
  itemId: string;
  /** Where it was counted; absent: the session's home location (the location counted, or the site's default). */
  locationId?: string;
  counted: number;
  countedAt: string;
}

export interface ApproveLineBody {
  /** Which count to post when the item was counted twice with different results. */
  countId?: string;
  /** Which of the item's lines: needed when it is counted at several locations (a countId implies its own). */
  locationId?: string;
}

export type StocktakeStatus = 'open' | 'closed';
export type LineStatus = 'uncounted' | 'counted' | 'conflict' | 'approved';

export interface StocktakeCount {
  id: string;
  itemId: string;
  locationId: string;
  counted: number;
  countedAt: string;
  countedBy: string;
  /** Quantity at the count's location at countedAt; null for people who count blind (no Run stocktakes) or a deleted item. */
  expected: number | null;
  difference: number | null;
}

/** One line of a session: an item at a location. */
export interface StocktakeLine {
  itemId: string;
  locationId: string;
  /** The location's name (with its parent's when it is inside another: "Back room › Shelf 2"). */
  locationName: string;
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

/** A place a session may count at. */
export interface StocktakePlace {
  id: string;
  name: string;
}

export interface StocktakeSummary {
  id: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
  siteId: string;
  siteName: string;
  /** The location counted (with those inside it); null: the whole site. */
  locationId: string | null;
  /** "Main store" or "Main store › Back room": where the count is. */
  placeName: string;
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
  /** Where counts may be made, in the order the count page offers them; a count naming none goes to the first. */
  locations: StocktakePlace[];
  lines: StocktakeLine[];
  totals: StocktakeTotals;
  /** False for a viewer who counts blind: expected quantities and values are left out. */
  showsVariance: boolean;
}

/** A line's key within its session: an item at a location. */
export const lineKey = (line: { itemId: string; locationId: string }) => `${line.itemId}@${line.locationId}`;
