// Item reads, all served from the items projection (history and as-of read the stream).
// The hot reads take the request's PrincipalCheck: its columns ride along in the read's own
// statement, so checking a cached principal costs no round trip of its own.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { HistoryEntry, Item } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { stampColumns, type PrincipalCheck } from '../auth/principal-check.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { evolveItem, type ItemState } from './item-state.js';
import { itemColumns, stateToItem, toItem, type ItemRow } from './item-rows.js';
import { historyEntry } from './item-history.js';
import { withReverts } from './item-history-reverts.js';
import { withMoney } from './history-money.js';
import { withLocations } from './history-locations.js';
import { correctionsOf } from './search-words.js';
import { createLocationSites, sitesOfEvents, STORE_TOTAL_EVENTS } from '../auth/event-sites.js';
import { checkBarcode } from '../../shared/barcode.js';
import { exportedItems, type ExportedItem, type ItemExportFilter } from './item-export.js';
import { decodeItemCursor, encodeItemCursor, type ItemCursor } from './item-cursor.js';
import { locationsInside } from './location-subtree.js';

export interface ItemPage {
  items: Item[];
  nextCursor: string | null;
}

/**
 * A list's filter by place: items with stock_levels rows there (an item ever placed there, 0
 * included); a location's covers the locations inside it.
 */
export interface PlaceFilter {
  siteId?: string;
  locationId?: string;
  /**
   * Neither named: the items placed at any of these sites (someone who sees some sites only:
   * roles per site), their quantities read per site by auth/site-view.ts.
   */
  siteIds?: readonly string[];
}

const columns = sql.raw(itemColumns);
/** A PrincipalCheck's columns, to append to a select list. */
const alongside = (check?: PrincipalCheck) => (check?.columns ? sql`, ${check.columns}` : sql``);
/**
 * The items a list's page reads: all of them, or those with stock_levels rows at the filter's
 * site or location (a location with the locations inside it), each with its units there
 * (`quantity_here`). The page's items are found in the place's index, which keeps each row's
 * item creation time (migration 030) in list order: a page reads a page's worth of rows,
 * however many items the place holds (summing all of a site's rows and sorting took over
 * 500 ms at 100,000 items over 1,000 locations). For a location, each location of its subtree
 * gives its first `limit` rows: an item of the page is among the first `limit` at every
 * location where it has a row (the items before it there are before it on the page too), so
 * its units there are all summed.
 */
function placed(place: PlaceFilter, after: ItemCursor | null, limit: number): RawBuilder<unknown> {
  if (!place.siteId && !place.locationId) {
    if (!place.siteIds) return sql`items`;
    if (place.siteIds.length === 0) return sql`(select * from items where false) items`;
    const sites = sql.join(place.siteIds.map((id) => sql`${id}::uuid`));
    return sql`(select i.* from items i where exists (select 1 from stock_levels s
      where s.item_id = i.id and s.site_id in (${sites}))) items`;
  }
  const site = place.siteId ? sql`and s.site_id = ${place.siteId}::uuid` : sql``;
  const older = after
    ? sql`and (s.item_created_at, s.item_id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const newest = sql`order by s.item_created_at desc, s.item_id desc limit ${limit}`;
  // unnest(array(...)): the planner then guesses 10 locations, not the 900 it guesses for a
  // recursive CTE, which priced a bin's list past jit_above_cost (JIT took 20-50 ms of 60).
  const levels = place.locationId
    ? sql`unnest(array${locationsInside(place.locationId)}) inside (id) cross join lateral (
          select s.item_id, s.item_created_at, s.quantity from stock_levels s
          where s.location_id = inside.id ${site} ${older} ${newest}) s`
    : sql`stock_levels s where true ${site} ${older}`;
  return sql`(select s.item_id, sum(s.quantity)::int as quantity_here from ${levels}
      group by s.item_created_at, s.item_id ${newest}) here
    join items on items.id = here.item_id`;
}

/** Rows a search pass ranks at most. */
const CANDIDATES = 300;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Most reads by id in one statement. */
const MAX_READS = 100;

interface ItemRead {
  id: string;
  check?: PrincipalCheck;
  resolve(result: { row?: ItemRow; report?: object }): void;
  reject(error: unknown): void;
}

/**
 * Reads of items by id that arrive in one turn of the event loop go to the database as one
 * statement (as the group commit does for adjustments; a lone read starts at the end of its
 * turn, with no timer): under load, one round trip, one plan and one pooled connection serve
 * several requests. Each request still gets its own row, and the stamps of every cached
 * principal among them ride along in the same statement, so each is checked as before.
 * Nothing is read earlier than asked: a read sees every commit made before it was asked for.
 */
class ItemReads {
  private waiting: ItemRead[] = [];
  private scheduled = false;

  constructor(private readonly db: Kysely<DB>) {}

  read(id: string, check?: PrincipalCheck): Promise<{ row?: ItemRow; report?: object }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: id.toLowerCase(), check, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const waiting = this.waiting;
        this.waiting = [];
        for (let i = 0; i < waiting.length; i += MAX_READS) void this.run(waiting.slice(i, i + MAX_READS));
      });
    });
  }

  private async run(reads: ItemRead[]): Promise<void> {
    try {
      const ids = [...new Set(reads.map((r) => r.id))];
      const checked = reads.flatMap((r) => (r.check?.columns ? [r.check.principal] : []));
      const found = sql`select ${columns} from items where id in (${sql.join(ids)})`;
      // With principals to check, a row reports their stamps even when no item is found.
      const rows = checked.length
        ? await sql<ItemRow & { principal_stamps?: unknown }>`select i.*, s.* from (select ${stampColumns(checked)}) s
            left join lateral (${found}) i on true`.execute(this.db)
        : await sql<ItemRow>`${found}`.execute(this.db);
      const byId = new Map(rows.rows.filter((r) => r.id).map((r) => [String(r.id).toLowerCase(), r]));
      const report = rows.rows[0];
      for (const read of reads) read.resolve({ row: byId.get(read.id), report: byId.get(read.id) ?? report });
    } catch (error) {
      for (const read of reads) read.reject(error);
    }
  }
}

export class ItemQueries {
  private readonly reads: ItemReads;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
  ) {
    this.reads = new ItemReads(db);
  }

  async find(id: string, check?: PrincipalCheck): Promise<Item | null> {
    if (!UUID.test(id)) {
      const rows = await sql<ItemRow>`select ${columns}${alongside(check)} from items where id = ${id}`.execute(
        this.db,
      );
      await check?.confirm(rows.rows[0]);
      return rows.rows[0] ? toItem(rows.rows[0]) : null;
    }
    const { row, report } = await this.reads.read(id, check);
    await check?.confirm(report);
    return row ? toItem(row) : null;
  }

  async require(id: string, check?: PrincipalCheck): Promise<Item> {
    const item = await this.find(id, check);
    if (!item) throw new NotFoundError('Item not found');
    return item;
  }

  /**
   * The item carrying a barcode (as typed or scanned; surrounding spaces dropped). A code
   * that is not a valid barcode names no item, like an unknown one.
   */
  async requireByBarcode(code: string, check?: PrincipalCheck): Promise<Item> {
    const checked = checkBarcode(code);
    const rows = await sql<ItemRow>`select ${columns}${alongside(check)} from (select 1) one
      left join items on barcode = ${checked.ok ? checked.code : null}`.execute(this.db);
    const row = rows.rows[0];
    await check?.confirm(row);
    if (!row?.id) throw new NotFoundError('Item not found');
    return toItem(row);
  }

  /**
   * Newest first, keyset-paged so a page costs the same at item one million as at item one.
   * Filtered by a site or a location, each item also says its units there (quantityHere),
   * found through stock_levels' site and location indexes in the same order (see placed).
   */
  async list(limit: number, cursor?: string, check?: PrincipalCheck, place: PlaceFilter = {}): Promise<ItemPage> {
    const after = cursor ? decodeItemCursor(cursor) : null;
    const where = after ? sql`where (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;
    const rows = await sql<
      ItemRow & { created_key: string }
    >`select ${columns}${place.siteId || place.locationId ? sql`, quantity_here` : sql``},
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key${alongside(check)}
      from ${placed(place, after, limit + 1)} ${where} order by created_at desc, id desc limit ${limit + 1}`.execute(
      this.db,
    );
    await check?.confirm(rows.rows[0]);
    const page = rows.rows.slice(0, limit);
    return {
      items: page.map(toItem),
      nextCursor: rows.rows.length > limit ? encodeItemCursor(page.at(-1)!) : null,
    };
  }

  /** The site a location is at; null for no such location. */
  async siteOfLocation(locationId: string): Promise<{ id: string; name: string } | null> {
    if (!UUID.test(locationId)) return null;
    const rows = await sql<{ id: string; name: string }>`select st.id::text as id, st.name from locations l
      join sites st on st.id = l.site_id where l.id = ${locationId}::uuid`.execute(this.db);
    return rows.rows[0] ?? null;
  }

  /** The sites where the item has stock now, by name (for refusals). */
  async sitesHolding(itemId: string): Promise<Array<{ id: string; name: string }>> {
    if (!UUID.test(itemId)) return [];
    const rows = await sql<{ id: string; name: string }>`select st.id::text as id, st.name from sites st
      where exists (select 1 from stock_levels s where s.item_id = ${itemId}::uuid and s.site_id = st.id
        and s.quantity <> 0)
      order by lower(st.name)`.execute(this.db);
    return rows.rows;
  }

  /** The name of a site (for refusals); its id when there is none. */
  async siteName(siteId: string): Promise<string> {
    if (!UUID.test(siteId)) return siteId;
    const rows = await sql<{ name: string }>`select name from sites where id = ${siteId}::uuid`.execute(this.db);
    return rows.rows[0]?.name ?? siteId;
  }

  /** The items a CSV export writes (item-export.ts), read page by page. */
  export(filter: ItemExportFilter): Promise<AsyncGenerator<ExportedItem>> {
    return exportedItems(this.db, filter);
  }

  async lowStock(): Promise<Item[]> {
    const rows = await sql<ItemRow>`select ${columns} from items where quantity <= threshold
      order by (quantity::float / greatest(threshold, 1)), name limit 1000`.execute(this.db);
    return rows.rows.map(toItem);
  }

  /**
   * Typo-tolerant, ranked search over name, SKU, barcode, description and category name.
   * An item whose SKU or barcode is the whole query comes first. Exact substring matches of every word come first; only when they are too few does a second
   * pass add typo matches: items with, for each word, the word itself or a known word one or
   * two edits away (from the search dictionary). Each pass ranks at most CANDIDATES rows
   * picked by the GIN index, so a common word costs the same at a million items as at ten.
   */
  async search(query: string, limit = 50, check?: PrincipalCheck): Promise<Item[]> {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    if (words.length === 0) {
      await check?.confirm();
      return [];
    }
    const containsWord = (w: string) => sql`search_text like ${`%${likeEscape(w)}%`}`;
    const similarity = words.map((w) => sql`public.word_similarity(${w}, search_text)`);
    const whole = words.join(' ');
    // A scanned or typed barcode is matched exactly (case matters for Code 128 text).
    const exactCode = sql`(lower(sku) = ${whole} or barcode = ${query.trim()})`;
    // The same test for ranking, where a row with no barcode must be false, not null (nulls sort first in desc).
    const isExactCode = sql`(lower(sku) = ${whole} or coalesce(barcode = ${query.trim()}, false))`;
    const rank = (where: RawBuilder<unknown>, trx: Kysely<DB>, excluding: string[], extra = sql``) =>
      sql<ItemRow>`select ${columns}${extra} from (
          (select * from items where ${exactCode}
            ${excluding.length ? sql`and id not in (${sql.join(excluding)})` : sql``})
          union
          (select * from items where ${where}
            ${excluding.length ? sql`and id not in (${sql.join(excluding)})` : sql``}
          limit ${CANDIDATES})) candidates
        order by ${isExactCode} desc, (${sql.join(similarity, sql` + `)}) desc, name
        limit ${limit}`.execute(trx);

    return this.db.transaction().execute(async (trx) => {
      // The planner prices trigram operators as cheap and picks a table scan that then runs
      // word_similarity on every row; the GIN index is always the better path here.
      await sql`set local enable_seqscan = off`.execute(trx);
      const exact = (await rank(sql.join(words.map(containsWord), sql` and `), trx, [], alongside(check))).rows;
      await check?.confirm(exact[0], trx);
      if (exact.length >= limit) return exact.map(toItem);
      // Typos: each word may also be a known word one or two edits away ('lptop' -> laptop),
      // looked up in the search dictionary; items are then found by those real words.
      const corrections: string[][] = [];
      for (const w of words) corrections.push(await correctionsOf(trx, w));
      if (corrections.every((c) => c.length === 0)) return exact.map(toItem);
      const eitherWord = words.map((w, i) => sql`(${sql.join([w, ...corrections[i]!].map(containsWord), sql` or `)})`);
      const typos = (
        await rank(
          sql.join(eitherWord, sql` and `),
          trx,
          exact.map((r) => r.id),
        )
      ).rows;
      return [...exact, ...typos].slice(0, limit).map(toItem);
    });
  }

  /**
   * The item's history. `sites`: someone who sees some sites only gets the entries of those
   * sites and of none (an edit of its name), without the store's totals (quantity changes).
   */
  async history(id: string, sites?: readonly string[]): Promise<HistoryEntry[]> {
    const events = await this.store.readStream(`item-${id}`);
    if (events.length === 0) throw new NotFoundError('Item not found');
    const entries = await withLocations(
      this.db,
      events,
      await withMoney(this.db, events, withReverts(events, historyEntry)),
    );
    if (!sites) return entries;
    const visible = new Set(sites);
    const of = await sitesOfEvents(events, createLocationSites(this.db));
    const hidden = new Set(
      events.flatMap((e, i) => {
        const at = of[i];
        return (at && !at.some((s) => visible.has(s))) || STORE_TOTAL_EVENTS.has(e.type) ? [e.streamVersion] : [];
      }),
    );
    return entries
      .filter((entry) => !hidden.has(entry.version))
      .map((entry) => ({ ...entry, changes: entry.changes.filter((c) => c.field !== 'quantity') }));
  }

  /** The item as it was at a moment, folded from its events up to then. */
  async asOf(id: string, at: Date): Promise<Item> {
    const events = await this.store.readStream(`item-${id}`, { until: at });
    let state: ItemState | null = null;
    for (const e of events) {
      state = evolveItem(state, { type: e.type, data: e.data } as InventoryEvent, {
        version: e.streamVersion,
        at: e.createdAt,
        streamId: e.streamId,
      });
    }
    if (!state || state.deleted) throw new NotFoundError('Item not found');
    const category = await sql<{ name: string }>`select name from categories where id = ${state.categoryId}`.execute(
      this.db,
    );
    return stateToItem(state, category.rows[0]?.name ?? '');
  }
}
