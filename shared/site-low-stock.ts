// Low stock per site. An item's units at a site are the sum of its levels at the site's
// locations; its threshold there is its own threshold for that site (SiteThresholdSet), else
// the item's threshold. An item is *watched per site* once that question differs from the
// one its total answers: it is kept at more than one site (a stock level there, even at 0),
// or it has a threshold of its own at some site. Then every site it is kept at, or has a
// threshold at, has crossings of its own (SiteWentLow, SiteRecovered) and alerts name the
// site; an item kept at one site only, with no threshold of its own, has only the crossings
// of its total (ItemWentLow, ItemRecovered), which say the same thing, so a store of one
// site writes exactly the events it wrote before sites had thresholds.
import { isLowStock } from './inventory.js';
import type { InventoryEvent, StockLevels } from './inventory-events.js';

/** The site of a location the item has stock levels at; undefined when it is not known. */
export type SiteOfLocation = (locationId: string) => string | undefined;

/** What the per-site rules read of an item: its levels, its threshold and its own thresholds by site. */
export interface SiteStockState {
  levels: StockLevels;
  threshold: number;
  siteThresholds?: Record<string, number>;
}

export interface SiteLevel {
  quantity: number;
  threshold: number;
}

/** The item's threshold at a site: its own there, else the item's. */
export function thresholdAt(state: Pick<SiteStockState, 'threshold' | 'siteThresholds'>, siteId: string): number {
  return state.siteThresholds?.[siteId.toLowerCase()] ?? state.threshold;
}

/**
 * Units and threshold at each site the item is kept at or has a threshold of its own at;
 * null when a location it is kept at has no known site (then nothing can be said per site).
 */
export function siteLevels(state: SiteStockState, siteOf: SiteOfLocation): Map<string, SiteLevel> | null {
  const units = new Map<string, number>();
  for (const [locationId, quantity] of Object.entries(state.levels)) {
    const siteId = siteOf(locationId)?.toLowerCase();
    if (!siteId) return null;
    units.set(siteId, (units.get(siteId) ?? 0) + quantity);
  }
  for (const siteId of Object.keys(state.siteThresholds ?? {})) if (!units.has(siteId)) units.set(siteId, 0);
  return new Map([...units].map(([siteId, quantity]) => [siteId, { quantity, threshold: thresholdAt(state, siteId) }]));
}

/** Whether the item is watched per site (see the top): kept at several sites, or with a threshold of its own. */
export function watchedPerSite(state: SiteStockState, sites: Map<string, SiteLevel>): boolean {
  return sites.size > 1 || Object.keys(state.siteThresholds ?? {}).length > 0;
}

/** The sites where a watched item is low, with its units and threshold there; none for an item not watched. */
export function lowSites(state: SiteStockState | null, siteOf: SiteOfLocation): Map<string, SiteLevel> | null {
  if (!state) return new Map();
  const sites = siteLevels(state, siteOf);
  if (!sites) return null;
  if (!watchedPerSite(state, sites)) return new Map();
  return new Map([...sites].filter(([, level]) => isLowStock(level)));
}

/**
 * The crossings per site between two states of an item (before and after some events): a
 * SiteWentLow for each site that became low, a SiteRecovered for each that stopped being low
 * (recovered, or no longer watched: its alert hands over to the item's own). None when the
 * site of a location is not known, or the item is gone.
 */
export function siteCrossings(
  before: SiteStockState | null,
  after: SiteStockState | null,
  siteOf: SiteOfLocation,
): InventoryEvent[] {
  if (!after) return [];
  const was = lowSites(before, siteOf);
  const is = lowSites(after, siteOf);
  if (!was || !is) return [];
  const events: InventoryEvent[] = [];
  for (const [siteId, level] of is)
    if (!was.has(siteId)) events.push({ type: 'SiteWentLow', data: { siteId, ...level } });
  for (const [siteId] of was) {
    if (is.has(siteId)) continue;
    const now = siteLevels(after, siteOf)!.get(siteId) ?? { quantity: 0, threshold: thresholdAt(after, siteId) };
    events.push({ type: 'SiteRecovered', data: { siteId, ...now } });
  }
  return events;
}

/** "Milk is low at Shop 2: 3 left, threshold 5"; without a site (a store of one site) as it always read. */
export function lowStockSentence(alert: {
  name: string;
  quantity: number;
  threshold: number;
  siteName?: string | null;
}) {
  const where = alert.siteName ? ` at ${alert.siteName}` : '';
  if (alert.quantity <= 0) return `${alert.name} is out of stock${where} (threshold ${alert.threshold})`;
  return `${alert.name} is low${where}: ${alert.quantity} left, threshold ${alert.threshold}`;
}

/** An item's stock and threshold at one site, for its thresholds section (GET /api/inventory/{id}/site-thresholds). */
export interface ItemSiteThreshold {
  siteId: string;
  siteName: string;
  siteCode: string;
  /** Units at the site's locations. */
  quantity: number;
  /** Whether the item has ever been kept at the site (a stock level there, even at 0). */
  kept: boolean;
  /** Its own threshold at the site; null: it uses the item's. */
  ownThreshold: number | null;
  /** The threshold that applies there: its own, else the item's. */
  threshold: number;
  /** Low at the site: at or below the threshold there, where it is kept or has a threshold of its own. */
  low: boolean;
}

export interface ItemSiteThresholds {
  itemId: string;
  /** The item's own threshold, which sites without one of their own use. */
  itemThreshold: number;
  /** Whether its alerts are per site (see the top of this file). */
  watchedPerSite: boolean;
  sites: ItemSiteThreshold[];
}
