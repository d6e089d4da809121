// The history projections (migration 012): item_versions and category_versions keep every
// state an item or category had, with the positions and times it was valid between, so the
// store as of any moment is an index lookup; `reverts` records which events were reverted,
// its primary key making a second revert of one event fail in the reverting transaction.
import { sql, type RawBuilder } from 'kysely';
import type { CategoryEvent, InventoryEvent } from '../../shared/inventory-events.js';
import type { Projection, StoredEvent, Transaction } from '../eventstore/types.js';
import { fieldAt, itemBatchSteps } from '../inventory/item-batch-steps.js';

type ItemData<T extends InventoryEvent['type']> = Extract<InventoryEvent, { type: T }>['data'];
type CategoryData<T extends CategoryEvent['type']> = Extract<CategoryEvent, { type: T }>['data'];

const itemIdOf = (streamId: string) => streamId.slice('item-'.length);
const categoryIdOf = (streamId: string) => streamId.slice('category-'.length);

const itemColumnOf: Record<string, string> = {
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

const versionColumns =
  sql.raw(`item_id, valid_from, valid_to, from_at, to_at, name, description, sku, category_id, quantity,
  price, threshold, image_url, expiry_date, barcode, version, created_at, updated_at`);

/** Ends the item's current version at this event; `to_at` never precedes `from_at` (see migration 012). */
async function closeItem(trx: Transaction, event: StoredEvent) {
  await sql`update item_versions set valid_to = ${event.position}, to_at = greatest(from_at, ${event.createdAt}::timestamptz)
    where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
}

/** The next version: a copy of the current one with `sets` applied, then the current one closed. */
async function nextItemVersion(trx: Transaction, event: StoredEvent, sets: Record<string, unknown>) {
  const id = itemIdOf(event.streamId);
  const value = (column: string) => (column in sets ? sql`${sets[column]}` : sql.ref(column));
  await sql`insert into item_versions (${versionColumns})
    select item_id, ${event.position}, null, ${event.createdAt}, null, ${value('name')}, ${value('description')}, ${value('sku')},
      ${value('category_id')}::uuid, ${value('quantity')}::int, ${value('price')}::numeric, ${value('threshold')}::int,
      ${value('image_url')}::text, ${value('expiry_date')}::date, ${value('barcode')}::text, ${event.streamVersion}, created_at,
      ${event.createdAt}
    from item_versions where item_id = ${id} and valid_to is null`.execute(trx);
  await sql`update item_versions set valid_to = ${event.position}, to_at = greatest(from_at, ${event.createdAt}::timestamptz)
    where item_id = ${id} and valid_to is null and valid_from <> ${event.position}`.execute(trx);
}

async function recordRevert(trx: Transaction, event: StoredEvent) {
  const reverts = (event.metadata as { reverts?: string }).reverts;
  if (!reverts) return;
  await sql`insert into reverts (reverted_event_id, reverting_event_id, position)
    values (${reverts}, ${event.eventId}, ${event.position})`.execute(trx);
}

async function closeCategory(trx: Transaction, event: StoredEvent) {
  await sql`update category_versions set valid_to = ${event.position}, to_at = greatest(from_at, ${event.createdAt}::timestamptz)
    where category_id = ${categoryIdOf(event.streamId)} and valid_to is null`.execute(trx);
}

// Parts both set-based forms below share.
const historyReopened = sql`update item_versions v set valid_to = n.position, to_at = greatest(v.from_at, n.created_at)
    from new_events n
    where n.type = 'ItemCreated' and v.item_id = substr(n.stream_id, 6)::uuid and v.valid_to is null`;
const historyCreated = sql`insert into item_versions (${versionColumns})
    select (n.data ->> 'itemId')::uuid, n.position, null, n.created_at, null, n.data ->> 'name', n.data ->> 'description',
      n.data ->> 'sku', (n.data ->> 'categoryId')::uuid, (n.data ->> 'quantity')::int, (n.data ->> 'price')::numeric,
      (n.data ->> 'threshold')::int, n.data ->> 'imageUrl', (n.data ->> 'expiryDate')::date, n.data ->> 'barcode',
      (select max(v.stream_version) from new_events v where v.stream_id = n.stream_id), n.created_at, n.created_at
    from new_events n where n.type = 'ItemCreated'
    order by n.position`;
/**
 * Per item the batch touches: its first step (the first event with grp 1, see the forms) and
 * the version number of its crossings before that step (grp 0). One aggregation: joining the
 * steps back to the items per row made the planner loop over CTE scans (quadratic in the batch).
 */
const historyEnds = sql`select item_id, min(position) filter (where grp > 0) as position,
      (array_agg(created_at order by stream_version) filter (where grp > 0))[1] as created_at,
      max(stream_version) filter (where grp = 0) as version
    from history_marked group by item_id`;
const historyClosed = sql`update item_versions v set
      valid_to = e.position, to_at = case when e.position is null then null else greatest(v.from_at, e.created_at) end,
      version = coalesce(e.version, v.version)
    from history_ends e
    where v.item_id = e.item_id and v.valid_to is null`;
/**
 * The steps (`stepTypes`) with their version number (the last of their group: a crossing right
 * after a step belongs to it) and the position and time of the next step, which closes them.
 */
const historySteps = (stepTypes: RawBuilder<unknown>) => sql`select s.*,
      lead(s.position) over w as next_position, lead(s.created_at) over w as next_at
    from (select m.*, max(m.stream_version) over (partition by m.item_id, m.grp) as version from history_marked m) s
    where s.type in (${stepTypes})
    window w as (partition by s.item_id order by s.stream_version)`;
const historyReverts = sql`insert into reverts (reverted_event_id, reverting_event_id, position)
    select (metadata ->> 'reverts')::uuid, event_id, position from new_events
    where metadata ? 'reverts' and type not in ('ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered')`;

/** The steps a transfer makes on an item's stream (the third form below). */
const transitSteps = sql`'StockShipped', 'StockReceived', 'TransitWrittenOff'`;

export const historyProjection: Projection = {
  name: 'history',
  tables: ['item_versions', 'category_versions', 'reverts'],
  handlers: {
    ItemCreated: async (event: StoredEvent<ItemData<'ItemCreated'>>, trx) => {
      const d = event.data;
      await closeItem(trx, event); // nothing open, unless a log from before deletes closed versions
      await sql`insert into item_versions (${versionColumns})
        values (${d.itemId}, ${event.position}, null, ${event.createdAt}, null, ${d.name}, ${d.description}, ${d.sku},
          ${d.categoryId}, ${d.quantity}, ${d.price}, ${d.threshold}, ${d.imageUrl}, ${d.expiryDate}, ${d.barcode ?? null},
          ${event.streamVersion}, ${event.createdAt}, ${event.createdAt})`.execute(trx);
      await recordRevert(trx, event);
    },
    ItemUpdated: async (event: StoredEvent<ItemData<'ItemUpdated'>>, trx) => {
      const sets: Record<string, unknown> = {};
      for (const [field, change] of Object.entries(event.data.changes)) sets[itemColumnOf[field]!] = change!.to;
      await nextItemVersion(trx, event, sets);
      await recordRevert(trx, event);
    },
    StockAdjusted: async (event: StoredEvent<ItemData<'StockAdjusted'>>, trx) => {
      await nextItemVersion(trx, event, { quantity: event.data.quantity });
      await recordRevert(trx, event);
    },
    // A move changes no field of the item (its total stays), but it is a change of it: a version.
    StockMoved: async (event, trx) => {
      await nextItemVersion(trx, event, {});
      await recordRevert(trx, event);
    },
    // A transfer's step changes the quantity on hand (a write-off only what is in transit,
    // which versions do not keep), and is a change of the item: a version.
    StockShipped: async (event: StoredEvent<ItemData<'StockShipped'>>, trx) => {
      await nextItemVersion(trx, event, { quantity: event.data.quantityAfter });
      await recordRevert(trx, event);
    },
    StockReceived: async (event: StoredEvent<ItemData<'StockReceived'>>, trx) => {
      await nextItemVersion(trx, event, { quantity: event.data.quantityAfter });
      await recordRevert(trx, event);
    },
    TransitWrittenOff: async (event, trx) => {
      await nextItemVersion(trx, event, {});
      await recordRevert(trx, event);
    },
    // A transfer step's undo (server/transfers/undo-decide.ts) cites the step's event on the
    // transfer's stream too: recorded here, so a second undo of it fails like any revert.
    TransferShipmentUndone: (event, trx) => recordRevert(trx, event),
    TransferReceiptUndone: (event, trx) => recordRevert(trx, event),
    TransferWriteOffUndone: (event, trx) => recordRevert(trx, event),
    // Crossings change no field, only the item's version (as the items row's version).
    ItemWentLow: async (event, trx) => {
      await sql`update item_versions set version = ${event.streamVersion}
        where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
    },
    ItemRecovered: async (event, trx) => {
      await sql`update item_versions set version = ${event.streamVersion}
        where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
    },
    // Per site: thresholds and crossings change no field kept here, only the item's version.
    SiteThresholdSet: async (event, trx) => {
      await sql`update item_versions set version = ${event.streamVersion}
        where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
    },
    SiteWentLow: async (event, trx) => {
      await sql`update item_versions set version = ${event.streamVersion}
        where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
    },
    SiteRecovered: async (event, trx) => {
      await sql`update item_versions set version = ${event.streamVersion}
        where item_id = ${itemIdOf(event.streamId)} and valid_to is null`.execute(trx);
    },
    ItemDeleted: async (event, trx) => {
      await closeItem(trx, event);
      await recordRevert(trx, event);
    },
    CategoryCreated: async (event: StoredEvent<CategoryData<'CategoryCreated'>>, trx) => {
      const d = event.data;
      await closeCategory(trx, event);
      await sql`insert into category_versions (category_id, valid_from, valid_to, from_at, to_at, name, description, version,
          created_at, updated_at)
        values (${d.categoryId}, ${event.position}, null, ${event.createdAt}, null, ${d.name}, ${d.description},
          ${event.streamVersion}, ${event.createdAt}, ${event.createdAt})`.execute(trx);
      await recordRevert(trx, event);
    },
    CategoryUpdated: async (event: StoredEvent<CategoryData<'CategoryUpdated'>>, trx) => {
      const { name, description } = event.data.changes;
      const id = categoryIdOf(event.streamId);
      await sql`insert into category_versions (category_id, valid_from, valid_to, from_at, to_at, name, description, version,
          created_at, updated_at)
        select category_id, ${event.position}, null, ${event.createdAt}, null, coalesce(${name?.to ?? null}, name),
          coalesce(${description?.to ?? null}, description), ${event.streamVersion}, created_at, ${event.createdAt}
        from category_versions where category_id = ${id} and valid_to is null`.execute(trx);
      await sql`update category_versions set valid_to = ${event.position}, to_at = greatest(from_at, ${event.createdAt}::timestamptz)
        where category_id = ${id} and valid_to is null and valid_from <> ${event.position}`.execute(trx);
      await recordRevert(trx, event);
    },
    CategoryDeleted: async (event, trx) => {
      await closeCategory(trx, event);
      await recordRevert(trx, event);
    },
  },
  batch: [
    // Without edits (the group commit's adjustments, creations): the hot path's form, kept
    // apart so its statement stays as small as it was.
    // A batch of adjustments (the group commit): per item, the open version is closed at the
    // batch's first adjustment (or only has its version moved by crossings), and each
    // adjustment adds a version that the next one in the batch closes. A crossing belongs to
    // the adjustment before it (the decision emits it right after), so it sets that version's
    // number. Every statement here sees item_versions as it was before the batch.
    // A created item's first version carries its stream's last version number (a crossing
    // right after the creation only moves it); an item created in a batch has no adjustment
    // in it (createItem emits ItemCreated and at most ItemWentLow). Like the handler, the
    // creation closes a version left open (only logs from before deletes closed versions).
    {
      types: ['ItemCreated', 'StockAdjusted', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        history_reopened: historyReopened,
        history_created: historyCreated,
        history_marked: sql`select n.*, substr(n.stream_id, 6)::uuid as item_id,
            count(*) filter (where n.type = 'StockAdjusted') over (partition by n.stream_id order by n.stream_version) as grp
          from new_events n where n.type in ('StockAdjusted', 'ItemWentLow', 'ItemRecovered')
            and n.stream_id not in (select stream_id from new_events where type = 'ItemCreated')`,
        history_ends: historyEnds,
        history_steps: historySteps(sql`'StockAdjusted'`),
        history_closed: historyClosed,
        history_versions: sql`insert into item_versions (${versionColumns})
          select v.item_id, s.position, s.next_position, s.created_at,
            case when s.next_position is null then null else greatest(s.created_at, s.next_at) end,
            v.name, v.description, v.sku, v.category_id, (s.data ->> 'quantity')::int, v.price, v.threshold, v.image_url, v.expiry_date, v.barcode,
            s.version, v.created_at, s.created_at
          from history_steps s join item_versions v on v.item_id = s.item_id and v.valid_to is null`,
        history_reverts: historyReverts,
      },
    },
    // With edits (a re-import updating items by SKU, an API edit, a revert), or moves.
    // A batch of edits, adjustments and moves (a re-import, the group commit), per item: the
    // open version is closed at the batch's first of them (or only has its version moved by
    // crossings), and each of them adds a version, the open one with the fields the batch
    // set up to it laid over (see item-batch-steps.ts), that the next one in the batch closes.
    // A crossing belongs to the step before it (the decision emits it right after), so it sets
    // that version's number. Every statement here sees item_versions as it was before the batch.
    // A created item's first version carries its stream's last version number (a crossing
    // right after the creation only moves it); an item created in a batch has nothing else in
    // it (createItem emits ItemCreated and at most ItemWentLow). Like the handler, the
    // creation closes a version left open (only logs from before deletes closed versions).
    {
      types: ['ItemCreated', 'ItemUpdated', 'StockAdjusted', 'StockMoved', 'ItemWentLow', 'ItemRecovered'],
      ctes: {
        history_reopened: historyReopened,
        history_created: historyCreated,
        history_marked: sql`select s.*,
            count(*) filter (where s.type in ('ItemUpdated', 'StockAdjusted', 'StockMoved')) over (partition by s.stream_id order by s.stream_version) as grp
          from (${itemBatchSteps}) s`,
        history_ends: historyEnds,
        history_steps: historySteps(sql`'ItemUpdated', 'StockAdjusted', 'StockMoved'`),
        history_closed: historyClosed,
        history_versions: sql`insert into item_versions (${versionColumns})
          select v.item_id, s.position, s.next_position, s.created_at,
            case when s.next_position is null then null else greatest(s.created_at, s.next_at) end,
            ${fieldAt(sql`s.state`, 'name', sql`v.name`)}, ${fieldAt(sql`s.state`, 'description', sql`v.description`)},
            ${fieldAt(sql`s.state`, 'sku', sql`v.sku`)}, ${fieldAt(sql`s.state`, 'categoryId', sql`v.category_id`, 'uuid')}, ${fieldAt(sql`s.state`, 'quantity', sql`v.quantity`, 'int')},
            ${fieldAt(sql`s.state`, 'price', sql`v.price`, 'numeric')}, ${fieldAt(sql`s.state`, 'threshold', sql`v.threshold`, 'int')},
            ${fieldAt(sql`s.state`, 'imageUrl', sql`v.image_url`)}, ${fieldAt(sql`s.state`, 'expiryDate', sql`v.expiry_date`, 'date')},
            ${fieldAt(sql`s.state`, 'barcode', sql`v.barcode`)}, s.version, v.created_at, s.created_at
          from history_steps s join item_versions v on v.item_id = s.item_id and v.valid_to is null`,
        history_reverts: historyReverts,
      },
    },
    // A transfer's step (transfer-service.ts): per item, as the hot path's form does for
    // adjustments, each shipment, receipt or write-off adds a version (the quantity on hand
    // the last shipment or receipt up to it left, else the open version's), its crossings (of
    // its total and per site) set that version's number. A step's undo is the same with the
    // transfer's own event citing the step's: history_reverts records it with the items' (it
    // takes every event of the batch).
    {
      types: [
        'StockShipped',
        'StockReceived',
        'TransitWrittenOff',
        'ItemWentLow',
        'ItemRecovered',
        'SiteWentLow',
        'SiteRecovered',
        'TransferShipmentUndone',
        'TransferReceiptUndone',
        'TransferWriteOffUndone',
      ],
      ctes: {
        history_marked: sql`select n.*, substr(n.stream_id, 6)::uuid as item_id,
            count(*) filter (where n.type in (${transitSteps})) over w as grp,
            (array_agg((n.data ->> 'quantityAfter')::int) filter (where n.type in ('StockShipped', 'StockReceived')) over w) as quantities
          from new_events n
          where n.type in (${transitSteps}, 'ItemWentLow', 'ItemRecovered', 'SiteWentLow', 'SiteRecovered')
          window w as (partition by n.stream_id order by n.stream_version)`,
        history_ends: historyEnds,
        history_steps: historySteps(transitSteps),
        history_closed: historyClosed,
        history_versions: sql`insert into item_versions (${versionColumns})
          select v.item_id, s.position, s.next_position, s.created_at,
            case when s.next_position is null then null else greatest(s.created_at, s.next_at) end,
            v.name, v.description, v.sku, v.category_id, coalesce(s.quantities[array_length(s.quantities, 1)], v.quantity),
            v.price, v.threshold, v.image_url, v.expiry_date, v.barcode, s.version, v.created_at, s.created_at
          from history_steps s join item_versions v on v.item_id = s.item_id and v.valid_to is null`,
        history_reverts: historyReverts,
      },
    },
  ],
};
