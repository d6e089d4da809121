// What a transfer's decisions read, loaded with the locks that keep it true until commit.
// Every transfer command takes its locks in one order: the transfer's row, then its items'
// rows in id order (as a batch of adjustments and moves locks them: item-service.ts), then a
// share lock on the sites and locations it names, so concurrent transfers, moves and
// adjustments of the same items queue instead of deadlocking, and an archive of a site or
// location (which locks its row for update, then reads stock_levels) waits for the step or
// is waited for, never both (docs/places.md).
import { sql } from 'kysely';
import type { Transaction } from '../eventstore/types.js';
import { itemStateColumns, rowToState, type ItemRow } from '../inventory/item-rows.js';
import type { ItemState } from '../inventory/item-state.js';
import type { StockPlace } from '../inventory/stock-places.js';
import type { TransferSite, TransferState } from './decide.js';
import { toTransferState, transferColumns, type TransferLineRow, type TransferRow } from './transfer-rows.js';

const key = (id: string) => id.toLowerCase();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuids = (ids: Iterable<string>) => [...new Set([...ids].filter((id) => UUID.test(id)).map(key))].sort();

/** The transfer, its row locked for update unless `lock` is false (null: no such transfer). */
export async function lockTransfer(trx: Transaction, id: string, lock = true): Promise<TransferState | null> {
  if (!UUID.test(id)) return null;
  const header = await sql<TransferRow>`select ${sql.raw(transferColumns)} from transfers t
    where t.id = ${id}::uuid ${lock ? sql`for update` : sql``}`.execute(trx);
  const row = header.rows[0];
  if (!row) return null;
  const lines = await sql<TransferLineRow>`select item_id::text as item_id, from_location_id::text as from_location_id,
      quantity, received, written_off
    from transfer_lines where transfer_id = ${id}::uuid order by line_no`.execute(trx);
  return toTransferState(row, lines.rows);
}

/** The items with these ids as their decisions see them (levels and units in transit), by id; `lock`: for update, in id order. */
export async function loadItems(
  trx: Transaction,
  ids: Iterable<string>,
  lock: boolean,
): Promise<Map<string, ItemState>> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return new Map();
  const list = sql.join(wanted.map((id) => sql`${id}::uuid`));
  // Locked first, read after: a `for update` that waited for another writer re-reads the item
  // rows it locks, but its subqueries of stock_levels keep the snapshot from before the wait,
  // so levels read in the same statement can miss that writer's move (and a shipment then
  // decided on them would take a location below 0). The next statement sees what it committed.
  if (lock) await sql`select id from items where id in (${list}) order by id for update`.execute(trx);
  const rows = await sql<ItemRow>`select ${sql.raw(itemStateColumns)} from items where id in (${list})`.execute(trx);
  return new Map(rows.rows.map((row) => [key(row.id), rowToState(row)]));
}

/** The sites with these ids, share-locked, by id. */
export async function lockSites(trx: Transaction, ids: Iterable<string>): Promise<Map<string, TransferSite>> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return new Map();
  const rows = await sql<TransferSite>`select id::text as id, name, archived_at is not null as archived from sites
    where id in (${sql.join(wanted.map((id) => sql`${id}::uuid`))}) order by id for key share`.execute(trx);
  return new Map(rows.rows.map((s) => [key(s.id), s]));
}

/** The locations with these ids, share-locked, by id. */
export async function lockLocations(trx: Transaction, ids: Iterable<string>): Promise<Map<string, StockPlace>> {
  const wanted = uuids(ids);
  if (wanted.length === 0) return new Map();
  const rows = await sql<StockPlace>`select id::text as id, name, site_id::text as "siteId",
      archived_at is not null as archived
    from locations where id in (${sql.join(wanted.map((id) => sql`${id}::uuid`))}) order by id for key share`.execute(
    trx,
  );
  return new Map(rows.rows.map((l) => [key(l.id), l]));
}

/** The next running number: one more than the highest (two creations racing for it: the unique index refuses one). */
export async function nextTransferNumber(trx: Transaction): Promise<number> {
  const rows = await sql<{ n: number }>`select coalesce(max(number), 0) + 1 as n from transfers`.execute(trx);
  return Number(rows.rows[0]!.n);
}
