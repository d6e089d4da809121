// The item events of one append, each with what the item's fields are once it has happened:
// the SQL the set-based projection forms (items, history, activity, dashboard) share for
// batches of edits and stock changes. A handler that runs event by event reads the rows
// the handlers before it left; a set-based form sees every table as it was before the
// statement, so it reads an event's item as the row before the batch with the batch's
// changes up to that event laid over it.
import { sql, type RawBuilder } from 'kysely';

/**
 * Columns: the `new_events` columns, `item_id`, and `state`: a jsonb of the fields the
 * stream's events in this batch set up to and including this one, named as ItemUpdated's
 * `changes` name them (name, description, sku, categoryId, price, threshold, imageUrl,
 * expiryDate, barcode) plus `quantity` (from StockAdjusted); a later change of a field wins.
 * A move sets no field (the total stays). Only ItemUpdated, StockAdjusted, StockMoved,
 * ItemWentLow and ItemRecovered of items not created in the
 * batch (a created item's crossing is folded into its creation by the forms that need it).
 * Each stream's events are its own partition, so the window stays as short as the stream's
 * part of the batch.
 */
export const itemBatchSteps: RawBuilder<unknown> = sql`select distinct on (k.stream_id, k.stream_version)
    k.position, k.stream_id, k.stream_type, k.stream_version, k.event_id, k.type, k.data, k.metadata, k.created_at,
    substr(k.stream_id, 6)::uuid as item_id, coalesce(k.state, '{}'::jsonb) as state
  from (
    select n.*, jsonb_object_agg(f.key, f.value) filter (where f.key is not null)
        over (partition by n.stream_id order by n.stream_version) as state
    from new_events n
    left join lateral (
      select c.key, c.value -> 'to' as value from jsonb_each(case when n.type = 'ItemUpdated' then n.data -> 'changes' end) c
      union all
      select 'quantity', n.data -> 'quantity' where n.type = 'StockAdjusted') f on true
    where n.type in ('ItemUpdated', 'StockAdjusted', 'StockMoved', 'ItemWentLow', 'ItemRecovered')
      and n.stream_id not in (select stream_id from new_events where type = 'ItemCreated')) k
  order by k.stream_id, k.stream_version`;

/** A field of an item as of a step: the step's `state` when the batch set it (as `type`), else `current`. */
export const fieldAt = (state: RawBuilder<unknown>, key: string, current: RawBuilder<unknown>, type = 'text') =>
  sql`case when ${state} ? ${sql.lit(key)} then (${state} ->> ${sql.lit(key)})::${sql.raw(type)} else ${current} end`;

/** Every item column an ItemUpdated can change, by its key in `changes`, with its SQL type. */
export const editedColumns: Array<{ key: string; column: string; type: string }> = [
  { key: 'name', column: 'name', type: 'text' },
  { key: 'description', column: 'description', type: 'text' },
  { key: 'sku', column: 'sku', type: 'text' },
  { key: 'categoryId', column: 'category_id', type: 'uuid' },
  { key: 'price', column: 'price', type: 'numeric' },
  { key: 'threshold', column: 'threshold', type: 'int' },
  { key: 'imageUrl', column: 'image_url', type: 'text' },
  { key: 'expiryDate', column: 'expiry_date', type: 'date' },
  { key: 'barcode', column: 'barcode', type: 'text' },
];
