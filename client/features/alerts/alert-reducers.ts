// How pushed events change the Alerts list: stock changes patch in place, a recovery or a
// delete removes the row, a new low item is fetched (its row needs the server's join), and
// my own dismissals (events on my alerts stream) flip the flag. Also the search filter.
// An item watched per site has a row per low site (siteId): what changes its units or
// threshold at a site is fetched again, a site's recovery removes that site's row.
import type { Draft } from 'immer';
import { alertKey, type AlertEvent, type LowStockAlert } from '../../../shared/alerts';
import type { CategoryEvent, InventoryEvent } from '../../../shared/inventory-events';
import { categoryFieldsSetBy, itemFieldsSetBy } from '../../../shared/inventory-fold';
import type { FeedEvent } from '../../../shared/realtime';
import type { FeedEffect } from '../../lib/live-query.machine';

export interface AlertsData {
  alerts: LowStockAlert[];
}

export interface AlertsParams {
  uid: string;
}

export type AlertWrite = { kind: 'dismiss' | 'restore'; itemId: string; name: string; siteId?: string | null };

const idAfter = (stream: string, prefix: string) => (stream.startsWith(prefix) ? stream.slice(prefix.length) : null);

export function alertsConcern(event: FeedEvent, params: AlertsParams): boolean {
  return event.streamType === 'item' || event.streamType === 'category' || event.stream === `alerts-${params.uid}`;
}

export function reduceAlerts(draft: Draft<AlertsData>, event: FeedEvent, params: AlertsParams): FeedEffect {
  if (event.streamType === 'item') {
    const itemId = idAfter(event.stream, 'item-');
    const own = draft.alerts.findIndex((a) => a.itemId === itemId && !a.siteId);
    const alert = draft.alerts[own];
    const perSite = draft.alerts.some((a) => a.itemId === itemId && a.siteId);
    const e = { type: event.type, data: event.data } as InventoryEvent;
    const remove = (keep: (a: LowStockAlert) => boolean): FeedEffect => {
      const before = draft.alerts.length;
      draft.alerts = draft.alerts.filter(keep);
      return draft.alerts.length === before ? 'ignored' : 'applied';
    };
    switch (e.type) {
      case 'ItemWentLow':
      case 'SiteWentLow':
        return 'refetch';
      case 'StockMoved':
        return 'ignored'; // within a site: neither the total nor a site's units change
      case 'ItemRecovered':
        return remove((a) => a.itemId !== itemId || Boolean(a.siteId));
      case 'SiteRecovered':
        return remove((a) => a.itemId !== itemId || a.siteId !== e.data.siteId);
      case 'ItemDeleted':
        return remove((a) => a.itemId !== itemId);
      case 'StockAdjusted':
      case 'StockShipped':
      case 'StockReceived':
      case 'ItemUpdated': {
        if (!alert && !perSite) return 'ignored';
        const { name, sku, threshold, quantity, categoryId } = itemFieldsSetBy(e);
        // A moved item's row shows its new category's name, which the event does not carry;
        // a site's row shows its units and threshold there, which need the server's sums.
        if (categoryId !== undefined || (perSite && (quantity !== undefined || threshold !== undefined)))
          return 'refetch';
        for (const row of draft.alerts) {
          if (row.itemId !== itemId) continue;
          if (name !== undefined) row.name = name;
          if (sku !== undefined) row.sku = sku;
        }
        if (alert && threshold !== undefined) alert.threshold = threshold;
        if (alert && quantity !== undefined) alert.quantity = quantity;
        return 'applied';
      }
      case 'SiteThresholdSet':
        return alert || perSite ? 'refetch' : 'ignored';
      default:
        // Events of other features on the stream (a transfer's shipment) move units between sites.
        return perSite ? 'refetch' : 'ignored';
    }
  }
  if (event.streamType === 'category') {
    const e = { type: event.type, data: event.data } as CategoryEvent;
    const categoryId = idAfter(event.stream, 'category-');
    const { name } = categoryFieldsSetBy(e);
    if (e.type !== 'CategoryUpdated' || name === undefined) return 'ignored';
    let changed = false;
    for (const alert of draft.alerts) {
      if (alert.categoryId === categoryId) {
        alert.category = name;
        changed = true;
      }
    }
    return changed ? 'applied' : 'ignored';
  }
  if (event.stream === `alerts-${params.uid}`) {
    const e = { type: event.type, data: event.data } as AlertEvent;
    if (e.type !== 'AlertDismissed' && e.type !== 'AlertRestored') return 'ignored';
    const alert = draft.alerts.find(
      (a) => a.itemId === e.data.itemId && (a.siteId ?? null) === (e.data.siteId ?? null),
    );
    if (!alert) return 'ignored';
    alert.dismissed = e.type === 'AlertDismissed';
    alert.dismissedAt = alert.dismissed ? event.time : null;
    return 'applied';
  }
  return 'ignored';
}

/** A finished dismiss or restore: the server's answer is the row as I now see it. */
export function applyAlertWrite(draft: Draft<AlertsData>, _write: AlertWrite, result: unknown): FeedEffect {
  const updated = result as LowStockAlert | undefined;
  if (!updated) return 'refetch';
  const index = draft.alerts.findIndex((a) => alertKey(a) === alertKey(updated));
  if (index === -1) return 'refetch';
  draft.alerts[index] = updated;
  return 'applied';
}

/** Search by name or category, ignoring case and extra spaces. */
export function filterAlerts(alerts: readonly LowStockAlert[], query: string): LowStockAlert[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...alerts];
  return alerts.filter((a) => {
    const text = `${a.name} ${a.category} ${a.siteName ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
