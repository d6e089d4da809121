// The facts a change's sentence needs (shared/change-sentence.ts), read for a page of events
// at once: the events a revert takes back (and theirs, for a revert of a revert), and every
// name an event refers to as it was when the event happened, from the history projection's
// versions (an item renamed or deleted since is still called what it was called then).
// Prices are written in the store's currency and locale as they were when the event happened.
// Locations are named as they are now, a move's always, an adjustment's or a creation's only
// when the store has more than one location (in a store of one, "at Main location" says nothing).
// A handful of statements per page, whatever its size; none for what the caller already knows.
import { sql, type Kysely } from 'kysely';
import { describeChange, type ChangeFacts, type SentencePart } from '../../shared/change-sentence.js';
import type { ApprovedLine } from '../../shared/stocktake.js';
import { isPlaceStream, placesNamedBy } from '../../shared/sites.js';
import { transferItemsNamedBy, transferPlacesNamedBy } from '../../shared/transfers.js';
import { storeMoneyAt } from '../accounts/settings/store-money-at.js';

/** An event of the log, as the events table holds it. */
export interface LoggedEvent {
  position: number;
  /** Its transaction, when the reader has it: where it stands in the log beside a settings change. */
  txId?: string | null;
  eventId: string;
  streamId: string;
  type: string;
  data: any;
  metadata: {
    actor?: { name?: string };
    reverts?: string;
    revertReason?: string | null;
    importFile?: string;
    /** On a stocktake's count adjustment: who counted (the actor approved it). */
    countedBy?: { name?: string };
  } | null;
}

/** A revert of a revert of a revert… is told this many levels deep; beyond, "an earlier change". */
const REVERT_DEPTH = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Facts about the log's low-stock events have nobody to name: they follow from someone's change. */
const NOBODY = new Set(['ItemWentLow', 'ItemRecovered']);

/** Events named by their own data (a creation, a deletion): no lookup. */
const NAMED_BY_DATA = new Set(['ItemCreated', 'ItemDeleted', 'CategoryCreated', 'CategoryDeleted', 'StocktakeStarted']);

type Kind = 'item' | 'category' | 'stocktake';

const streamKind = (streamId: string): Kind | null =>
  streamId.startsWith('item-')
    ? 'item'
    : streamId.startsWith('category-')
      ? 'category'
      : streamId.startsWith('stocktake-')
        ? 'stocktake'
        : null;
const streamIdOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);
const key = (id: string, position: number) => `${id.toLowerCase()}@${position}`;

export function toLoggedEvent(row: {
  position: unknown;
  tx_id?: string | null;
  event_id: string;
  stream_id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}): LoggedEvent {
  return {
    position: Number(row.position),
    txId: row.tx_id ?? null,
    eventId: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as LoggedEvent['metadata'],
  };
}

/** What needs looking up: names as of a position, stocktake names, posted differences. */
class Wants {
  items = new Map<string, { id: string; pos: number }>();
  categories = new Map<string, { id: string; pos: number }>();
  stocktakes = new Set<string>();
  /** Counts whose counter an approval written before it named them needs (stocktake_counts). */
  counts = new Set<string>();
  adjustments = new Map<string, { stream: string; version: number }>();
  /** Sites and locations, named as they are now (they are never deleted; an entry keeps the name they had). */
  places = new Set<string>();
  /** Locations stock went to or from, by id, and whether each is wanted only when the store has several. */
  locations = new Map<string, { always: boolean }>();

  location(id: unknown, always: boolean): void {
    if (typeof id !== 'string' || !UUID.test(id)) return;
    const key = id.toLowerCase();
    this.locations.set(key, { always: always || (this.locations.get(key)?.always ?? false) });
  }

  name(kind: Kind, id: unknown, pos: number): void {
    if (typeof id !== 'string' || !UUID.test(id)) return;
    if (kind === 'stocktake') this.stocktakes.add(id.toLowerCase());
    else (kind === 'item' ? this.items : this.categories).set(key(id, pos), { id, pos });
  }
}

function wantsOf(event: LoggedEvent, subjects: Map<number, string>, wants: Wants): void {
  const kind = streamKind(event.streamId);
  const d = event.data ?? {};
  if (isPlaceStream(event.streamId)) {
    if (!subjects.has(event.position)) wants.places.add(streamIdOf(event.streamId).toLowerCase());
    for (const id of placesNamedBy(event.type, d)) if (UUID.test(id)) wants.places.add(id.toLowerCase());
  }
  if (event.streamId.startsWith('transfer-')) {
    for (const id of transferPlacesNamedBy(event.type, d)) if (UUID.test(id)) wants.places.add(id.toLowerCase());
    for (const id of transferItemsNamedBy(event.type, d)) wants.name('item', id, event.position);
  }
  if (kind && !subjects.has(event.position) && !NAMED_BY_DATA.has(event.type))
    wants.name(kind, streamIdOf(event.streamId), event.position);
  if (event.type === 'ItemCreated') wants.name('category', d.categoryId, event.position);
  if (event.type === 'ItemUpdated' && d.changes?.categoryId) {
    wants.name('category', d.changes.categoryId.from, event.position);
    wants.name('category', d.changes.categoryId.to, event.position);
  }
  if (event.type === 'StockCounted') wants.name('item', d.itemId, event.position);
  if (event.type === 'StockAdjusted' || event.type === 'ItemCreated' || event.type === 'StockCounted')
    wants.location(d.locationId, false);
  if (event.type === 'StockMoved') {
    wants.location(d.fromLocationId, true);
    wants.location(d.toLocationId, true);
  }
  if (event.type === 'StocktakeLinesApproved') {
    for (const line of (d.lines ?? []) as ApprovedLine[]) {
      wants.name('item', line.itemId, event.position);
      if (!line.countedBy?.name && typeof line.countId === 'string' && UUID.test(line.countId))
        wants.counts.add(line.countId.toLowerCase());
      if (line.delta === undefined && line.adjustmentVersion !== null && typeof line.adjustmentVersion === 'number') {
        wants.adjustments.set(`item-${line.itemId}#${line.adjustmentVersion}`, {
          stream: `item-${line.itemId}`,
          version: line.adjustmentVersion,
        });
      }
    }
  }
}

interface Found {
  names: Map<string, string>;
  /** Location names by id (lower case), those of adjustments and creations only in a store of several. */
  locations: Map<string, string>;
  stocktakes: Map<string, string>;
  counters: Map<string, string>;
  deltas: Map<string, number>;
  places: Map<string, string>;
}

async function lookUp(db: Kysely<any>, wants: Wants): Promise<Found> {
  const asOf = (
    table: 'item_versions' | 'category_versions',
    idColumn: 'item_id' | 'category_id',
    current: 'items' | 'categories',
    pairs: Array<{ id: string; pos: number }>,
  ) =>
    pairs.length === 0
      ? Promise.resolve([])
      : sql<{ id: string; pos: string; name: string | null }>`select v.id::text as id, v.pos::text as pos,
          coalesce((select h.name from ${sql.table(table)} h where h.${sql.ref(idColumn)} = v.id and h.valid_from <= v.pos
            order by h.valid_from desc limit 1), (select c.name from ${sql.table(current)} c where c.id = v.id)) as name
        from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as v (id uuid, pos bigint)`
          .execute(db)
          .then((r) => r.rows);
  const stocktakeIds = [...wants.stocktakes];
  const countIds = [...wants.counts];
  const adjustments = [...wants.adjustments.values()];
  const placeIds = sql`(select jsonb_array_elements_text(${JSON.stringify([...wants.places])}::jsonb))`;
  const locationIds = [...wants.locations.keys()];
  const [items, categories, stocktakes, counters, deltas, places, locations] = await Promise.all([
    asOf('item_versions', 'item_id', 'items', [...wants.items.values()]),
    asOf('category_versions', 'category_id', 'categories', [...wants.categories.values()]),
    stocktakeIds.length === 0
      ? []
      : sql<{ id: string; name: string }>`select id::text as id, name from stocktakes
          where id in (${sql.join(stocktakeIds.map((id) => sql`${id}::uuid`))})`
          .execute(db)
          .then((r) => r.rows),
    countIds.length === 0
      ? []
      : sql<{ id: string; counted_by: string }>`select id::text as id, counted_by from stocktake_counts
          where id in (${sql.join(countIds.map((id) => sql`${id}::uuid`))})`
          .execute(db)
          .then((r) => r.rows),
    adjustments.length === 0
      ? []
      : sql<{
          stream: string;
          version: number;
          delta: number;
        }>`select e.stream_id as stream, e.stream_version as version,
          (e.data ->> 'delta')::int as delta
        from jsonb_to_recordset(${JSON.stringify(adjustments)}::jsonb) as v (stream text, version int)
        join events e on e.stream_id = v.stream and e.stream_version = v.version`
          .execute(db)
          .then((r) => r.rows),
    wants.places.size === 0
      ? []
      : sql<{ id: string; name: string }>`select id::text as id, name from locations where id::text in ${placeIds}
          union all select id::text, name from sites where id::text in ${placeIds}`
          .execute(db)
          .then((r) => r.rows),
    locationIds.length === 0
      ? []
      : sql<{ id: string; name: string; several: boolean }>`select id::text as id, name,
          (select count(*) > 1 from (select 1 from locations limit 2) l) as several
        from locations where id in (${sql.join(locationIds.map((id) => sql`${id}::uuid`))})`
          .execute(db)
          .then((r) => r.rows),
  ]);
  const names = new Map<string, string>();
  for (const row of [...items, ...categories]) if (row.name !== null) names.set(key(row.id, Number(row.pos)), row.name);
  return {
    names,
    locations: new Map(
      locations
        .filter((l) => l.several || wants.locations.get(l.id.toLowerCase())?.always)
        .map((l) => [l.id.toLowerCase(), l.name]),
    ),
    stocktakes: new Map(stocktakes.map((s) => [s.id.toLowerCase(), s.name])),
    counters: new Map(counters.map((c) => [c.id.toLowerCase(), c.counted_by])),
    deltas: new Map(deltas.map((a) => [`${a.stream}#${a.version}`, Number(a.delta)])),
    places: new Map(places.map((p) => [p.id.toLowerCase(), p.name])),
  };
}

/** The events the given ones revert, and theirs, up to REVERT_DEPTH, by event id. */
async function revertedEvents(db: Kysely<any>, events: LoggedEvent[]): Promise<Map<string, LoggedEvent>> {
  const known = new Map(events.map((e) => [e.eventId.toLowerCase(), e]));
  let level = events;
  for (let depth = 0; depth < REVERT_DEPTH; depth += 1) {
    const ids = [
      ...new Set(
        level
          .map((e) => e.metadata?.reverts?.toLowerCase())
          .filter((id): id is string => !!id && UUID.test(id) && !known.has(id)),
      ),
    ];
    if (ids.length === 0) break;
    const rows = await sql<any>`select position, event_id::text as event_id, stream_id, type, data, metadata from events
      where event_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
    level = rows.rows.map(toLoggedEvent);
    for (const e of level) known.set(e.eventId.toLowerCase(), e);
  }
  return known;
}

function factsOf(
  event: LoggedEvent,
  all: Map<string, LoggedEvent>,
  found: Found,
  subjects: Map<number, string>,
  depth = 0,
): ChangeFacts {
  const d = event.data ?? {};
  const kind = streamKind(event.streamId);
  const id = streamIdOf(event.streamId);
  const nameAt = (itemOrCategory: unknown) =>
    typeof itemOrCategory === 'string' ? found.names.get(key(itemOrCategory, event.position)) : undefined;
  const subject =
    subjects.get(event.position) ??
    (NAMED_BY_DATA.has(event.type) && typeof d.name === 'string'
      ? d.name
      : kind === 'stocktake'
        ? found.stocktakes.get(id.toLowerCase())
        : isPlaceStream(event.streamId)
          ? found.places.get(id.toLowerCase())
          : nameAt(id)) ??
    (kind === 'category'
      ? 'a category'
      : kind === 'stocktake'
        ? 'a stocktake'
        : event.streamId.startsWith('transfer-')
          ? 'a transfer'
          : event.streamId.startsWith('site-')
            ? 'a site'
            : event.streamId.startsWith('location-')
              ? 'a location'
              : 'an item');
  const names: Record<string, string> = {};
  const remember = (ref: unknown) => {
    const name = nameAt(ref);
    if (name !== undefined) names[String(ref)] = name;
  };
  if (event.type === 'ItemCreated') remember(d.categoryId);
  if (event.type === 'ItemUpdated' && d.changes?.categoryId) {
    remember(d.changes.categoryId.from);
    remember(d.changes.categoryId.to);
  }
  if (event.type === 'StockCounted') remember(d.itemId);
  for (const id of transferItemsNamedBy(event.type, d)) remember(id);
  for (const place of [...placesNamedBy(event.type, d), ...transferPlacesNamedBy(event.type, d)]) {
    const name = found.places.get(place.toLowerCase());
    if (name !== undefined) names[place] = name;
  }
  for (const id of [d.locationId, d.fromLocationId, d.toLocationId]) {
    const name = typeof id === 'string' ? found.locations.get(id.toLowerCase()) : undefined;
    if (name !== undefined) names[id] = name;
  }
  const facts: ChangeFacts = { type: event.type, data: d, subject, names };
  if (event.type === 'StocktakeLinesApproved') {
    facts.lineDeltas = {};
    const counters = new Set<string>();
    for (const line of (d.lines ?? []) as ApprovedLine[]) {
      remember(line.itemId);
      const counter =
        line.countedBy?.name ??
        (typeof line.countId === 'string' ? found.counters.get(line.countId.toLowerCase()) : undefined);
      if (counter) counters.add(counter);
      facts.lineDeltas[line.itemId] =
        line.delta !== undefined
          ? line.delta
          : line.adjustmentVersion === null
            ? 0
            : (found.deltas.get(`item-${line.itemId}#${line.adjustmentVersion}`) ?? null);
    }
    facts.countedBy = [...counters].sort((a, b) => a.localeCompare(b));
  }
  const meta = event.metadata ?? {};
  if (event.type === 'StockAdjusted' && meta.countedBy?.name) facts.countedBy = [meta.countedBy.name];
  if (meta.importFile) facts.importFile = meta.importFile;
  if (meta.reverts) {
    const original = depth < REVERT_DEPTH ? all.get(meta.reverts.toLowerCase()) : undefined;
    facts.revert = {
      original: original ? factsOf(original, all, found, subjects, depth + 1) : null,
      reason: meta.revertReason ?? null,
    };
  }
  return facts;
}

/** Does the event's sentence write a price (a creation's, an edit's)? */
const showsPrice = (event: LoggedEvent) =>
  (event.type === 'ItemCreated' && event.data?.price !== undefined) ||
  (event.type === 'ItemUpdated' && event.data?.changes?.price !== undefined);

/**
 * Each event's sentence, by event id. `who` names whoever made it (null: nobody); `subjects`
 * gives names already known, by the event's position (an activity entry's resource name:
 * no lookup).
 */
export async function describeEvents(
  db: Kysely<any>,
  events: LoggedEvent[],
  who: (event: LoggedEvent) => string | null,
  subjects: Map<number, string> = new Map(),
): Promise<Map<string, SentencePart[]>> {
  const sentences = new Map<string, SentencePart[]>();
  if (events.length === 0) return sentences;
  const all = await revertedEvents(db, events);
  const wants = new Wants();
  for (const event of all.values()) wantsOf(event, subjects, wants);
  const [found, moneyAt] = await Promise.all([lookUp(db, wants), storeMoneyAt(db, events.filter(showsPrice))]);
  for (const event of events) {
    const facts = factsOf(event, all, found, subjects);
    if (showsPrice(event)) facts.money = moneyAt(event);
    sentences.set(event.eventId, describeChange(facts, NOBODY.has(event.type) ? null : who(event)));
  }
  return sentences;
}
