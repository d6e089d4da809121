// The dashboard's roll-ups, kept in step with the item streams: per item what the sums
// need (dashboard_items), the net change of stock and the sales per UTC day (stock_daily),
// stock by category (category_stock), and each item's sales by day (item_sales_daily,
// item_sales; see migration 014). The dashboard and the wall display read these instead of
// scanning every item or sale. Money stays in numeric (never floats), so a rebuild matches exactly.
//
// A revert of a sale (a 'correction' whose metadata names the sale in `reverts`) takes the
// sale back out of every sales figure: the units and revenue the sale added are subtracted
// from the sale's own day, at the sale's own price, so the revenue of the day the sale was
// rung up drops (what a manager reading "revenue on the 3rd" expects: the sale never
// happened), not the day of the undo. Each such revert is kept in reverted_sales (migration
// 019) with when it was made, so a window read as of a moment before the revert still
// counts the sale (server/dashboard/sales-windows.ts). A revert of that revert brings the
// sale back the same way. The stock itself moves when the revert is made, as recorded.
import { sql, type RawBuilder } from 'kysely';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { fieldAt, itemBatchSteps } from '../inventory/item-batch-steps.js';

type Data<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];

interface ItemLevel {
  category_id: string;
  quantity: number;
  price: string;
  low: boolean;
}

const itemIdOf = (streamId: string) => streamId.slice('item-'.length);
/** A price from event data as SQL numeric, rounded as the numeric(12, 2) columns round it. */
const money = (value: number) => sql`round(${String(value)}::numeric, 2)`;
const dayOf = (event: StoredEvent) => event.createdAt.toISOString().slice(0, 10);

async function level(trx: Transaction, itemId: string): Promise<ItemLevel | null> {
  const rows = await sql<ItemLevel>`select category_id, quantity, price::text as price, low from dashboard_items
    where item_id = ${itemId}`.execute(trx);
  return rows.rows[0] ?? null;
}

/**
 * The day's roll-up row for this item: a day has 16 rows, one per last hex digit of the
 * item id (migration 006 computes the same in SQL), so concurrent adjustments of different
 * items do not all wait on one row lock. Readers sum the rows.
 */
const shardOf = (streamId: string) => Math.max('0123456789abcdef'.indexOf(streamId.slice(-1).toLowerCase()), 0);

async function addToDay(
  trx: Transaction,
  event: StoredEvent,
  items: number,
  units: number,
  value: RawBuilder<unknown>,
  sold = 0,
  revenue: RawBuilder<unknown> = sql`0`,
) {
  await sql`insert into stock_daily (day, shard, items_delta, units_delta, value_delta, sold_units, sold_revenue)
    values (${dayOf(event)}::date, ${shardOf(event.streamId)}, ${items}, ${units}, ${value}, ${sold}, ${revenue})
    on conflict (day, shard) do update set items_delta = stock_daily.items_delta + excluded.items_delta,
      units_delta = stock_daily.units_delta + excluded.units_delta, value_delta = stock_daily.value_delta + excluded.value_delta,
      sold_units = stock_daily.sold_units + excluded.sold_units, sold_revenue = stock_daily.sold_revenue + excluded.sold_revenue`.execute(
    trx,
  );
}

/**
 * Adds the rows of `dashboard_sales` (item_id, day, sold, revenue: at most one per item and
 * day, an item's sales of the batch booked to a day, and the reverted sales it takes back from
 * their own days) to the items' sales rows. A row of a day already held gets that day's sums
 * and the sums of the batch's earlier days in its "before"; a day not held yet gets a row
 * whose "before" is the last held day's total plus the batch's earlier days, and becomes the
 * previous day of the held days after it (a transaction that started before midnight and
 * committed after a later one). The update and the insert touch different rows (held days,
 * new days, the totals), so they can be CTEs of one statement.
 */
const salesWrites = {
  dashboard_sales_held: sql`update item_sales_daily d set sold = d.sold + u.sold, revenue = d.revenue + u.revenue,
      sold_before = d.sold_before + u.sold_before, revenue_before = d.revenue_before + u.revenue_before,
      prev_day = case when u.prev_day is not null and (d.prev_day is null or d.prev_day < u.prev_day) then u.prev_day else d.prev_day end
    from (select q.item_id, q.day,
        coalesce(sum(s.sold) filter (where s.day = q.day), 0) as sold, coalesce(sum(s.revenue) filter (where s.day = q.day), 0) as revenue,
        coalesce(sum(s.sold) filter (where s.day < q.day), 0) as sold_before,
        coalesce(sum(s.revenue) filter (where s.day < q.day), 0) as revenue_before,
        max(s.day) filter (where s.day < q.day) as prev_day
      from item_sales_daily q join dashboard_sales s on s.item_id = q.item_id and s.day <= q.day
      group by q.item_id, q.day) u
    where d.item_id = u.item_id and d.day = u.day`,
  dashboard_sales_days: sql`insert into item_sales_daily (item_id, day, prev_day, sold, revenue, sold_before, revenue_before)
    select s.item_id, s.day, greatest(p.day, b.prev_day), s.sold, s.revenue,
      coalesce(p.sold_before + p.sold, 0) + b.sold, coalesce(p.revenue_before + p.revenue, 0) + b.revenue
    from dashboard_sales s
    left join lateral (select q.day, q.sold, q.revenue, q.sold_before, q.revenue_before from item_sales_daily q
      where q.item_id = s.item_id and q.day < s.day order by q.day desc limit 1) p on true
    cross join lateral (select coalesce(sum(o.sold), 0) as sold, coalesce(sum(o.revenue), 0) as revenue, max(o.day) as prev_day
      from dashboard_sales o where o.item_id = s.item_id and o.day < s.day) b
    where not exists (select 1 from item_sales_daily x where x.item_id = s.item_id and x.day = s.day)
    order by s.item_id, s.day
    on conflict (item_id, day) do update set sold = item_sales_daily.sold + excluded.sold,
      revenue = item_sales_daily.revenue + excluded.revenue`,
  dashboard_sales_totals: sql`insert into item_sales (item_id, sold, revenue, last_day)
    select item_id, sum(sold), sum(revenue), max(day) from dashboard_sales group by item_id order by item_id
    on conflict (item_id) do update set sold = item_sales.sold + excluded.sold, revenue = item_sales.revenue + excluded.revenue,
      last_day = greatest(item_sales.last_day, excluded.last_day)`,
};
const salesCtes = sql.join(Object.entries(salesWrites).map(([name, body]) => sql`${sql.id(name)} as (${body})`));

async function addSale(
  trx: Transaction,
  event: StoredEvent,
  sold: number,
  revenue: RawBuilder<unknown>,
  day = dayOf(event),
) {
  await sql`with dashboard_sales as (select ${itemIdOf(event.streamId)}::uuid as item_id, ${day}::date as day,
      ${sold}::bigint as sold, (${revenue})::numeric as revenue),
    ${salesCtes}
    select 1`.execute(trx);
}

/**
 * The sale (or revert of a sale) that `reverts` names, as reverted_sales records its undo:
 * its item, the sale's time and price, and the delta that takes it back (the sale's own
 * negated). Empty for anything else (a restock, an edit). `reverts` is SQL for the named
 * event's id.
 */
const revertedSale = (
  reverts: RawBuilder<unknown>,
) => sql`select m.item_id, m.created_at as sold_at, -m.delta as delta, m.unit_price
    from stock_movements m where m.event_id = ${reverts} and m.reason = 'sale'
    union all
    select r.item_id, r.sold_at, -r.delta, r.unit_price from reverted_sales r where r.event_id = ${reverts}`;

/** The day (UTC) and shard of a reverted_sales row, as stock_daily keys the sale's day. */
const revertedDay = sql`(sold_at at time zone 'UTC')::date`;
const revertedShard = sql`greatest(position(lower(right(item_id::text, 1)) in '0123456789abcdef') - 1, 0)`;

/** Takes a reverted sale out of its day's figures (see the top of this file); nothing for other reverts. */
async function takeBackSale(trx: Transaction, event: StoredEvent, reverts: string) {
  const rows = await sql<{
    day: string;
    delta: number;
    unit_price: string;
  }>`insert into reverted_sales (event_id, item_id, sold_at,
      delta, unit_price, created_at)
    select ${event.eventId}, item_id, sold_at, delta, unit_price, ${event.createdAt} from (${revertedSale(sql`${reverts}::uuid`)}) o
    returning to_char(${revertedDay}, 'YYYY-MM-DD') as day, delta, unit_price::text as unit_price`.execute(trx);
  for (const row of rows.rows) {
    const sold = -Number(row.delta);
    const revenue = sql`${sold} * ${row.unit_price}::numeric`;
    await sql`update stock_daily set sold_units = sold_units + ${sold}, sold_revenue = sold_revenue + ${revenue}
      where day = ${row.day}::date and shard = ${shardOf(event.streamId)}`.execute(trx);
    await addSale(trx, event, sold, revenue, row.day);
  }
}

/** Adds (sign 1) or removes (sign -1) one item's whole contribution to its category. */
async function countInCategory(
  trx: Transaction,
  categoryId: string,
  sign: 1 | -1,
  quantity: number,
  price: RawBuilder<unknown>,
  low: boolean,
) {
  await sql`insert into category_stock (category_id, item_count, units, value, low_count)
    values (${categoryId}, ${sign}, ${sign * quantity}, ${sign * quantity} * ${price}, ${low ? sign : 0})
    on conflict (category_id) do update set item_count = category_stock.item_count + excluded.item_count,
      units = category_stock.units + excluded.units, value = category_stock.value + excluded.value,
      low_count = category_stock.low_count + excluded.low_count`.execute(trx);
  // A category without items has no row, the same as a fresh roll-up would give.
  await sql`delete from category_stock where category_id = ${categoryId} and item_count = 0`.execute(trx);
}

async function setLow(trx: Transaction, event: StoredEvent, low: boolean) {
  const itemId = itemIdOf(event.streamId);
  const current = await level(trx, itemId);
  if (!current || current.low === low) return;
  await sql`update dashboard_items set low = ${low} where item_id = ${itemId}`.execute(trx);
  await sql`update category_stock set low_count = low_count + ${low ? 1 : -1} where category_id = ${current.category_id}`.execute(
    trx,
  );
}

/** A shipment (-units) or a receipt (+units) of a transfer: as an adjustment that sells nothing. */
async function transferStep(trx: Transaction, event: StoredEvent, delta: number, quantity: number) {
  const itemId = itemIdOf(event.streamId);
  const current = await level(trx, itemId);
  if (!current) return;
  const price = sql`${current.price}::numeric`;
  await addToDay(trx, event, 0, delta, sql`${delta} * ${price}`);
  await sql`update category_stock set units = units + ${delta}, value = value + ${delta} * ${price}
    where category_id = ${current.category_id}`.execute(trx);
  await sql`update dashboard_items set quantity = ${quantity} where item_id = ${itemId}`.execute(trx);
}

// Parts the set-based forms below share.
const dashboardCreated = sql`select (n.data ->> 'itemId')::uuid as item_id, (n.data ->> 'categoryId')::uuid as category_id,
      (n.data ->> 'quantity')::int as quantity, round((n.data ->> 'price')::numeric, 2) as price,
      (n.created_at at time zone 'UTC')::date as day,
      greatest(position(lower(right(n.stream_id, 1)) in '0123456789abcdef') - 1, 0) as shard,
      coalesce((select c.type = 'ItemWentLow' from new_events c
        where c.stream_id = n.stream_id and c.type in ('ItemWentLow', 'ItemRecovered')
        order by c.stream_version desc limit 1), false) as low
    from new_events n where n.type = 'ItemCreated'`;
const dashboardCreatedItems = sql`insert into dashboard_items (item_id, category_id, quantity, price, low)
    select item_id, category_id, quantity, price, low from dashboard_created order by item_id`;

/**
 * The batch's reverts of sales, recorded (see the top of this file): one row per revert whose
 * `reverts` names a sale or a revert of one, with the sale's day and shard. What they name
 * was written by an earlier transaction (a revert is decided on the committed stream).
 */
const dashboardReverted = sql`insert into reverted_sales (event_id, item_id, sold_at, delta, unit_price, created_at)
    select n.event_id, o.item_id, o.sold_at, o.delta, o.unit_price, n.created_at
    from new_events n cross join lateral (${revertedSale(sql`(n.metadata ->> 'reverts')::uuid`)}) o
    where n.type = 'StockAdjusted' and n.metadata ? 'reverts'
    order by n.event_id
    returning item_id, ${revertedDay} as day, ${revertedShard} as shard, -delta as sold, -delta * unit_price as revenue`;

/** The sales of `dashboard_levels`-like rows (item_id, day, sold, revenue) and the reverted ones, one row per item and day. */
const salesOfBatch = (
  sales: RawBuilder<unknown>,
) => sql`select item_id, day, sum(sold) as sold, sum(revenue) as revenue from (
      ${sales}
      union all
      select item_id, day, sold, revenue from dashboard_reverted) s
    group by item_id, day`;

/**
 * Adds to each day's shard: `changes` (rows of day, shard, items, units, value, sold,
 * revenue), the items created in the batch and the reverted sales taken back from their
 * days, summed per row and written once in key order, so concurrent batches take their row
 * locks in the same order.
 */
const addToStockDaily = (
  changes: RawBuilder<unknown>,
) => sql`insert into stock_daily (day, shard, items_delta, units_delta, value_delta,
      sold_units, sold_revenue)
    select day, shard, sum(items), sum(units), sum(value), sum(sold), sum(revenue) from (
        ${changes}
        union all
        select day, shard, 1, quantity, quantity * price, 0, 0 from dashboard_created
        union all
        select day, shard, 0, 0, 0, sold, revenue from dashboard_reverted) d
    group by day, shard order by day, shard
    on conflict (day, shard) do update set items_delta = stock_daily.items_delta + excluded.items_delta,
      units_delta = stock_daily.units_delta + excluded.units_delta,
      value_delta = stock_daily.value_delta + excluded.value_delta,
      sold_units = stock_daily.sold_units + excluded.sold_units, sold_revenue = stock_daily.sold_revenue + excluded.sold_revenue`;

/** A sale as the items projection records its movement: reason 'sale', -delta units. */
const isSale = (e: string) => sql.raw(`${e}.type = 'StockAdjusted' and ${e}.data ->> 'reason' = 'sale'`);

export const dashboardProjection: Projection = {
  name: 'dashboard',
  tables: ['dashboard_items', 'stock_daily', 'category_stock', 'item_sales_daily', 'item_sales', 'reverted_sales'],
  handlers: {
    ItemCreated: async (event: StoredEvent<Data<'ItemCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into dashboard_items (item_id, category_id, quantity, price, low)
        values (${d.itemId}, ${d.categoryId}, ${d.quantity}, ${money(d.price)}, false)`.execute(trx);
      await addToDay(trx, event, 1, d.quantity, sql`${d.quantity} * ${money(d.price)}`);
      await countInCategory(trx, d.categoryId, 1, d.quantity, money(d.price), false);
    },
    ItemUpdated: async (event: StoredEvent<Data<'ItemUpdated'>>, trx) => {
      const { price, categoryId } = event.data.changes;
      if (!price && !categoryId) return;
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const newPrice = price ? money(price.to) : sql`${current.price}::numeric`;
      const newCategory = categoryId ? categoryId.to : current.category_id;
      if (price)
        await addToDay(trx, event, 0, 0, sql`${current.quantity} * (${money(price.to)} - ${money(price.from)})`);
      await countInCategory(
        trx,
        current.category_id,
        -1,
        current.quantity,
        sql`${current.price}::numeric`,
        current.low,
      );
      await countInCategory(trx, newCategory, 1, current.quantity, newPrice, current.low);
      await sql`update dashboard_items set category_id = ${newCategory}, price = ${newPrice} where item_id = ${itemId}`.execute(
        trx,
      );
    },
    StockAdjusted: async (event: StoredEvent<Data<'StockAdjusted'>>, trx) => {
      const reverts = (event.metadata as { reverts?: string }).reverts;
      if (reverts) await takeBackSale(trx, event, reverts);
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const { delta, quantity, reason } = event.data;
      const price = sql`${current.price}::numeric`;
      if (reason === 'sale') {
        await addToDay(trx, event, 0, delta, sql`${delta} * ${price}`, -delta, sql`${-delta} * ${price}`);
        await addSale(trx, event, -delta, sql`${-delta} * ${price}`);
      } else {
        await addToDay(trx, event, 0, delta, sql`${delta} * ${price}`);
      }
      await sql`update category_stock set units = units + ${delta}, value = value + ${delta} * ${price}
        where category_id = ${current.category_id}`.execute(trx);
      await sql`update dashboard_items set quantity = ${quantity} where item_id = ${itemId}`.execute(trx);
    },
    // A transfer's shipment takes stock off hand and its receipt puts it back (at another
    // site): the roll-ups count what is on hand, as items.quantity does. Units in transit
    // are no stock of any site until they arrive; a write-off of them changes nothing here.
    StockShipped: async (event: StoredEvent<Data<'StockShipped'>>, trx) =>
      transferStep(trx, event, -event.data.quantity, event.data.quantityAfter),
    StockReceived: async (event: StoredEvent<Data<'StockReceived'>>, trx) =>
      transferStep(trx, event, event.data.quantity, event.data.quantityAfter),
    ItemWentLow: async (event, trx) => setLow(trx, event, true),
    ItemRecovered: async (event, trx) => setLow(trx, event, false),
    ItemDeleted: async (event, trx) => {
      const itemId = itemIdOf(event.streamId);
      const current = await level(trx, itemId);
      if (!current) return;
      const price = sql`${current.price}::numeric`;
      await addToDay(trx, event, -1, -current.quantity, sql`${-current.quantity} * ${price}`);
      await countInCategory(trx, current.category_id, -1, current.quantity, price, current.low);
      await sql`delete from dashboard_items where item_id = ${itemId}`.execute(trx);
    },
  },
  batch: [
    // Without edits (the group commit's adjustments, creations): the hot path's form, kept
    // apart so its statement stays as small as it was.
    // A batch of adjustments and crossings, per item: the sum of its deltas, its last
    // quantity and whether it ends low. Each roll-up row is written once, in key order, so
    // concurrent batches take their row locks in the same order.
    // A created item (an import, an API create) gets its row, low if a crossing follows it in
    // the batch, and adds itself to its day and its category, merged with the adjustments'
    // sums so each roll-up row is still written once.
    {
      types: ['ItemCreated', 'StockAdjusted', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        dashboard_created: dashboardCreated,
        dashboard_created_items: dashboardCreatedItems,
        dashboard_levels: sql`select d.item_id, d.category_id, d.price, d.low as was_low,
            min((n.created_at at time zone 'UTC')::date) as day,
            greatest(position(lower(right(n.stream_id, 1)) in '0123456789abcdef') - 1, 0) as shard,
            count(*) filter (where n.type = 'StockAdjusted') as adjustments,
            coalesce(sum((n.data ->> 'delta')::int) filter (where n.type = 'StockAdjusted'), 0) as delta,
            count(*) filter (where ${isSale('n')}) as sales,
            coalesce(sum(-(n.data ->> 'delta')::int) filter (where ${isSale('n')}), 0) as sold,
            coalesce(sum(-(n.data ->> 'delta')::int * d.price) filter (where ${isSale('n')}), 0) as revenue,
            (array_agg((n.data ->> 'quantity')::int order by n.stream_version desc) filter (where n.type = 'StockAdjusted'))[1] as quantity,
            coalesce((array_agg(n.type = 'ItemWentLow' order by n.stream_version desc)
              filter (where n.type in ('ItemWentLow', 'ItemRecovered')))[1], d.low) as low
          from new_events n join dashboard_items d on d.item_id = substr(n.stream_id, 6)::uuid
          where n.type in ('StockAdjusted', 'ItemWentLow', 'ItemRecovered')
          group by n.stream_id, d.item_id, d.category_id, d.price, d.low`,
        dashboard_item_levels: sql`update dashboard_items d set quantity = coalesce(l.quantity, d.quantity), low = l.low
          from dashboard_levels l where d.item_id = l.item_id`,
        dashboard_reverted: dashboardReverted,
        dashboard_days:
          addToStockDaily(sql`select day, shard, 0 as items, delta as units, delta * price as value, sold, revenue
          from dashboard_levels where adjustments > 0`),
        dashboard_sales: salesOfBatch(sql`select item_id, day, sold, revenue from dashboard_levels where sales > 0`),
        ...salesWrites,
        // For adjustments an update in effect (the handlers only update): the row exists while
        // the category has items. Creations add items, so their categories' rows exist after.
        dashboard_categories: sql`insert into category_stock (category_id, item_count, units, value, low_count)
          select category_id, sum(items), sum(units), sum(value), sum(lows) from (
              select category_id, 0 as items, delta as units, delta * price as value, low::int - was_low::int as lows
              from dashboard_levels l where exists (select 1 from category_stock c where c.category_id = l.category_id)
              union all
              select category_id, 1, quantity, quantity * price, low::int from dashboard_created) d
          group by category_id order by category_id
          on conflict (category_id) do update set item_count = category_stock.item_count + excluded.item_count,
            units = category_stock.units + excluded.units,
            value = category_stock.value + excluded.value, low_count = category_stock.low_count + excluded.low_count`,
      },
    },
    // With edits (a re-import updating items by SKU, an API edit, a revert).
    // A batch of edits, adjustments and crossings, per item: the sum of its deltas, the value
    // they and its price changes add to the day (at the price and quantity the item had at
    // each, see item-batch-steps.ts), its last quantity, price and category, and whether it
    // ends low. In its category the sums of its adjustments and crossings; an item whose price
    // or category changed leaves its whole contribution where it was and brings it to where it
    // is (what the handler's remove and add come to, however the steps interleave). Each
    // roll-up row is written once, in key order, so concurrent batches take their row locks
    // in the same order; a category row left with no items goes, as the handler leaves it.
    // A created item (an import, an API create) gets its row, low if a crossing follows it in
    // the batch, and adds itself to its day and its category, merged with the others' sums.
    {
      types: ['ItemCreated', 'ItemUpdated', 'StockAdjusted', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        dashboard_created: dashboardCreated,
        dashboard_created_items: dashboardCreatedItems,
        dashboard_steps: itemBatchSteps,
        dashboard_levels: sql`select d.item_id, d.category_id as was_category, d.quantity as was_quantity, d.price as was_price,
            d.low as was_low, min((s.created_at at time zone 'UTC')::date) as day,
            greatest(position(lower(right(s.stream_id, 1)) in '0123456789abcdef') - 1, 0) as shard,
            count(*) filter (where s.type = 'StockAdjusted') as adjustments,
            count(*) filter (where s.type = 'ItemUpdated' and s.data -> 'changes' ? 'price') as repriced,
            coalesce(bool_or(s.type = 'ItemUpdated' and s.data -> 'changes' ?| array['price', 'categoryId']), false) as moved,
            coalesce(sum((s.data ->> 'delta')::int) filter (where s.type = 'StockAdjusted'), 0) as delta,
            count(*) filter (where ${isSale('s')}) as sales,
            coalesce(sum(-(s.data ->> 'delta')::int) filter (where ${isSale('s')}), 0) as sold,
            coalesce(sum(-(s.data ->> 'delta')::int * ${fieldAt(sql`s.state`, 'price', sql`d.price`, 'numeric(12, 2)')})
              filter (where ${isSale('s')}), 0) as revenue,
            coalesce(sum(case
              when s.type = 'StockAdjusted'
                then (s.data ->> 'delta')::int * ${fieldAt(sql`s.state`, 'price', sql`d.price`, 'numeric(12, 2)')}
              when s.type = 'ItemUpdated' and s.data -> 'changes' ? 'price'
                then ${fieldAt(sql`s.state`, 'quantity', sql`d.quantity`, 'int')}
                  * (round((s.data -> 'changes' -> 'price' ->> 'to')::numeric, 2) - round((s.data -> 'changes' -> 'price' ->> 'from')::numeric, 2))
              end), 0) as value,
            (array_agg(s.state order by s.stream_version desc))[1] as state,
            coalesce((array_agg(s.type = 'ItemWentLow' order by s.stream_version desc)
              filter (where s.type in ('ItemWentLow', 'ItemRecovered')))[1], d.low) as low
          from dashboard_steps s join dashboard_items d on d.item_id = s.item_id
          group by s.stream_id, d.item_id, d.category_id, d.quantity, d.price, d.low`,
        dashboard_finals: sql`select l.*, ${fieldAt(sql`l.state`, 'categoryId', sql`l.was_category`, 'uuid')} as category_id,
            ${fieldAt(sql`l.state`, 'quantity', sql`l.was_quantity`, 'int')} as quantity,
            ${fieldAt(sql`l.state`, 'price', sql`l.was_price`, 'numeric(12, 2)')} as price
          from dashboard_levels l`,
        dashboard_item_levels: sql`update dashboard_items d set quantity = f.quantity, low = f.low, price = f.price,
            category_id = f.category_id
          from dashboard_finals f where d.item_id = f.item_id`,
        dashboard_reverted: dashboardReverted,
        dashboard_days: addToStockDaily(sql`select day, shard, 0 as items, delta as units, value, sold, revenue
          from dashboard_finals where adjustments > 0 or repriced > 0`),
        dashboard_sales: salesOfBatch(sql`select item_id, day, sold, revenue from dashboard_finals where sales > 0`),
        ...salesWrites,
        // Adjustments and crossings only update (the handlers only update): the row exists
        // while the category has items. Moves and creations bring items, so their rows exist after.
        dashboard_category_sums: sql`select category_id, sum(items) as items, sum(units) as units, sum(value) as value,
            sum(lows) as lows from (
              select was_category as category_id, 0 as items, delta as units, value, low::int - was_low::int as lows
              from dashboard_finals f
              where not moved and exists (select 1 from category_stock c where c.category_id = f.was_category)
              union all
              select was_category, -1, -was_quantity, -was_quantity * was_price, -was_low::int from dashboard_finals where moved
              union all
              select category_id, 1, quantity, quantity * price, low::int from dashboard_finals where moved
              union all
              select category_id, 1, quantity, quantity * price, low::int from dashboard_created) d
          group by category_id`,
        dashboard_categories: sql`insert into category_stock (category_id, item_count, units, value, low_count)
          select category_id, items, units, value, lows from dashboard_category_sums s
          where not exists (select 1 from category_stock c where c.category_id = s.category_id and c.item_count + s.items = 0)
          order by category_id
          on conflict (category_id) do update set item_count = category_stock.item_count + excluded.item_count,
            units = category_stock.units + excluded.units,
            value = category_stock.value + excluded.value, low_count = category_stock.low_count + excluded.low_count`,
        dashboard_categories_emptied: sql`delete from category_stock c using dashboard_category_sums s
          where c.category_id = s.category_id and c.item_count + s.items = 0`,
      },
    },
    // A transfer's step (transfer-service.ts), per item: the hot path's form with shipments
    // and receipts for adjustments (-units and +units, none a sale), and the last quantity on
    // hand they leave. A batch of write-offs only (no stock on hand moved) runs no form here.
    {
      types: ['StockShipped', 'StockReceived', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        dashboard_created: dashboardCreated,
        dashboard_levels: sql`select d.item_id, d.category_id, d.price, d.low as was_low,
            min((n.created_at at time zone 'UTC')::date) as day,
            greatest(position(lower(right(n.stream_id, 1)) in '0123456789abcdef') - 1, 0) as shard,
            count(*) filter (where n.type in ('StockShipped', 'StockReceived')) as adjustments,
            coalesce(sum(case n.type when 'StockShipped' then -(n.data ->> 'quantity')::int
              when 'StockReceived' then (n.data ->> 'quantity')::int end), 0) as delta,
            (array_agg((n.data ->> 'quantityAfter')::int order by n.stream_version desc)
              filter (where n.type in ('StockShipped', 'StockReceived')))[1] as quantity,
            coalesce((array_agg(n.type = 'ItemWentLow' order by n.stream_version desc)
              filter (where n.type in ('ItemWentLow', 'ItemRecovered')))[1], d.low) as low
          from new_events n join dashboard_items d on d.item_id = substr(n.stream_id, 6)::uuid
          where n.type in ('StockShipped', 'StockReceived', 'ItemWentLow', 'ItemRecovered')
          group by n.stream_id, d.item_id, d.category_id, d.price, d.low`,
        dashboard_item_levels: sql`update dashboard_items d set quantity = coalesce(l.quantity, d.quantity), low = l.low
          from dashboard_levels l where d.item_id = l.item_id`,
        dashboard_reverted: dashboardReverted,
        dashboard_days: addToStockDaily(sql`select day, shard, 0 as items, delta as units, delta * price as value,
            0 as sold, 0 as revenue
          from dashboard_levels where adjustments > 0`),
        // An update in effect (the handlers only update): the row exists while the category has
        // items. Written in key order, as the other forms write it.
        dashboard_categories: sql`insert into category_stock (category_id, item_count, units, value, low_count)
          select category_id, 0, sum(delta), sum(delta * price), sum(low::int - was_low::int) from dashboard_levels l
          where exists (select 1 from category_stock c where c.category_id = l.category_id)
          group by category_id order by category_id
          on conflict (category_id) do update set units = category_stock.units + excluded.units,
            value = category_stock.value + excluded.value, low_count = category_stock.low_count + excluded.low_count`,
      },
    },
  ],
};
