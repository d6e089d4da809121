// What a pushed event changes on the dashboard before the server's fresh figures arrive:
// the counts an event states outright (items, categories, units, low stock) move at once;
// every figure is then fetched again (coalesced), so money and lists are always the server's.
import type { Draft } from 'immer';
import type { DashboardSummary } from '../../../shared/dashboard';
import type { InventoryEvent } from '../../../shared/inventory-events';
import type { FeedEvent } from '../../../shared/realtime';
import type { FeedEffect } from '../../lib/live-query.machine';

export function movesDashboard(event: FeedEvent): boolean {
  // Settings: the store's currency may have changed, which the server's answer carries.
  return event.streamType === 'item' || event.streamType === 'category' || event.streamType === 'settings';
}

export function reduceDashboard(draft: Draft<DashboardSummary>, event: FeedEvent): FeedEffect {
  if (!movesDashboard(event)) return 'ignored';
  const totals = draft.totals;
  const e = { type: event.type, data: event.data } as
    InventoryEvent | { type: 'CategoryCreated' | 'CategoryDeleted'; data: unknown };
  switch (e.type) {
    case 'ItemCreated':
      totals.items += 1;
      totals.units += e.data.quantity;
      totals.value = Math.round((totals.value + e.data.quantity * e.data.price) * 100) / 100;
      break;
    case 'StockAdjusted':
      totals.units += e.data.delta;
      break;
    case 'StockMoved':
    case 'TransitWrittenOff':
      break; // units on hand stay the same: they only changed place, or were already in transit
    case 'StockShipped':
      totals.units -= e.data.quantity; // on their way to another site: on hand nowhere until received
      break;
    case 'StockReceived':
      totals.units += e.data.quantity;
      break;
    case 'ItemWentLow':
      totals.lowStock += 1;
      draft.health.reorderAlerts.open = totals.lowStock;
      break;
    case 'ItemRecovered':
      totals.lowStock = Math.max(0, totals.lowStock - 1);
      draft.health.reorderAlerts.open = totals.lowStock;
      break;
    case 'CategoryCreated':
      totals.categories += 1;
      break;
    case 'CategoryDeleted':
      totals.categories = Math.max(0, totals.categories - 1);
      break;
    default:
      break;
  }
  return 'refetch';
}
