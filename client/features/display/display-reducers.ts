// What a pushed event or alert changes on the wall display before the next snapshot: a new
// low-stock alert appears at once (out of stock first, then newest), a recovery or delete
// takes it away, stock changes move the numbers. The snapshot that follows corrects the rest.
import type { Draft } from 'immer';
import type { DisplayAlert, DisplaySnapshot } from '../../../shared/dashboard';
import type { InventoryEvent } from '../../../shared/inventory-events';
import { itemFieldsSetBy } from '../../../shared/inventory-fold';
import type { FeedEvent, ServerMessage } from '../../../shared/realtime';
import { DISPLAY_ALERT_ROWS } from './display-limits';

type AlertMessage = Extract<ServerMessage, { type: 'alert' }>;

const itemIdOf = (event: FeedEvent) => (event.stream.startsWith('item-') ? event.stream.slice(5) : null);

/** Out of stock first, then the newest; the server orders the same way. */
export function sortAlerts(alerts: DisplayAlert[]): void {
  alerts.sort((a, b) => Number(b.quantity <= 0) - Number(a.quantity <= 0) || b.since.localeCompare(a.since));
}

export function applyDisplayEvent(draft: Draft<DisplaySnapshot>, event: FeedEvent): void {
  const itemId = itemIdOf(event);
  if (!itemId) return;
  const e = { type: event.type, data: event.data } as InventoryEvent;
  // The item's own alert; an alert per site shows the site's units, which the next snapshot brings.
  const index = draft.alerts.findIndex((a) => a.itemId === itemId && !a.siteId);
  const drop = (keep: (a: DisplayAlert) => boolean) => {
    const before = draft.alerts.length;
    draft.alerts = draft.alerts.filter(keep);
    draft.alertCount = Math.max(0, draft.alertCount - (before - draft.alerts.length));
  };
  switch (e.type) {
    case 'StockAdjusted':
    case 'StockShipped':
    case 'StockReceived':
      if (index >= 0) {
        draft.alerts[index]!.quantity = itemFieldsSetBy(e).quantity!;
        sortAlerts(draft.alerts);
      }
      break;
    case 'StockMoved':
      break; // within a site: neither the item's total nor a site's units change
    case 'ItemRecovered':
      if (index >= 0) drop((a) => a.itemId !== itemId || Boolean(a.siteId));
      // An alert past the rows on the wall is still in the count; an item alerted per site
      // had no alert of its own to end.
      else if (!draft.alerts.some((a) => a.itemId === itemId)) draft.alertCount = Math.max(0, draft.alertCount - 1);
      break;
    case 'SiteRecovered':
      drop((a) => a.itemId !== itemId || a.siteId !== e.data.siteId);
      break;
    case 'ItemDeleted':
      drop((a) => a.itemId !== itemId);
      break;
    default:
      break;
  }
}

export function applyDisplayAlert(draft: Draft<DisplaySnapshot>, message: AlertMessage, now: string): void {
  const siteId = message.siteId ?? null;
  if (draft.alerts.some((a) => a.itemId === message.item.id && (a.siteId ?? null) === siteId)) return;
  draft.alerts.push({
    itemId: message.item.id,
    name: message.item.name,
    category: '',
    quantity: message.quantity,
    threshold: message.threshold,
    since: now,
    siteId,
    siteName: message.siteName ?? null,
  });
  draft.alertCount += 1;
  sortAlerts(draft.alerts);
  draft.alerts.splice(DISPLAY_ALERT_ROWS);
}
