// The `items` read table and `stock_movements` (one row per adjustment, for the dashboard),
// `stock_levels` (an item's units at each location it was ever at; `items.quantity` is their
// sum, `items.in_transit` what a transfer shipped and nobody received or wrote off yet), plus the item counts on `categories` and the search
// dictionary (`search_words`, which the categories projection adds category names to).
import { sql, type RawBuilder } from 'kysely';
import type { InventoryEvent, StockLevels } from '../../shared/inventory-events.js';
import { adjustedAt, createdLevels } from '../../shared/inventory-fold.js';
import { MAIN_LOCATION_ID } from '../../shared/places.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { editedColumns, fieldAt, itemBatchSteps } from './item-batch-steps.js';
import { rememberWords } from './search-words.js';

export const itemIdOf = (streamId: string) => streamId.slice('item-'.length);

type Data<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

const columnOf: Record<string, string> = {
  name: 'name',
  description: 'description',
  sku: 'sku',
  categoryId: 'category_id',
  price: 'price',
  threshold: 'threshold',
  imageUrl: 'image_url',
  expiryDate: 'expiry_date',
  barcode: 'barcode',
};

/**
 * Adds units to an item's level at a location: its row, or a new one (with the location's
 * site, and the item's creation time: lists by place page in that order, migration 030) if
 * the item was never there. The decisions never leave a level below 0.
 */
async function addToLevel(trx: Transaction, itemId: string, locationId: string, units: number) {
  await sql`with added as (update stock_levels set quantity = quantity + ${units}::int
        where item_id = ${itemId}::uuid and location_id = ${locationId}::uuid returning 1)
    insert into stock_levels (item_id, location_id, site_id, quantity, item_created_at)
    select ${itemId}::uuid, l.id, l.site_id, ${units}::int, (select created_at from items where id = ${itemId}::uuid)
    from locations l
    where l.id = ${locationId}::uuid and not exists (select 1 from added)`.execute(trx);
}

async function placeCreated(trx: Transaction, itemId: string, levels: StockLevels) {
  for (const [locationId, units] of Object.entries(levels)) await addToLevel(trx, itemId, locationId, units);
}

async function touch(trx: Transaction, event: StoredEvent) {
  await sql`update items set version = ${event.streamVersion}, updated_at = ${event.createdAt}
    where id = ${itemIdOf(event.streamId)}`.execute(trx);
}

/**
 * What search matches against. The barcode goes last and only when there is one, so an item
 * without one has the same text as before barcodes existed. categories/projection.ts builds
 * the same text on a rename.
 */
const refreshSearchText = sql`search_text = lower(name || ' ' || sku || ' ' || description || ' ' || category_name
  || coalesce(' ' || barcode, ''))`;

// Parts both set-based forms below share.
const itemsCreated = sql`insert into items (id, name, description, sku, category_id, category_name, quantity, price, threshold,
      image_url, expiry_date, barcode, version, created_at, updated_at, search_text)
    select (n.data ->> 'itemId')::uuid, n.data ->> 'name', n.data ->> 'description', n.data ->> 'sku', c.id, c.name,
      (n.data ->> 'quantity')::int, (n.data ->> 'price')::numeric, (n.data ->> 'threshold')::int, n.data ->> 'imageUrl',
      (n.data ->> 'expiryDate')::date, n.data ->> 'barcode',
      (select max(v.stream_version) from new_events v where v.stream_id = n.stream_id), n.created_at,
      (select max(v.created_at) from new_events v where v.stream_id = n.stream_id),
      lower((n.data ->> 'name') || ' ' || (n.data ->> 'sku') || ' ' || (n.data ->> 'description') || ' ' || c.name
        || coalesce(' ' || (n.data ->> 'barcode'), ''))
    from new_events n join categories c on c.id = (n.data ->> 'categoryId')::uuid
    where n.type = 'ItemCreated'
    order by n.position`;

/** Per item and location, the units each creation put there and each adjustment added or took. */
const createdAndAdjusted = sql`select (n.data ->> 'itemId')::uuid as item_id, l.key::uuid as location_id, l.value::int as units
        from new_events n cross join lateral jsonb_each_text(coalesce(n.data -> 'levels',
          jsonb_build_object(coalesce(n.data ->> 'locationId', ${sql.lit(MAIN_LOCATION_ID)}), n.data -> 'quantity'))) l
        where n.type = 'ItemCreated'
        union all
        select substr(stream_id, 6)::uuid, coalesce((data ->> 'locationId')::uuid, ${sql.lit(MAIN_LOCATION_ID)}::uuid),
          (data ->> 'delta')::int
        from new_events where type = 'StockAdjusted'`;
/** What each move takes from one location and puts at another. */
const moved = sql`select substr(stream_id, 6)::uuid, (data ->> 'fromLocationId')::uuid, -(data ->> 'quantity')::int
        from new_events where type = 'StockMoved'
        union all
        select substr(stream_id, 6)::uuid, (data ->> 'toLocationId')::uuid, (data ->> 'quantity')::int
        from new_events where type = 'StockMoved'`;
/** What a transfer's shipment takes from its location, and a receipt puts at its own (a write-off: at none). */
const shippedAndReceived = sql`select substr(stream_id, 6)::uuid as item_id, (data ->> 'fromLocationId')::uuid as location_id,
          -(data ->> 'quantity')::int as units
        from new_events where type = 'StockShipped'
        union all
        select substr(stream_id, 6)::uuid, (data ->> 'toLocationId')::uuid, (data ->> 'quantity')::int
        from new_events where type = 'StockReceived'`;

/**
 * The batch's changes to stock_levels, as CTEs (every set-based form): per item and location,
 * the sum of the units `deltas` (rows of item_id, location_id, units) add or take; rows that
 * exist are updated once by their sum, the others inserted with it (a sum of 0 too: the item
 * was there), with their location's site. Every CTE sees stock_levels as it was before the
 * statement, so the insert takes exactly the rows the update could not find. Each form reads
 * only the events it covers (the hot path's no moves).
 */
const stockLevelCtes = (deltas: RawBuilder<unknown>) => ({
  items_stock_deltas: sql`select item_id, location_id, sum(units)::int as units from (${deltas}) d
      group by item_id, location_id`,
  items_stock_updated: sql`update stock_levels s set quantity = s.quantity + d.units
      from items_stock_deltas d
      where s.item_id = d.item_id and s.location_id = d.location_id and d.units <> 0`,
  // The item's creation time: its creation's in this batch (items_created's row is not seen
  // here), else its row's.
  items_stock_added: sql`insert into stock_levels (item_id, location_id, site_id, quantity, item_created_at)
      select d.item_id, d.location_id, l.site_id, d.units, coalesce(c.created_at, i.created_at)
      from items_stock_deltas d join locations l on l.id = d.location_id
      left join items i on i.id = d.item_id
      left join (select (data ->> 'itemId')::uuid as item_id, max(created_at) as created_at from new_events
          where type = 'ItemCreated' group by 1) c on c.item_id = d.item_id
      where not exists (select 1 from stock_levels s where s.item_id = d.item_id and s.location_id = d.location_id)
      order by d.item_id, d.location_id`,
});

/** A transfer's step on an item: its quantity on hand and its units in transit after it, as the event says. */
async function transferStep(
  trx: Transaction,
  event: StoredEvent<{ quantityAfter?: number; inTransitAfter: number }>,
): Promise<void> {
  const quantity = event.data.quantityAfter ?? null;
  await sql`update items set quantity = coalesce(${quantity}::int, quantity), in_transit = ${event.data.inTransitAfter},
      version = ${event.streamVersion}, updated_at = ${event.createdAt}
    where id = ${itemIdOf(event.streamId)}`.execute(trx);
}

export const itemsProjection: Projection = {
  name: 'items',
  // search_words is listed so a rebuild replays it and verify compares it: the set-based
  // forms below write it too.
  tables: ['items', 'stock_movements', 'search_words', 'stock_levels'],
  handlers: {
    ItemCreated: async (event: StoredEvent<Data<'ItemCreated'>>, trx) => {
      const d = event.data;
      const barcode = d.barcode ?? null; // absent from events written before barcodes
      await sql`insert into items (id, name, description, sku, category_id, category_name, quantity, price, threshold,
          image_url, expiry_date, barcode, version, created_at, updated_at, search_text)
        select ${d.itemId}, ${d.name}, ${d.description}, ${d.sku}, c.id, c.name, ${d.quantity}, ${d.price}, ${d.threshold},
          ${d.imageUrl}, ${d.expiryDate}, ${barcode}::text, ${event.streamVersion}, ${event.createdAt}, ${event.createdAt},
          lower(${d.name} || ' ' || ${d.sku} || ' ' || ${d.description} || ' ' || c.name || coalesce(' ' || ${barcode}::text, ''))
        from categories c where c.id = ${d.categoryId}`.execute(trx);
      await sql`update categories set item_count = item_count + 1 where id = ${d.categoryId}`.execute(trx);
      await rememberWords(trx, d.name, d.description, d.sku, barcode);
      await placeCreated(trx, d.itemId, createdLevels(d));
    },
    ItemUpdated: async (event: StoredEvent<Data<'ItemUpdated'>>, trx) => {
      const id = itemIdOf(event.streamId);
      const changes = event.data.changes;
      const sets = Object.entries(changes).map(([field, change]) => sql`${sql.ref(columnOf[field]!)} = ${change!.to}`);
      if (changes.categoryId) {
        await sql`update categories set item_count = item_count - 1 where id = ${changes.categoryId.from}`.execute(trx);
        await sql`update categories set item_count = item_count + 1 where id = ${changes.categoryId.to}`.execute(trx);
        sets.push(sql`category_name = (select name from categories where id = ${changes.categoryId.to})`);
      }
      await sql`update items set ${sql.join(sets)}, version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${id}`.execute(trx);
      await sql`update items set ${refreshSearchText} where id = ${id}`.execute(trx);
      await rememberWords(trx, changes.name?.to, changes.description?.to, changes.sku?.to, changes.barcode?.to);
    },
    StockAdjusted: async (event: StoredEvent<Data<'StockAdjusted'>>, trx) => {
      const id = itemIdOf(event.streamId);
      const d = event.data;
      // One statement for both tables: adjustments are the hot write path.
      await sql`with moved as (
          update items set quantity = ${d.quantity}, version = ${event.streamVersion}, updated_at = ${event.createdAt}
          where id = ${id} returning id, price)
        insert into stock_movements (event_id, item_id, delta, reason, quantity_after, unit_price, user_id, created_at)
        select ${event.eventId}, id, ${d.delta}, ${d.reason}, ${d.quantity}, price, ${event.metadata.actor.uid}, ${event.createdAt}
        from moved`.execute(trx);
      await addToLevel(trx, id, adjustedAt(d), d.delta);
    },
    StockMoved: async (event: StoredEvent<Data<'StockMoved'>>, trx) => {
      const id = itemIdOf(event.streamId);
      const d = event.data;
      await addToLevel(trx, id, d.fromLocationId, -d.quantity);
      await addToLevel(trx, id, d.toLocationId, d.quantity);
      await touch(trx, event);
    },
    StockShipped: async (event: StoredEvent<Data<'StockShipped'>>, trx) => {
      await addToLevel(trx, itemIdOf(event.streamId), event.data.fromLocationId, -event.data.quantity);
      await transferStep(trx, event);
    },
    StockReceived: async (event: StoredEvent<Data<'StockReceived'>>, trx) => {
      await addToLevel(trx, itemIdOf(event.streamId), event.data.toLocationId, event.data.quantity);
      await transferStep(trx, event);
    },
    TransitWrittenOff: async (event: StoredEvent<Data<'TransitWrittenOff'>>, trx) => transferStep(trx, event),
    ItemWentLow: async (event, trx) => touch(trx, event),
    ItemRecovered: async (event, trx) => touch(trx, event),
    // An item's own threshold at a site, kept on its row (stock decisions read it with it).
    // None of the set-based forms below takes these: a batch with one goes event by event.
    SiteThresholdSet: async (event: StoredEvent<Data<'SiteThresholdSet'>>, trx) => {
      const { siteId, threshold } = event.data;
      await sql`update items set site_thresholds = case when ${threshold}::int is null then site_thresholds - ${siteId}::text
          else site_thresholds || jsonb_build_object(${siteId}::text, ${threshold}::int) end,
        version = ${event.streamVersion}, updated_at = ${event.createdAt}
        where id = ${itemIdOf(event.streamId)}`.execute(trx);
    },
    SiteWentLow: async (event, trx) => touch(trx, event),
    SiteRecovered: async (event, trx) => touch(trx, event),
    ItemDeleted: async (event, trx) => {
      const id = itemIdOf(event.streamId);
      await sql`update categories set item_count = item_count - 1
        where id = (select category_id from items where id = ${id})`.execute(trx);
      await sql`delete from items where id = ${id}`.execute(trx);
      await sql`delete from stock_levels where item_id = ${id}`.execute(trx);
    },
  },
  batch: [
    // Without edits (the group commit's adjustments, creations): the hot path's form, kept
    // apart so its statement stays as small as it was.
    // A batch of adjustments: each item row updated once, to its last quantity, version and
    // time (what StockAdjusted and the two touches leave), and one movement per adjustment.
    // A batch of creations (a CSV import, an API create): one row each, at its stream's last
    // version (a crossing right after the creation only touches it), the categories' counts
    // and the search words. An item created in a batch has no adjustment in it (createItem
    // emits ItemCreated and at most ItemWentLow), and its category exists before the batch.
    {
      types: ['ItemCreated', 'StockAdjusted', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        items_created: itemsCreated,
        items_category_counts: sql`update categories c set item_count = c.item_count + k.created
          from (select (data ->> 'categoryId')::uuid as id, count(*) as created from new_events where type = 'ItemCreated'
            group by 1) k
          where c.id = k.id`,
        items_words: sql`insert into search_words (word)
          select distinct w from new_events n,
            regexp_split_to_table(lower(concat_ws(' ', nullif(n.data ->> 'name', ''), nullif(n.data ->> 'description', ''),
              nullif(n.data ->> 'sku', ''), nullif(n.data ->> 'barcode', ''))), '[^[:alpha:]]+') w
          where n.type = 'ItemCreated' and length(w) between 3 and 40 order by w
          on conflict do nothing`,
        items_levels: sql`update items i set quantity = coalesce(a.quantity, i.quantity), version = a.version, updated_at = a.at
          from (
            select substr(stream_id, 6)::uuid as id, max(stream_version) as version, max(created_at) as at,
              (array_agg((data ->> 'quantity')::int order by stream_version desc) filter (where type = 'StockAdjusted'))[1] as quantity
            from new_events where type in ('StockAdjusted', 'ItemWentLow', 'ItemRecovered')
              and stream_id not in (select stream_id from new_events where type = 'ItemCreated') group by stream_id) a
          where i.id = a.id`,
        items_movements: sql`insert into stock_movements (event_id, item_id, delta, reason, quantity_after, unit_price, user_id, created_at)
          select n.event_id, i.id, (n.data ->> 'delta')::int, n.data ->> 'reason', (n.data ->> 'quantity')::int, i.price,
            n.metadata -> 'actor' ->> 'uid', n.created_at
          from new_events n join items i on i.id = substr(n.stream_id, 6)::uuid
          where n.type = 'StockAdjusted'`,
        ...stockLevelCtes(createdAndAdjusted),
      },
    },
    // With edits (a re-import updating items by SKU, an API edit, a revert), or moves (which
    // set no field: a step that moves the item's version and time, see item-batch-steps.ts).
    // A batch of creations (a CSV import, an API create): one row each, at its stream's last
    // version (a crossing right after the creation only touches it), the categories' counts
    // and the search words. An item created in a batch has nothing else in it (createItem
    // emits ItemCreated and at most ItemWentLow), and its category exists before the batch.
    // A batch of edits and stock changes (adjustments, a re-import updating items by SKU, a
    // revert): each item row updated once, to the fields its last events set, its last
    // quantity, version and time (what ItemUpdated, StockAdjusted and the two touches leave);
    // the search text again when it was edited; one movement per adjustment, at the price the
    // item had then; the categories' counts for moves; the edited words.
    {
      types: ['ItemCreated', 'ItemUpdated', 'StockAdjusted', 'StockMoved', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        items_created: itemsCreated,
        // A move is -1 where it leaves and +1 where it goes, as the handler counts it.
        items_category_counts: sql`update categories c set item_count = c.item_count + k.delta
          from (select id, sum(delta) as delta from (
              select (data ->> 'categoryId')::uuid as id, 1 as delta from new_events where type = 'ItemCreated'
              union all
              select (data -> 'changes' -> 'categoryId' ->> 'to')::uuid, 1 from new_events
              where type = 'ItemUpdated' and data -> 'changes' ? 'categoryId'
              union all
              select (data -> 'changes' -> 'categoryId' ->> 'from')::uuid, -1 from new_events
              where type = 'ItemUpdated' and data -> 'changes' ? 'categoryId') m
            group by id) k
          where c.id = k.id`,
        items_words: sql`insert into search_words (word)
          select distinct w from new_events n,
            regexp_split_to_table(lower(concat_ws(' ', nullif(n.data ->> 'name', ''), nullif(n.data ->> 'description', ''),
              nullif(n.data ->> 'sku', ''), nullif(n.data ->> 'barcode', ''),
              nullif(n.data -> 'changes' -> 'name' ->> 'to', ''), nullif(n.data -> 'changes' -> 'description' ->> 'to', ''),
              nullif(n.data -> 'changes' -> 'sku' ->> 'to', ''), nullif(n.data -> 'changes' -> 'barcode' ->> 'to', ''))),
              '[^[:alpha:]]+') w
          where n.type in ('ItemCreated', 'ItemUpdated') and length(w) between 3 and 40 order by w
          on conflict do nothing`,
        items_steps: itemBatchSteps,
        items_changed: sql`update items i set ${sql.join(editedColumns.map((c) => sql`${sql.ref(c.column)} = ${sql.ref(`v.${c.column}`)}`))},
            category_name = v.category_name, quantity = v.quantity, version = v.version, updated_at = v.at,
            search_text = case when v.edited then lower(v.name || ' ' || v.sku || ' ' || v.description || ' ' || v.category_name
              || coalesce(' ' || v.barcode, '')) else v.search_text end
          from (
            select l.item_id, l.version, l.at, l.edited, o.search_text,
              ${sql.join(editedColumns.map((c) => sql`${fieldAt(sql`l.state`, c.key, sql.ref(`o.${c.column}`), c.type)} as ${sql.ref(c.column)}`))},
              case when l.state ? 'categoryId' then c.name else o.category_name end as category_name,
              ${fieldAt(sql`l.state`, 'quantity', sql`o.quantity`, 'int')} as quantity
            from (select distinct on (stream_id) item_id, state, stream_version as version, created_at as at,
                  bool_or(type = 'ItemUpdated') over (partition by stream_id) as edited
                from items_steps order by stream_id, stream_version desc) l
            join items o on o.id = l.item_id
            left join categories c on c.id = (l.state ->> 'categoryId')::uuid) v
          where i.id = v.item_id`,
        items_movements: sql`insert into stock_movements (event_id, item_id, delta, reason, quantity_after, unit_price, user_id, created_at)
          select s.event_id, i.id, (s.data ->> 'delta')::int, s.data ->> 'reason', (s.data ->> 'quantity')::int,
            ${fieldAt(sql`s.state`, 'price', sql`i.price`, 'numeric')}, s.metadata -> 'actor' ->> 'uid', s.created_at
          from items_steps s join items i on i.id = s.item_id
          where s.type = 'StockAdjusted'`,
        ...stockLevelCtes(sql`${createdAndAdjusted} union all ${moved}`),
      },
    },
    // A transfer's step (transfer-service.ts: one shipment, receipt or write-off per item, with
    // its crossings, of its total and per site), per item: its last quantity on hand and units
    // in transit as the events say them, its last version and time, and the levels the
    // shipments took and receipts put. Nothing else is in such a batch (its transfer's own
    // event aside, which is not an item's). A receipt at a site where an item stays low writes
    // a SiteWentLow per such item: without them here, 500 lines took 1.5 s event by event.
    {
      types: [
        'StockShipped',
        'StockReceived',
        'TransitWrittenOff',
        'ItemWentLow',
        'ItemRecovered',
        'SiteWentLow',
        'SiteRecovered',
      ],
      ctes: {
        items_in_transit: sql`update items i set quantity = coalesce(a.quantity, i.quantity),
            in_transit = coalesce(a.in_transit, i.in_transit), version = a.version, updated_at = a.at
          from (
            select substr(stream_id, 6)::uuid as id, max(stream_version) as version, max(created_at) as at,
              (array_agg((data ->> 'quantityAfter')::int order by stream_version desc)
                filter (where type in ('StockShipped', 'StockReceived')))[1] as quantity,
              (array_agg((data ->> 'inTransitAfter')::int order by stream_version desc)
                filter (where type in ('StockShipped', 'StockReceived', 'TransitWrittenOff')))[1] as in_transit
            from new_events where type in ('StockShipped', 'StockReceived', 'TransitWrittenOff', 'ItemWentLow', 'ItemRecovered',
              'SiteWentLow', 'SiteRecovered')
            group by stream_id) a
          where i.id = a.id`,
        ...stockLevelCtes(shippedAndReceived),
      },
    },
  ],
};
