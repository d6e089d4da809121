// The activity log's reads: filters, sorting, keyset pagination, and CSV export.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ActivityAction, ActivityEntry, ActivityPage, ResourceType } from '../../shared/inventory.js';
import type { DB } from '../db/schema.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { unstorableField } from '../http/validation.js';
import { csvLine, csvTextCell } from '../../shared/csv-cell.js';
import { CSV_DELIMITERS, STANDARD_CSV, type CsvFormat } from '../../shared/csv-format.js';
import { entryEventColumns, entrySentences, type EntryEventRow, type EntrySentence } from './entry-sentences.js';

export interface ActivityFilter {
  action?: ActivityAction;
  resourceType?: ResourceType;
  userId?: string;
  q?: string;
  /** Entries about the site: its own changes, and stock put at, taken from or moved between its locations. */
  siteId?: string;
  /** Entries about the location: its own changes, and stock put at, taken from or moved to or from it. */
  locationId?: string;
  sort: 'timestamp' | 'user' | 'action';
  order: 'asc' | 'desc';
  /** A guest's query: names are neither searched nor sorted by (guests see "Staff member" only). */
  hideNames?: boolean;
  /**
   * Someone who sees some sites only (roles per site): entries of events of these sites and
   * of events naming no place (place_ids, migration 029). Absent: every entry.
   */
  sites?: readonly string[];
}

interface ActivityRow extends EntryEventRow {
  id: string;
  position: number;
  user_id: string | null;
  user_name: string;
  action: ActivityAction;
  resource_type: ResourceType;
  resource_id: string;
  resource_name: string;
  timestamp: Date;
  details: string;
  sort_key: string;
  reverted?: boolean;
}

const sortExpression: Record<ActivityFilter['sort'], string> = {
  timestamp: `to_char(timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
  user: 'lower(user_name)',
  action: 'action',
};

const toEntry = (row: ActivityRow, { details, summary }: EntrySentence): ActivityEntry => ({
  id: row.id,
  userId: row.user_id,
  userName: row.user_name,
  action: row.action,
  resourceType: row.resource_type,
  resourceId: row.resource_id,
  resourceName: row.resource_name,
  timestamp: new Date(row.timestamp).toISOString(),
  details,
  summary,
  eventId: row.event_id ?? null,
  reverted: Boolean(row.reverted),
  eventType: row.event_type ?? null,
});

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function where(filter: ActivityFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (filter.action) parts.push(sql`action = ${filter.action}`);
  if (filter.resourceType) parts.push(sql`resource_type = ${filter.resourceType}`);
  if (filter.userId) parts.push(sql`user_id = ${filter.userId}`);
  // The places each entry's event names (migration 029), along their index; a site is its own
  // id and its locations' (a location never changes site).
  if (filter.locationId) parts.push(sql`place_ids && array[${filter.locationId.toLowerCase()}::text]`);
  if (filter.siteId) {
    const siteId = filter.siteId.toLowerCase();
    parts.push(sql`place_ids && (select array_append(coalesce(array_agg(l.id::text), '{}'), ${siteId}::text)
      from locations l where l.site_id = ${siteId}::uuid)`);
  }
  if (filter.sites) {
    // Someone who sees some sites only: entries of those sites (their ids and their locations')
    // and of events naming no place (roles per site).
    const sites = filter.sites.map((id) => id.toLowerCase());
    const visible = sql`array[${sql.join([...sites, ''].map((id) => sql`${id}::text`))}]`;
    parts.push(sql`(place_ids = '{}' or place_ids && (select ${visible} || coalesce(array_agg(l.id::text), '{}')
      from locations l where l.site_id::text = any(${visible})))`);
  }
  const q = filter.q?.trim().toLowerCase();
  if (q) {
    // The words each entry shows and the people it names (search-words.ts), along their index;
    // a guest's match must be in the words alone, names being hidden from guests.
    const pattern = `%${likeEscape(q)}%`;
    parts.push(sql`(search_text || ' ' || search_who) like ${pattern}`);
    if (filter.hideNames) parts.push(sql`search_text like ${pattern}`);
  }
  return sql.join(parts, sql` and `);
}

export class ActivityQueries {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The sites a filter is about, with their names (a location's is the site it is at: a
   * location never changes site); 404 for a site or location that does not exist.
   */
  async sitesOf(filter: Pick<ActivityFilter, 'siteId' | 'locationId'>): Promise<Array<{ id: string; name: string }>> {
    const sites: Array<{ id: string; name: string }> = [];
    if (filter.locationId) {
      const rows = await sql<{ id: string; name: string }>`select s.id::text as id, s.name from locations l
        join sites s on s.id = l.site_id where l.id = ${filter.locationId}::uuid`.execute(this.db);
      if (!rows.rows[0]) throw new NotFoundError('Location not found');
      sites.push(rows.rows[0]);
    }
    if (filter.siteId) {
      const rows = await sql<{ id: string; name: string }>`select id::text as id, name from sites
        where id = ${filter.siteId}::uuid`.execute(this.db);
      if (!rows.rows[0]) throw new NotFoundError('Site not found');
      sites.push(rows.rows[0]);
    }
    return sites;
  }

  async page(filter: ActivityFilter, limit: number, cursor?: string): Promise<ActivityPage> {
    // Every name is the same to a guest, so "by user" leaves the log in its own order.
    // (A cast, because PostgreSQL refuses a bare constant in ORDER BY.)
    const key = sql.raw(filter.hideNames && filter.sort === 'user' ? `''::text` : sortExpression[filter.sort]);
    const dir = sql.raw(filter.order);
    let after: RawBuilder<unknown> = sql`true`;
    if (cursor) {
      let parsed: { k: string; p: number };
      try {
        parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString());
      } catch {
        throw new ValidationError('cursor is invalid');
      }
      // Still input, though we wrote it: the position is a bigint (a whole number, not 1.5 or
      // 1e308) and the key text PostgreSQL can hold (no NUL, no lone surrogate), or it is a 400.
      const { k, p } = parsed ?? {};
      if (typeof k !== 'string' || unstorableField(k) !== null || !Number.isSafeInteger(p) || p < 0) {
        throw new ValidationError('cursor is invalid');
      }
      after =
        filter.order === 'desc'
          ? sql`(${key}, position) < (${parsed.k}, ${parsed.p})`
          : sql`(${key}, position) > (${parsed.k}, ${parsed.p})`;
    }
    // The event behind each entry (its position names it): what the entry says, and, with
    // whether it was reverted, what Revert needs.
    const rows = await sql<ActivityRow>`select p.*, ${entryEventColumns},
        exists (select 1 from reverts r where r.reverted_event_id = e.event_id) as reverted
      from (select *, ${key} as sort_key from activity_log
        where ${where(filter)} and ${after}
        order by ${key} ${dir}, position ${dir} limit ${limit + 1}) p
      left join events e on e.position = p.position
      order by p.sort_key ${dir}, p.position ${dir}`.execute(this.db);
    const page = rows.rows.slice(0, limit);
    const last = page.at(-1);
    const sentences = await entrySentences(this.db, page);
    return {
      entries: page.map((row, i) => toEntry(row, sentences[i]!)),
      nextCursor:
        rows.rows.length > limit && last
          ? Buffer.from(JSON.stringify({ k: last.sort_key, p: Number(last.position) })).toString('base64url')
          : null,
    };
  }

  /** Every matching entry, in pages, for the CSV export. */
  async *all(filter: ActivityFilter): AsyncGenerator<ActivityEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.page(filter, 1000, cursor);
      yield* page.entries;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
}

const CSV_COLUMNS: Exclude<keyof ActivityEntry, 'eventId' | 'reverted' | 'summary'>[] = [
  'timestamp',
  'userName',
  'userId',
  'action',
  'resourceType',
  'resourceId',
  'resourceName',
  'details',
  'id',
];

export function csvHeader(format: CsvFormat = STANDARD_CSV): string {
  return csvLine(CSV_COLUMNS, CSV_DELIMITERS[format.delimiter]);
}

/** Every column is text (user names and item names are typed by people: defused, see csv-cell.ts). */
export function csvRow(entry: ActivityEntry, format: CsvFormat = STANDARD_CSV): string {
  return csvLine(
    CSV_COLUMNS.map((c) => csvTextCell(entry[c])),
    CSV_DELIMITERS[format.delimiter],
  );
}
