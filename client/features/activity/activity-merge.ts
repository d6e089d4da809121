// New log entries arriving while the log is open: the first page is fetched again and
// whatever it holds above the newest entry already shown goes on top. When the whole page
// is new (more arrived than a page holds), the page replaces what was shown. Entries shown
// already take the page's `reverted` (someone reverted them meanwhile).
import type { ActivityEntry } from '../../../shared/inventory';
import type { FeedEvent } from '../../../shared/realtime';
import { LOCATION_EVENT_TYPES, SITE_EVENT_TYPES } from '../../../shared/sites';
import { TRANSFER_EVENT_TYPES } from '../../../shared/transfers';

/**
 * Events whose projection writes an activity entry (the stocktake's too: server/stocktake/projection.ts,
 * the sites and locations': server/sites/place-activity.ts, and transfers': server/transfers/transfer-activity.ts).
 */
const LOGGED = new Set([
  ...SITE_EVENT_TYPES,
  ...TRANSFER_EVENT_TYPES,
  ...LOCATION_EVENT_TYPES,
  'ItemCreated',
  'ItemUpdated',
  'StockAdjusted',
  'StockMoved',
  'ItemDeleted',
  'CategoryCreated',
  'CategoryUpdated',
  'CategoryDeleted',
  'StocktakeStarted',
  'StockCounted',
  'StocktakeLinesApproved',
  'StocktakeClosed',
]);

export function writesActivity(event: FeedEvent): boolean {
  return LOGGED.has(event.type);
}

export interface Merged {
  entries: ActivityEntry[];
  added: string[];
  replaced: boolean;
}

export function mergeLatest(current: readonly ActivityEntry[], latest: readonly ActivityEntry[]): Merged {
  const known = new Set(current.map((e) => e.id));
  const fresh: ActivityEntry[] = [];
  for (const entry of latest) {
    if (known.has(entry.id)) break;
    fresh.push(entry);
  }
  if (current.length > 0 && fresh.length === latest.length && latest.length > 0) {
    return { entries: [...latest], added: latest.map((e) => e.id), replaced: true };
  }
  const latestById = new Map(latest.map((e) => [e.id, e]));
  const kept = current.map((e) => {
    const now = latestById.get(e.id);
    return now && now.reverted !== e.reverted ? { ...e, reverted: now.reverted } : e;
  });
  return { entries: [...fresh, ...kept], added: fresh.map((e) => e.id), replaced: false };
}
