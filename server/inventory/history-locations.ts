// An item history's locations, named: where each adjustment and creation happened and where
// each move went from and to, by the locations' names now (a location renamed since shows
// its new name: the place is the same). Entries of events from before places name none.
// A transfer's steps name where they shipped from or received at, and the transfer's number.
import { sql, type Kysely } from 'kysely';
import type { HistoryEntry, NamedLocation } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { StoredEvent } from '../eventstore/types.js';

/** The names of these locations, by id (an unknown id is left out). */
export async function locationNames(db: Kysely<any>, ids: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await sql<{ id: string; name: string }>`select id::text as id, name from locations
    where id in (${sql.join(wanted.map((id) => sql`${id}::uuid`))})`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r.name]));
}

/** The numbers of these transfers, by id (lower case). */
async function transferNumbers(db: Kysely<any>, ids: string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await sql<{ id: string; number: number }>`select id::text as id, number from transfers
    where id in (${sql.join(wanted.map((id) => sql`${id}::uuid`))})`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, Number(r.number)]));
}

/** The locations an event names: where it adjusted or created stock, or a move's two ends. */
function placesOf(event: InventoryEvent): { at?: string; from?: string; to?: string } {
  switch (event.type) {
    case 'ItemCreated':
    case 'StockAdjusted':
      return { at: event.data.locationId };
    case 'StockMoved':
      return { from: event.data.fromLocationId, to: event.data.toLocationId };
    case 'StockShipped':
      return { at: event.data.fromLocationId };
    case 'StockReceived':
      return { at: event.data.toLocationId };
    case 'TransitWrittenOff':
    case 'ItemUpdated':
    case 'ItemWentLow':
    case 'ItemRecovered':
    case 'SiteThresholdSet':
    case 'SiteWentLow':
    case 'SiteRecovered':
    case 'ItemDeleted':
      return {};
  }
}

export async function withLocations(
  db: Kysely<any>,
  events: StoredEvent[],
  entries: HistoryEntry[],
): Promise<HistoryEntry[]> {
  const byId = new Map(events.map((e) => [e.eventId, placesOf({ type: e.type, data: e.data } as InventoryEvent)]));
  const ids = [...byId.values()].flatMap((p) => [p.at, p.from, p.to]).filter((id): id is string => !!id);
  const transferIds = entries.flatMap((e) => (e.transfer ? [e.transfer.id] : []));
  const [names, numbers] = await Promise.all([locationNames(db, ids), transferNumbers(db, transferIds)]);
  const named = (id: string): NamedLocation => ({ id, name: names.get(id) ?? 'a removed location' });
  for (const entry of entries) {
    if (entry.transfer) entry.transfer.number = numbers.get(entry.transfer.id.toLowerCase()) ?? null;
    const places = entry.eventId ? byId.get(entry.eventId) : undefined;
    if (!places) continue;
    if (places.at) entry.location = named(places.at);
    if (places.from && places.to) {
      const event = events.find((e) => e.eventId === entry.eventId)!;
      entry.moved = {
        quantity: (event.data as { quantity: number }).quantity,
        from: named(places.from),
        to: named(places.to),
      };
    }
  }
  return entries;
}
