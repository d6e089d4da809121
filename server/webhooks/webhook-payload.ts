// What an endpoint receives for one log event, and which events it wants. The body follows
// Standard Webhooks (`type`, `timestamp`, `data`); `data` carries our event and its cursor,
// so a receiver can ask for a replay from exactly where it lost track, and the change in
// words for people (a chat channel, an e-mail), as the activity log words it. An event whose
// data carries a price also carries the store's currency (`data.currency`) beside it.
import { sql, type Kysely } from 'kysely';
import { sentenceText } from '../../shared/change-sentence.js';
import { webhookTypeOf, type WebhookPayload } from '../../shared/webhooks.js';
import { storeMoneyAt } from '../accounts/settings/store-money-at.js';
import { describeEvents } from '../activity/change-facts.js';
import { formatCursor, type Cursor, type StoredEvent } from '../eventstore/types.js';
import { createLocationSites, sitesOfEvents, STORE_TOTAL_EVENTS } from '../auth/event-sites.js';

export interface EndpointFilter {
  eventTypes: string[];
  categoryIds: string[];
  /** Empty or absent: every site (shared/webhooks.ts). */
  siteIds?: string[];
  /** The sites the endpoint's maker may see (cursor-store.ts); null or absent: every site. */
  ownerSites?: string[] | null;
}

/** Whether the filter reads the log or the places (a statement): types alone need none. */
export const filterReads = (filter: EndpointFilter) => filter.categoryIds.length > 0 || bySite(filter);

/** Whether the filter keeps some sites' events out (its own site filter, or its maker's sites). */
const bySite = (filter: EndpointFilter) => (filter.siteIds?.length ?? 0) > 0 || Boolean(filter.ownerSites);

/** A new item's price, or an item's changed price. */
export function carriesPrice(event: StoredEvent): boolean {
  return (
    (event.type === 'ItemCreated' && event.data?.price !== undefined) ||
    (event.type === 'ItemUpdated' && event.data?.changes?.price !== undefined)
  );
}

/**
 * `currency`: the store's currency at the event's place in the log (currencyAt), beside its
 * price; `summary`: the event's sentence (eventSummaries).
 */
export function payloadOf(event: StoredEvent, currency: string, summary: string): string {
  const data = carriesPrice(event) ? { ...event.data, currency } : event.data;
  const payload: WebhookPayload = {
    type: webhookTypeOf(event.type)!,
    timestamp: event.createdAt.toISOString(),
    data: {
      cursor: formatCursor(event),
      summary,
      event: {
        id: event.eventId,
        type: event.type,
        stream: event.streamId,
        streamVersion: event.streamVersion,
        data,
        actor: event.metadata.actor.name,
        createdAt: event.createdAt.toISOString(),
      },
    },
  };
  return JSON.stringify(payload);
}

export function testPayload(endpointId: string, now: Date): string {
  const payload: WebhookPayload = {
    type: 'webhook.test',
    timestamp: now.toISOString(),
    data: {
      cursor: null,
      summary: 'Test event from Stockroom',
      event: {
        id: endpointId,
        type: 'WebhookTest',
        stream: `webhook-${endpointId}`,
        streamVersion: 0,
        data: { message: 'Test event from Stockroom' },
        actor: 'Stockroom',
        createdAt: now.toISOString(),
      },
    },
  };
  return JSON.stringify(payload);
}

/** The store's currency just after `cursor` in the log: its last change up to there, else the default. */
export async function currencyAt(db: Kysely<any>, cursor: Cursor): Promise<string> {
  return (await storeMoneyAt(db, [cursor]))(cursor).currency;
}

/** A store currency change among the log's events: the currency from then on. */
export function currencyChangedTo(event: StoredEvent): string | null {
  return event.type === 'SettingsChanged' && typeof event.data?.changes?.currency === 'string'
    ? event.data.changes.currency
    : null;
}

/** Each event's sentence, by event id, naming who made the change as the payload's `actor` does. */
export async function eventSummaries(db: Kysely<any>, events: StoredEvent[]): Promise<Map<string, string>> {
  const sentences = await describeEvents(db, events, (e) => e.metadata?.actor?.name ?? 'Unknown User');
  return new Map([...sentences].map(([id, parts]) => [id, sentenceText(parts)]));
}

/** The events of `events` this endpoint asked for, in log order. */
export async function wantedEvents(
  db: Kysely<any>,
  events: StoredEvent[],
  filter: EndpointFilter,
): Promise<StoredEvent[]> {
  const all = filter.eventTypes.includes('*');
  const typed = events.filter((e) => {
    const type = webhookTypeOf(e.type);
    return type !== null && (all || filter.eventTypes.includes(type));
  });
  const inSites = bySite(filter) ? await ofSites(db, typed, allowedSites(filter)) : typed;
  if (filter.categoryIds.length === 0 || inSites.length === 0) return inSites;
  const categories = await categoriesAt(db, inSites);
  return inSites.filter((e) => filter.categoryIds.includes(categories.get(e.eventId) ?? ''));
}

/** The sites whose events an endpoint sends: its filter's (every site when empty), within its maker's. */
function allowedSites(filter: EndpointFilter): ReadonlySet<string> {
  const own = filter.siteIds?.length ? filter.siteIds.map((id) => id.toLowerCase()) : null;
  const maker = filter.ownerSites?.map((id) => id.toLowerCase()) ?? null;
  if (own && maker) return new Set(own.filter((id) => maker.includes(id)));
  return new Set(own ?? maker ?? []);
}

/**
 * The events of these sites and those tied to no site (roles per site's rule, as the live
 * feed applies it: server/realtime/event-sites.ts); never a crossing of the store's totals.
 */
async function ofSites(db: Kysely<any>, events: StoredEvent[], wanted: ReadonlySet<string>): Promise<StoredEvent[]> {
  if (events.length === 0) return events;
  const sites = await sitesOfEvents(events, createLocationSites(db));
  return events.filter((event, i) => {
    if (event.streamType === 'item' && STORE_TOTAL_EVENTS.has(event.type)) return false;
    const of = sites[i];
    return of === null || of === undefined || of.some((site) => wanted.has(site));
  });
}

/**
 * The category each event's item was in when the event happened (a category's own events:
 * that category). Read from the item's stream, so deleted items and later moves do not matter.
 */
async function categoriesAt(db: Kysely<any>, events: StoredEvent[]): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  const itemEvents: StoredEvent[] = [];
  for (const e of events) {
    if (e.streamType === 'category') result.set(e.eventId, e.streamId.slice('category-'.length));
    else itemEvents.push(e);
  }
  if (itemEvents.length === 0) return result;
  const values = itemEvents.map((e) => sql`(${e.eventId}::text, ${e.streamId}::text, ${e.streamVersion}::int)`);
  const rows = await sql<{ event_id: string; category_id: string | null }>`select v.event_id,
      (select coalesce(e.data ->> 'categoryId', e.data -> 'changes' -> 'categoryId' ->> 'to') from events e
        where e.stream_id = v.stream_id and e.stream_version <= v.version
          and (e.type = 'ItemCreated' or (e.type = 'ItemUpdated' and e.data -> 'changes' ? 'categoryId'))
        order by e.stream_version desc limit 1) as category_id
    from (values ${sql.join(values)}) v (event_id, stream_id, version)`.execute(db);
  for (const row of rows.rows) result.set(row.event_id, row.category_id);
  return result;
}
