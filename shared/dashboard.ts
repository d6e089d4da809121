// Dashboard and wall-display figures, computed by the server from projections
// (GET /api/dashboard and GET /api/dashboard/display). Money is in the store's currency,
// which each answer carries (`money`), so the screen writes it as the store does.
import type { ActivityEntry } from './inventory.js';
import type { MoneyFormat } from './money-format.js';

export interface DashboardTotals {
  items: number;
  categories: number;
  /** Units on hand across all items. */
  units: number;
  /** Sum of quantity x unit price. */
  value: number;
  /** Items at or below their threshold. */
  lowStock: number;
}

export interface RevenueFigures {
  /** Sales adjustments x unit price over the last 30 days; a reverted sale is no sale. */
  last30Days: number;
  /** The same over the 30 days before. */
  previous30Days: number;
  /** Change against the previous 30 days, in percent; null when there were no sales before. */
  changePercent: number | null;
  unitsSold: number;
  /**
   * Revenue projected for the next 30 days at the daily pace of the last 30 (of the days
   * since the store's first stock, when it is younger than that); null while the store has
   * less than MIN_FORECAST_DAYS of history, too little to project a month from.
   */
  forecastNext30Days: number | null;
  /** Days of sales the forecast's pace is taken from: 1 to 30 (today counts as one). */
  forecastBasisDays: number;
}

export interface TopSellingItem {
  itemId: string;
  name: string;
  category: string;
  /** Units sold over the last 30 days. */
  sold: number;
  revenue: number;
}

export interface NearExpiryItem {
  itemId: string;
  name: string;
  category: string;
  quantity: number;
  /** YYYY-MM-DD */
  expiryDate: string;
  daysLeft: number;
}

export interface InventoryHealth {
  /** Share of items above their threshold, 0-100; null when there are no items. */
  stockLevelPercent: number | null;
  itemsAboveThreshold: number;
  /** Units sold in 30 days / average units on hand over those days; null without stock. */
  turnover: number | null;
  reorderAlerts: {
    /** Items low right now. */
    open: number;
    /** Times an item went low in the last 30 days. */
    raisedLast30Days: number;
  };
  /** Average hours from an item going low to the stock movement that cleared it (last 30 days). */
  avgRestockHours: number | null;
  /**
   * Low items cleared by stock coming in over the last 30 days: not by a revert (a sale taken
   * back) and not by a restock reverted since, which was never received.
   */
  restocksCounted: number;
}

export interface StockValuePoint {
  /** YYYY-MM-DD (UTC), the value at the end of that day. */
  date: string;
  value: number;
  units: number;
}

export interface DashboardSummary {
  generatedAt: string;
  totals: DashboardTotals;
  revenue: RevenueFigures;
  topSelling: TopSellingItem[];
  nearExpiry: NearExpiryItem[];
  recentActivity: ActivityEntry[];
  health: InventoryHealth;
  /** 30 points, oldest first, ending today. */
  stockValue: StockValuePoint[];
  /** The store's currency and locale now (an as-of answer too: prices are not converted). */
  money: MoneyFormat;
  /**
   * Open low-stock alerts by site, in a store of several sites (null in a store of one, and
   * as of a moment): an item watched per site counts at each site where it is low.
   */
  lowStockBySite?: SiteLowStock[] | null;
}

export interface SiteLowStock {
  siteId: string;
  siteName: string;
  /** Open alerts about the site. */
  count: number;
  /** Of them, out of stock there. */
  out: number;
}

export interface DisplayAlert {
  itemId: string;
  name: string;
  category: string;
  /** On a display of a place, the units there (at a location: in it and the locations inside it). */
  quantity: number;
  threshold: number;
  since: string;
  /** The site of an alert per site (shared/alerts.ts LowStockAlert.siteId). */
  siteId?: string | null;
  /** The site the alert is about, on a display of the whole store with several sites. */
  siteName?: string | null;
}

/** The place a wall display shows: a site, or a location (with the locations inside it). */
export interface DisplayPlace {
  kind: 'site' | 'location';
  id: string;
  name: string;
  /** The site, for a location. */
  siteName: string;
}

export interface CategoryStock {
  categoryId: string;
  name: string;
  itemCount: number;
  units: number;
  value: number;
  lowCount: number;
}

/** What the wall display shows, in one request. */
export interface DisplaySnapshot {
  generatedAt: string;
  storeName: string;
  /** Out of stock first, then newest first. */
  alerts: DisplayAlert[];
  alertCount: number;
  categories: CategoryStock[];
  recentActivity: ActivityEntry[];
  /** The store's currency and locale. */
  money: MoneyFormat;
  /** The place shown (?siteId= or ?locationId=): alerts and stock by category are those there. Absent: the whole store. */
  place?: DisplayPlace | null;
}

/**
 * Days of history a revenue forecast waits for. Projected from a few
 * hours, one morning's sales became a month's revenue; below a week there is no forecast
 * (forecastNext30Days is null) and the card says how many days there are so far instead.
 */
export const MIN_FORECAST_DAYS = 7;

/** Days a near-expiry list looks ahead. */
export const NEAR_EXPIRY_DAYS = 30;

/** 'Expires in N days', with today and tomorrow said plainly. */
export function expiryText(daysLeft: number): string {
  if (daysLeft <= 0) return 'Expires today';
  if (daysLeft === 1) return 'Expires in 1 day';
  return `Expires in ${daysLeft} days`;
}
