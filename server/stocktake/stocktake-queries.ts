// Reads of the stocktake projections: a session with its lines (an item at a location),
// counts and variance, the list of sessions, and the state the decisions are made on. Each
// count's expected quantity is what its location held at countedAt, looked up every time (so
// it is right whatever order counts and sales reached the server in; see count-expected.ts),
// and its price the item's version valid then (server/history's item_versions, read only).
import { sql, type Kysely } from 'kysely';
import {
  lineKey,
  type LineStatus,
  type StocktakeCount,
  type StocktakeLine,
  type StocktakePlace,
  type StocktakeScope,
  type StocktakeSession,
  type StocktakeSummary,
  type StocktakeTotals,
} from '../../shared/stocktake.js';
import type { DB } from '../db/schema.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { VisibleSites } from '../auth/site-access.js';
import type { Transaction } from '../eventstore/types.js';
import { countsWithExpected, type CountWithExpected } from './count-expected.js';
import type { LineToApprove, SessionState } from './decide.js';
import { readLine } from './line-status.js';

interface SessionRow {
  id: string;
  name: string;
  scope: StocktakeScope;
  category_id: string | null;
  status: 'open' | 'closed';
  started_at: Date;
  started_by: string;
  closed_at: Date | null;
  version: number;
  site_id: string;
  site_name: string | null;
  location_id: string | null;
  location_name: string | null;
  location_ids: unknown;
  home_location_id: string;
}

interface LineRow {
  item_id: string;
  location_id: string;
  location_name: string;
  name: string;
  sku: string;
  barcode: string | null;
  price: string | number;
  approved_at: Date | null;
  approved_by: string | null;
  approved_count_id: string | null;
  approved_counted: number | null;
  approved_expected: number | null;
  approved_delta: number | null;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const money = (n: number) => Math.round(n * 100) / 100;
const idsOf = (raw: unknown): string[] => (typeof raw === 'string' ? JSON.parse(raw) : ((raw as string[]) ?? []));

/** "Back room › Shelf 2": a location's name, after its parent's when it has one (aliases `loc`, `par`). */
const locationLabel = sql`coalesce(par.name || ' › ', '') || coalesce(loc.name, 'a location')`;

type Progress = Pick<StocktakeSummary, 'toCount' | 'counted' | 'conflicts' | 'approved'>;

/** A session row and its progress (from its lines, or counted in SQL by the list). */
function toSummary(row: SessionRow, progress: Progress): StocktakeSummary {
  const siteName = row.site_name ?? 'a site';
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    categoryId: row.category_id,
    siteId: row.site_id,
    siteName,
    locationId: row.location_id,
    placeName: row.location_id ? `${siteName} › ${row.location_name ?? 'a location'}` : siteName,
    status: row.status,
    startedAt: iso(row.started_at),
    startedBy: row.started_by,
    closedAt: row.closed_at ? iso(row.closed_at) : null,
    ...progress,
    version: Number(row.version),
  };
}

function progressOf(lines: StocktakeLine[]): Progress {
  return {
    toCount: lines.length,
    counted: lines.filter((l) => l.status !== 'uncounted').length,
    conflicts: lines.filter((l) => l.status === 'conflict').length,
    approved: lines.filter((l) => l.status === 'approved').length,
  };
}

function toLine(row: LineRow, counts: CountWithExpected[], showsVariance: boolean): StocktakeLine {
  const shown = (n: number | null) => (showsVariance ? n : null);
  const countsOut: StocktakeCount[] = counts.map((c) => ({
    id: c.id,
    itemId: c.itemId,
    locationId: c.locationId,
    counted: c.counted,
    countedAt: iso(c.countedAt),
    countedBy: c.countedBy,
    expected: shown(c.expected),
    difference: shown(c.expected === null ? null : c.counted - c.expected),
  }));
  const base = {
    itemId: row.item_id,
    locationId: row.location_id,
    locationName: row.location_name,
    name: row.name,
    sku: row.sku,
    barcode: row.barcode,
    price: Number(row.price),
    counts: countsOut,
  };
  const empty = {
    counted: null,
    countedAt: null,
    expected: null,
    difference: null,
    value: null,
    countedBy: null,
    approvedAt: null,
    approvedBy: null,
  };
  if (row.approved_at) {
    const posted = counts.find((c) => c.id === row.approved_count_id);
    const price = posted?.price ?? Number(row.price);
    return {
      ...base,
      status: 'approved',
      counted: row.approved_counted,
      countedAt: posted ? iso(posted.countedAt) : null,
      expected: shown(row.approved_expected),
      difference: shown(row.approved_delta),
      value: shown(money(row.approved_delta! * price)),
      // The posted count's counter, whoever approved it ("Keep 38" keeps the count theirs).
      countedBy: posted?.countedBy ?? null,
      approvedAt: iso(row.approved_at),
      approvedBy: row.approved_by,
    };
  }
  const reading = readLine(counts);
  if (reading.kind !== 'counted') return { ...base, ...empty, status: reading.kind as LineStatus };
  const { count } = reading;
  const difference = count.expected === null ? null : count.counted - count.expected;
  return {
    ...base,
    status: 'counted',
    counted: count.counted,
    countedAt: iso(count.countedAt),
    expected: shown(count.expected),
    difference: shown(difference),
    value: shown(difference === null ? null : money(difference * (count.price ?? Number(row.price)))),
    countedBy: count.countedBy,
    approvedAt: null,
    approvedBy: null,
  };
}

function totalsOf(lines: StocktakeLine[], showsVariance: boolean): StocktakeTotals {
  const settled = lines.filter((l) => l.status === 'counted' || l.status === 'approved');
  const sum = (pick: (l: StocktakeLine) => number | null) => settled.reduce((n, l) => n + (pick(l) ?? 0), 0);
  return {
    expected: showsVariance ? sum((l) => l.expected) : null,
    counted: sum((l) => l.counted),
    difference: showsVariance ? sum((l) => l.difference) : null,
    value: showsVariance ? money(sum((l) => l.value)) : null,
  };
}

function groupByLine(counts: CountWithExpected[]): Map<string, CountWithExpected[]> {
  const byLine = new Map<string, CountWithExpected[]>();
  for (const c of counts) byLine.set(lineKey(c), [...(byLine.get(lineKey(c)) ?? []), c]);
  return byLine;
}

const sessionColumns = sql`t.id, t.name, t.scope, t.category_id, t.status, t.started_at, t.started_by, t.closed_at,
  t.version, t.site_id, site.name as site_name, t.location_id, loc.name as location_name, t.location_ids,
  t.home_location_id`;
const sessionJoins = sql`left join sites site on site.id = t.site_id left join locations loc on loc.id = t.location_id`;

export class StocktakeQueries {
  constructor(private readonly db: Kysely<DB>) {}

  private async sessionRow(db: Kysely<DB>, id: string, lock = false): Promise<SessionRow | null> {
    const rows = await sql<SessionRow>`select ${sessionColumns} from stocktakes t ${sessionJoins}
      where t.id = ${id} ${lock ? sql`for update of t` : sql``}`.execute(db);
    return rows.rows[0] ?? null;
  }

  /** The session's lines with the item's current name (or its last one, if deleted since) and their location's. */
  private async lineRows(db: Kysely<DB>, id: string): Promise<LineRow[]> {
    const rows = await sql<LineRow>`select l.item_id, l.location_id, ${locationLabel} as location_name,
        coalesce(i.name, last.name, '') as name, coalesce(i.sku, last.sku, '') as sku,
        coalesce(i.barcode, last.barcode) as barcode, coalesce(i.price, last.price, 0) as price,
        l.approved_at, l.approved_by, l.approved_count_id, l.approved_counted, l.approved_expected, l.approved_delta
      from stocktake_lines l
      left join items i on i.id = l.item_id
      left join lateral (select v.name, v.sku, v.barcode, v.price from item_versions v where v.item_id = l.item_id
        order by v.valid_from desc limit 1) last on i.id is null
      left join locations loc on loc.id = l.location_id
      left join locations par on par.id = loc.parent_id
      where l.stocktake_id = ${id} order by l.ord, ${locationLabel}`.execute(db);
    return rows.rows;
  }

  /** Where the session's counts may be made: its home location first, then the others by name. */
  private async places(db: Kysely<DB>, row: SessionRow): Promise<StocktakePlace[]> {
    const ids = idsOf(row.location_ids);
    const rows = await sql<StocktakePlace>`select loc.id, ${locationLabel} as name from locations loc
      left join locations par on par.id = loc.parent_id
      where loc.id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
      order by loc.id = ${row.home_location_id} desc, lower(${locationLabel}), loc.id`.execute(db);
    return rows.rows;
  }

  /**
   * One session. `showsVariance`: whether the reader sees expected quantities (asked with the
   * session's site); `sites`: the sites the reader may see (server/auth/site-access.ts): a
   * session at another is refused.
   */
  async session(
    id: string,
    showsVariance: boolean | ((siteId: string) => boolean),
    sites: VisibleSites = 'all',
  ): Promise<StocktakeSession> {
    const row = await this.sessionRow(this.db, id);
    if (!row) throw new NotFoundError('Stocktake not found');
    if (sites !== 'all' && !sites.includes(row.site_id.toLowerCase()))
      throw new ForbiddenError(`You don't have permission to view stocktakes at ${row.site_name ?? 'that site'}`);
    if (typeof showsVariance === 'function') showsVariance = showsVariance(row.site_id);
    const [lineRows, counts, locations] = await Promise.all([
      this.lineRows(this.db, id),
      countsWithExpected(this.db, sql`c.stocktake_id = ${id}`),
      this.places(this.db, row),
    ]);
    const byLine = groupByLine(counts);
    const lines = lineRows.map((l) =>
      toLine(l, byLine.get(lineKey({ itemId: l.item_id, locationId: l.location_id })) ?? [], showsVariance),
    );
    return {
      ...toSummary(row, progressOf(lines)),
      locations,
      lines,
      totals: totalsOf(lines, showsVariance),
      showsVariance,
    };
  }

  /**
   * The latest sessions, newest first, with their progress: lines and approvals counted in
   * SQL; a line counted twice with different numbers (as readLine says) is looked for only
   * where it can be: an open session's unapproved line with more than one count.
   */
  async list(limit = 50, sites: VisibleSites = 'all'): Promise<StocktakeSummary[]> {
    // Someone who sees some sites only lists the sessions at those sites (roles per site).
    const atSites =
      sites === 'all'
        ? sql`true`
        : sites.length === 0
          ? sql`false`
          : sql`site_id in (${sql.join(sites.map((id) => sql`${id}::uuid`))})`;
    const rows = await sql<SessionRow & { to_count: number; counted: number; approved: number }>`
      with recent as (select * from stocktakes where ${atSites} order by started_at desc limit ${limit})
      select ${sessionColumns},
        (select count(*) from stocktake_lines l where l.stocktake_id = t.id)::int as to_count,
        (select count(*) from stocktake_lines l where l.stocktake_id = t.id and exists (select 1 from stocktake_counts c
          where c.stocktake_id = l.stocktake_id and c.item_id = l.item_id and c.location_id = l.location_id))::int as counted,
        (select count(*) from stocktake_lines l where l.stocktake_id = t.id and l.approved_at is not null)::int as approved
      from recent t ${sessionJoins} order by t.started_at desc`.execute(this.db);
    const open = rows.rows.filter((r) => r.status === 'open').map((r) => r.id);
    const conflicts = new Map<string, number>();
    if (open.length) {
      const doubted = sql`(c.stocktake_id, c.item_id, c.location_id) in (
        select c2.stocktake_id, c2.item_id, c2.location_id from stocktake_counts c2
        join stocktake_lines l on l.stocktake_id = c2.stocktake_id and l.item_id = c2.item_id
          and l.location_id = c2.location_id and l.approved_at is null
        where c2.stocktake_id in (${sql.join(open)})
        group by c2.stocktake_id, c2.item_id, c2.location_id having count(*) > 1)`;
      const counts = await sql<{ id: string; stocktake_id: string }>`select c.id, c.stocktake_id
        from stocktake_counts c where ${doubted}`.execute(this.db);
      const sessionOf = new Map(counts.rows.map((r) => [r.id, r.stocktake_id]));
      const byLine = groupByLine(sessionOf.size ? await countsWithExpected(this.db, doubted) : []);
      for (const [, lineCounts] of byLine) {
        if (readLine(lineCounts).kind !== 'conflict') continue;
        const session = sessionOf.get(lineCounts[0]!.id)!;
        conflicts.set(session, (conflicts.get(session) ?? 0) + 1);
      }
    }
    return rows.rows.map((row) =>
      toSummary(row, {
        toCount: Number(row.to_count),
        counted: Number(row.counted),
        conflicts: conflicts.get(row.id) ?? 0,
        approved: Number(row.approved),
      }),
    );
  }

  /** The state the decisions run on; `lock` serializes a session's writers (inside their transaction). */
  async state(trx: Transaction, id: string): Promise<SessionState | null> {
    const row = await this.sessionRow(trx, id, true);
    if (!row) return null;
    const lines = await sql<{
      item_id: string;
      location_id: string;
      approved: boolean;
    }>`select item_id, location_id, approved_at is not null as approved
      from stocktake_lines where stocktake_id = ${id}`.execute(trx);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      startedAt: new Date(row.started_at),
      siteId: row.site_id,
      locationIds: new Set(idsOf(row.location_ids)),
      homeLocationId: row.home_location_id,
      lines: new Map(
        lines.rows.map((l) => [
          lineKey({ itemId: l.item_id, locationId: l.location_id }),
          { itemId: l.item_id, locationId: l.location_id, approved: Boolean(l.approved) },
        ]),
      ),
    };
  }

  /** Lines with their counts, for an approval (all of the session's, or the given lines'). */
  async linesToApprove(
    trx: Transaction,
    id: string,
    only?: { itemId: string; locationId: string },
  ): Promise<LineToApprove[]> {
    const rows = (await this.lineRows(trx, id)).filter(
      (l) => !only || (l.item_id === only.itemId && l.location_id === only.locationId),
    );
    const where = only
      ? sql`c.stocktake_id = ${id} and c.item_id = ${only.itemId} and c.location_id = ${only.locationId}`
      : sql`c.stocktake_id = ${id}`;
    const byLine = groupByLine(await countsWithExpected(trx, where));
    return rows.map((l) => ({
      itemId: l.item_id,
      locationId: l.location_id,
      name: l.name,
      locationName: l.location_name,
      counts: (byLine.get(lineKey({ itemId: l.item_id, locationId: l.location_id })) ?? []).map((c) => ({
        ...c,
        counter: { uid: c.countedByUid, name: c.countedBy },
      })),
    }));
  }
}
