// An item history's prices in the money format of their moment: each entry that sets a price
// carries the store's currency and locale as they were when it happened (GET
// /api/inventory/{id}/history), so an old price keeps its currency after the store moved on.
import type { Kysely } from 'kysely';
import type { HistoryEntry } from '../../shared/inventory.js';
import type { StoredEvent } from '../eventstore/types.js';
import { storeMoneyAt } from '../accounts/settings/store-money-at.js';

const setsPrice = (entry: HistoryEntry) => entry.changes.some((c) => c.field === 'price');

export async function withMoney(
  db: Kysely<any>,
  events: StoredEvent[],
  entries: HistoryEntry[],
): Promise<HistoryEntry[]> {
  const byId = new Map(events.map((e) => [e.eventId, e]));
  const priced = entries.filter(setsPrice).flatMap((entry) => {
    const event = entry.eventId ? byId.get(entry.eventId) : undefined;
    return event ? [{ entry, event }] : [];
  });
  const moneyAt = await storeMoneyAt(
    db,
    priced.map(({ event }) => event),
  );
  for (const { entry, event } of priced) entry.money = moneyAt(event);
  return entries;
}
