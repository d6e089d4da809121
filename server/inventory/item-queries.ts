// Item reads, all served from the items projection (history and as-of read the stream).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { HistoryEntry, Item } from '../../shared/inventory.js';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import type { DB } from '../db/schema.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { EventStore } from '../eventstore/event-store.js';
import { evolveItem, type ItemState } from './item-state.js';
import { itemColumns, stateToItem, toItem, type ItemRow } from './item-rows.js';
import { historyEntry } from './item-history.js';
import { correctionsOf } from './search-words.js';

export interface ItemPage {
  items: Item[];
  nextCursor: string | null;
}

const columns = sql.raw(itemColumns);
/** Rows a search pass ranks at most. */
const CANDIDATES = 300;

function encodeCursor(row: { created_key: string; id: string }): string {
  return Buffer.from(`${row.created_key}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!createdAt || !id || !/^[\d\-T:.Z]+$/.test(createdAt) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw new ValidationError('cursor is invalid');
  }
  return { createdAt, id };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export class ItemQueries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
  ) {}

  async find(id: string): Promise<Item | null> {
    const rows = await sql<ItemRow>`select ${columns} from items where id = ${id}`.execute(this.db);
    return rows.rows[0] ? toItem(rows.rows[0]) : null;
  }

  async require(id: string): Promise<Item> {
    const item = await this.find(id);
    if (!item) throw new NotFoundError('Item not found');
    return item;
  }

  /** Newest first, keyset-paged so a page costs the same at item one million as at item one. */
  async list(limit: number, cursor?: string): Promise<ItemPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    const where = after ? sql`where (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``;
    const rows = await sql<ItemRow & { created_key: string }>`select ${columns},
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key
      from items ${where} order by created_at desc, id desc limit ${limit + 1}`.execute(this.db);
    const page = rows.rows.slice(0, limit);
    return {
      items: page.map(toItem),
      nextCursor: rows.rows.length > limit ? encodeCursor(page.at(-1)!) : null,
    };
  }

  async lowStock(): Promise<Item[]> {
    const rows = await sql<ItemRow>`select ${columns} from items where quantity <= threshold
      order by (quantity::float / greatest(threshold, 1)), name limit 1000`.execute(this.db);
    return rows.rows.map(toItem);
  }

  /**
   * Typo-tolerant, ranked search over name, SKU, description and category name. Exact
   * substring matches of every word come first; only when they are too few does a second
   * pass add typo matches: items with, for each word, the word itself or a known word one or
   * two edits away (from the search dictionary). Each pass ranks at most CANDIDATES rows
   * picked by the GIN index, so a common word costs the same at a million items as at ten.
   */
  async search(query: string, limit = 50): Promise<Item[]> {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
    if (words.length === 0) return [];
    const containsWord = (w: string) => sql`search_text like ${`%${likeEscape(w)}%`}`;
    const similarity = words.map((w) => sql`public.word_similarity(${w}, search_text)`);
    const whole = words.join(' ');
    const rank = (where: RawBuilder<unknown>, trx: Kysely<DB>, excluding: string[]) =>
      sql<ItemRow>`select ${columns} from (
          (select * from items where lower(sku) = ${whole}
            ${excluding.length ? sql`and id not in (${sql.join(excluding)})` : sql``})
          union
          (select * from items where ${where}
            ${excluding.length ? sql`and id not in (${sql.join(excluding)})` : sql``}
          limit ${CANDIDATES})) candidates
        order by (lower(sku) = ${whole}) desc, (${sql.join(similarity, sql` + `)}) desc, name
        limit ${limit}`.execute(trx);

    return this.db.transaction().execute(async (trx) => {
      // The planner prices trigram operators as cheap and picks a table scan that then runs
      // word_similarity on every row; the GIN index is always the better path here.
      await sql`set local enable_seqscan = off`.execute(trx);
      const exact = (await rank(sql.join(words.map(containsWord), sql` and `), trx, [])).rows;
      if (exact.length >= limit) return exact.map(toItem);
      // Typos: each word may also be a known word one or two edits away ('lptop' -> laptop),
      // looked up in the search dictionary; items are then found by those real words.
      const corrections: string[][] = [];
      for (const w of words) corrections.push(await correctionsOf(trx, w));
      if (corrections.every((c) => c.length === 0)) return exact.map(toItem);
      const eitherWord = words.map((w, i) => sql`(${sql.join([w, ...corrections[i]!].map(containsWord), sql` or `)})`);
      const typos = (await rank(sql.join(eitherWord, sql` and `), trx, exact.map((r) => r.id))).rows;
      return [...exact, ...typos].slice(0, limit).map(toItem);
    });
  }

  async history(id: string): Promise<HistoryEntry[]> {
    const events = await this.store.readStream(`item-${id}`);
    if (events.length === 0) throw new NotFoundError('Item not found');
    return events.map(historyEntry).filter((e): e is HistoryEntry => e !== null);
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
    const category = await sql<{ name: string }>`select name from categories where id = ${state.categoryId}`.execute(this.db);
    return stateToItem(state, category.rows[0]?.name ?? '');
  }
}
