// How pushed events change the Alerts list: stock changes patch in place, a recovery or a
// delete removes the row, a new low item is fetched (its row needs the server's join), and
// my own dismissals (events on my alerts stream) flip the flag. Also the search filter.
import type { Draft } from 'immer';
import type { AlertEvent, LowStockAlert } from '../../../shared/alerts';
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

export type AlertWrite = { kind: 'dismiss' | 'restore'; itemId: string; name: string };

const idAfter = (stream: string, prefix: string) => (stream.startsWith(prefix) ? stream.slice(prefix.length) : null);

export function alertsConcern(event: FeedEvent, params: AlertsParams): boolean {
  return event.streamType === 'item' || event.streamType === 'category' || event.stream === `alerts-${params.uid}`;
}

export function reduceAlerts(draft: Draft<AlertsData>, event: FeedEvent, params: AlertsParams): FeedEffect {
  if (event.streamType === 'item') {
    const itemId = idAfter(event.stream, 'item-');
    const index = draft.alerts.findIndex((a) => a.itemId === itemId);
    const alert = draft.alerts[index];
    const e = { type: event.type, data: event.data } as InventoryEvent;
    switch (e.type) {
      case 'ItemWentLow':
        return 'refetch';
      case 'StockMoved':
        return 'ignored'; // the item's total, all an alert shows, stays
      case 'ItemRecovered':
      case 'ItemDeleted':
        if (!alert) return 'ignored';
        draft.alerts.splice(index, 1);
        return 'applied';
      case 'StockAdjusted':
      case 'StockShipped':
      case 'StockReceived':
      case 'ItemUpdated': {
        if (!alert) return 'ignored';
        const { name, sku, threshold, quantity, categoryId } = itemFieldsSetBy(e);
        // A moved item's row shows its new category's name, which the event does not carry.
        if (categoryId !== undefined) return 'refetch';
        if (name !== undefined) alert.name = name;
        if (sku !== undefined) alert.sku = sku;
        if (threshold !== undefined) alert.threshold = threshold;
        if (quantity !== undefined) alert.quantity = quantity;
        return 'applied';
      }
      default:
        return 'ignored';
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
    const alert = draft.alerts.find((a) => a.itemId === e.data.itemId);
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
  const index = draft.alerts.findIndex((a) => a.itemId === updated.itemId);
  if (index === -1) return 'refetch';
  draft.alerts[index] = updated;
  return 'applied';
}

/** Search by name or category, ignoring case and extra spaces. */
export function filterAlerts(alerts: readonly LowStockAlert[], query: string): LowStockAlert[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...alerts];
  return alerts.filter((a) => {
    const text = `${a.name} ${a.category}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
