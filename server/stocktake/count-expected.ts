// What a count is compared with: the units its location held at the count's moment. Read
// backwards from now, in one statement (one snapshot): the location's level today minus
// what the item's events recorded after the count did there. An adjustment recorded after
// the count but made at or before it (a sale sent late from an outbox, `occurredAt`) was
// already on the shelf when it was counted, so it stays on the count's side. An adjustment
// recorded before the count is before it whatever its occurredAt (the server keeps
// occurredAt only when earlier than its own clock, so within clock skew). What an event does
// to a location is the shared fold's (levelsAfter), so moves and transfer steps count too.
// An item deleted or created again since the count is read forwards instead, from its
// first event to the count. The price, and whether the item existed at all then, come from
// the history's version valid at countedAt (server/history's item_versions, read only).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { levelsAfter } from '../../shared/inventory-fold.js';
import type { DB } from '../db/schema.js';
import type { CountAt } from './line-status.js';

export interface CountWithExpected extends CountAt {
  itemId: string;
  locationId: string;
  countedBy: string;
  countedByUid: string | null;
  price: number | null;
}

interface CountRow {
  id: string;
  item_id: string;
  location_id: string;
  counted: number;
  counted_at: Date;
  counted_by: string;
  counted_by_uid: string | null;
  /** Whether the item existed at the count's moment (it had a version then). */
  existed: boolean;
  /** Whether the item exists now (a deleted item has no levels to read back from). */
  alive: boolean;
  price: string | number | null;
  level_now: number | null;
  after: unknown;
}

type LoggedEvent = Pick<InventoryEvent, 'type' | 'data'>;

/** Events that never change where stock is: left out of what is read back. */
const NO_STOCK_EVENTS = sql`('ItemUpdated', 'ItemWentLow', 'ItemRecovered')`;

/** Whether an event of `c`'s item happened after the count `c` (see the top). */
const afterCount = sql`e.created_at > c.counted_at and not (e.type = 'StockAdjusted'
  and coalesce((e.data ->> 'occurredAt')::timestamptz <= c.counted_at, false))`;

/** What one event did to one location: its levels from nothing (a fold of one step). */
function unitsAt(event: LoggedEvent, locationId: string): number {
  const levels = levelsAfter({}, event as InventoryEvent) ?? {};
  return levels[locationId] ?? 0;
}

const parseJson = <T>(raw: unknown): T => (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;

/** The location's units at the count's moment, folding the item's events from its first one. */
async function forwardLevel(db: Kysely<DB>, row: CountRow): Promise<number> {
  const events = await sql<LoggedEvent>`select e.type, e.data from events e
    cross join (select ${row.counted_at}::timestamptz as counted_at) c
    where e.stream_id = ${`item-${row.item_id}`} and e.type not in ${NO_STOCK_EVENTS} and not (${afterCount})
    order by e.stream_version`.execute(db);
  let levels: Record<string, number> = {};
  for (const event of events.rows)
    levels = levelsAfter(levels, { type: event.type, data: parseJson(event.data) } as InventoryEvent) ?? levels;
  return levels[row.location_id] ?? 0;
}

/** The counts `where` picks (over `stocktake_counts c`), with their location's units and item's price at their moment. */
export async function countsWithExpected(db: Kysely<DB>, where: RawBuilder<unknown>): Promise<CountWithExpected[]> {
  const rows = await sql<CountRow>`select c.id, c.item_id, c.location_id, c.counted, c.counted_at, c.counted_by,
      c.counted_by_uid, v.version is not null as existed, v.price,
      exists (select 1 from items i where i.id = c.item_id) as alive,
      (select s.quantity from stock_levels s where s.item_id = c.item_id and s.location_id = c.location_id) as level_now,
      case when v.version is not null then (select coalesce(json_agg(json_build_object('type', e.type, 'data', e.data)
          order by e.stream_version), '[]'::json) from events e
        where e.stream_id = 'item-' || c.item_id::text and e.stream_version > v.version
          and e.type not in ${NO_STOCK_EVENTS} and ${afterCount}) end as after
    from stocktake_counts c
    left join lateral (select v.version, v.price from item_versions v
      where v.item_id = c.item_id and tstzrange(v.from_at, v.to_at) @> c.counted_at
      order by v.valid_from desc limit 1) v on true
    where ${where}
    order by c.counted_at, c.recorded_at`.execute(db);
  const out: CountWithExpected[] = [];
  for (const r of rows.rows) {
    let expected: number | null = null;
    if (r.existed) {
      const after = parseJson<LoggedEvent[]>(r.after) ?? [];
      // A delete or a new creation since: today's levels say nothing of that moment.
      const restarted = !r.alive || after.some((e) => e.type === 'ItemCreated' || e.type === 'ItemDeleted');
      expected = restarted
        ? await forwardLevel(db, r)
        : Number(r.level_now ?? 0) - after.reduce((n, e) => n + unitsAt(e, r.location_id), 0);
    }
    out.push({
      id: r.id,
      itemId: r.item_id,
      locationId: r.location_id,
      counted: r.counted,
      countedAt: new Date(r.counted_at),
      countedBy: r.counted_by,
      countedByUid: r.counted_by_uid,
      expected,
      price: r.price === null ? null : Number(r.price),
    });
  }
  return out;
}
