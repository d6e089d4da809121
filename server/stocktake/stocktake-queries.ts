// Reads of the stocktake projections: a session with its lines, counts and variance, the
// list of sessions, and the state the decisions are made on. Each count's expected quantity
// (and price) is the item's version valid at countedAt (server/history's item_versions,
// read only) with the late-sent adjustments made before it (stockAtCount), looked up here
// every time, so it is right whatever order counts and sales reached the server in.
import { sql, type Kysely } from 'kysely';
import type {
  LineStatus,
  StocktakeCount,
  StocktakeLine,
  StocktakeScope,
  StocktakeSession,
  StocktakeSummary,
  StocktakeTotals,
} from '../../shared/stocktake.js';
import type { DB } from '../db/schema.js';
import { NotFoundError } from '../errors.js';
import type { Transaction } from '../eventstore/types.js';
import type { LineToApprove, SessionState } from './decide.js';
import { readLine, type CountAt } from './line-status.js';

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
}

interface LineRow {
  item_id: string;
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

interface CountRow {
  id: string;
  item_id: string;
  counted: number;
  counted_at: Date;
  counted_by: string;
  counted_by_uid: string | null;
  expected: number | null;
  price: string | number | null;
}

export interface CountWithExpected extends CountAt {
  itemId: string;
  countedBy: string;
  countedByUid: string | null;
  price: number | null;
}

/**
 * The item's quantity and price at a count's moment, as a lateral subquery over the count `c`:
 * the history's version valid at `c.counted_at` (placed by when the server recorded each
 * change), plus the adjustments recorded after that version that were made at or before the
 * count (`occurredAt`: a sale made offline and replayed from an outbox after the count). The
 * shelf already reflected those when it was counted. An adjustment recorded before the count is
 * before it whatever its occurredAt (the server keeps occurredAt only when it is earlier than its
 * own clock, so that is within clock skew). Deltas commute, so this is the stock the shelf had.
 */
const stockAtCount = sql`(select v.quantity + coalesce((select sum((e.data ->> 'delta')::int) from events e
      where e.stream_id = 'item-' || c.item_id::text and e.stream_version > v.version and e.type = 'StockAdjusted'
        and (e.data ->> 'occurredAt')::timestamptz <= c.counted_at), 0) as quantity, v.price
    from item_versions v
    where v.item_id = c.item_id and tstzrange(v.from_at, v.to_at) @> c.counted_at
    order by v.valid_from desc limit 1)`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const money = (n: number) => Math.round(n * 100) / 100;

/** Every count of a session (or of some of its items), with the item's quantity and price at its moment. */
export async function countsWithExpected(
  db: Kysely<DB>,
  stocktakeId: string,
  itemIds?: string[],
): Promise<CountWithExpected[]> {
  const only = itemIds ? sql`and c.item_id in (${sql.join(itemIds)})` : sql``;
  const rows =
    await sql<CountRow>`select c.id, c.item_id, c.counted, c.counted_at, c.counted_by, c.counted_by_uid, v.quantity as expected, v.price
    from stocktake_counts c
    left join lateral ${stockAtCount} v on true
    where c.stocktake_id = ${stocktakeId} ${only}
    order by c.counted_at, c.recorded_at`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    itemId: r.item_id,
    counted: r.counted,
    countedAt: new Date(r.counted_at),
    countedBy: r.counted_by,
    countedByUid: r.counted_by_uid,
    expected: r.expected === null ? null : Number(r.expected),
    price: r.price === null ? null : Number(r.price),
  }));
}

type Progress = Pick<StocktakeSummary, 'toCount' | 'counted' | 'conflicts' | 'approved'>;

/** A session row and its progress (from its lines, or counted in SQL by the list). */
function toSummary(row: SessionRow, progress: Progress): StocktakeSummary {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    categoryId: row.category_id,
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
    counted: c.counted,
    countedAt: iso(c.countedAt),
    countedBy: c.countedBy,
    expected: shown(c.expected),
    difference: shown(c.expected === null ? null : c.counted - c.expected),
  }));
  const base = {
    itemId: row.item_id,
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

export class StocktakeQueries {
  constructor(private readonly db: Kysely<DB>) {}

  private async sessionRow(db: Kysely<DB>, id: string, lock = false): Promise<SessionRow | null> {
    const rows =
      await sql<SessionRow>`select id, name, scope, category_id, status, started_at, started_by, closed_at, version
      from stocktakes where id = ${id} ${lock ? sql`for update` : sql``}`.execute(db);
    return rows.rows[0] ?? null;
  }

  /** The session's lines with the item's current name (or its last one, if deleted since). */
  private async lineRows(db: Kysely<DB>, id: string): Promise<LineRow[]> {
    const rows =
      await sql<LineRow>`select l.item_id, coalesce(i.name, last.name, '') as name, coalesce(i.sku, last.sku, '') as sku,
        coalesce(i.barcode, last.barcode) as barcode, coalesce(i.price, last.price, 0) as price,
        l.approved_at, l.approved_by, l.approved_count_id, l.approved_counted, l.approved_expected, l.approved_delta
      from stocktake_lines l
      left join items i on i.id = l.item_id
      left join lateral (select v.name, v.sku, v.barcode, v.price from item_versions v where v.item_id = l.item_id
        order by v.valid_from desc limit 1) last on i.id is null
      where l.stocktake_id = ${id} order by l.ord`.execute(db);
    return rows.rows;
  }

  async session(id: string, showsVariance: boolean): Promise<StocktakeSession> {
    const row = await this.sessionRow(this.db, id);
    if (!row) throw new NotFoundError('Stocktake not found');
    const [lineRows, counts] = await Promise.all([this.lineRows(this.db, id), countsWithExpected(this.db, id)]);
    const byItem = groupByItem(counts);
    const lines = lineRows.map((l) => toLine(l, byItem.get(l.item_id) ?? [], showsVariance));
    return { ...toSummary(row, progressOf(lines)), lines, totals: totalsOf(lines, showsVariance), showsVariance };
  }

  /**
   * The latest sessions, newest first, with their progress in one statement: a line is
   * counted when it has a count, and counted twice with different numbers (as readLine says)
   * when its unapproved counts imply more than one difference from their moments' stock.
   */
  async list(limit = 50): Promise<StocktakeSummary[]> {
    const rows = await sql<SessionRow & { to_count: number; counted: number; approved: number; conflicts: number }>`
      with recent as (
        select id, name, scope, category_id, status, started_at, started_by, closed_at, version
        from stocktakes order by started_at desc limit ${limit}
      ), readings as (
        select c.stocktake_id, c.item_id,
          count(distinct case when v.quantity is null then 'n' || c.counted else 'd' || (c.counted - v.quantity) end) as kinds
        from stocktake_counts c
        join recent r on r.id = c.stocktake_id
        left join lateral ${stockAtCount} v on true
        group by c.stocktake_id, c.item_id
      )
      select r.*,
        (select count(*) from stocktake_lines l where l.stocktake_id = r.id)::int as to_count,
        (select count(*) from readings x where x.stocktake_id = r.id)::int as counted,
        (select count(*) from stocktake_lines l where l.stocktake_id = r.id and l.approved_at is not null)::int as approved,
        (select count(*) from readings x join stocktake_lines l on l.stocktake_id = x.stocktake_id and l.item_id = x.item_id
          where x.stocktake_id = r.id and x.kinds > 1 and l.approved_at is null)::int as conflicts
      from recent r order by r.started_at desc`.execute(this.db);
    return rows.rows.map((row) =>
      toSummary(row, {
        toCount: Number(row.to_count),
        counted: Number(row.counted),
        conflicts: Number(row.conflicts),
        approved: Number(row.approved),
      }),
    );
  }

  /** The state the decisions run on; `lock` serializes a session's writers (inside their transaction). */
  async state(trx: Transaction, id: string): Promise<SessionState | null> {
    const row = await this.sessionRow(trx, id, true);
    if (!row) return null;
    const lines = await sql<{ item_id: string; approved: boolean }>`select item_id, approved_at is not null as approved
      from stocktake_lines where stocktake_id = ${id}`.execute(trx);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      startedAt: new Date(row.started_at),
      lines: new Map(lines.rows.map((l) => [l.item_id, { approved: Boolean(l.approved) }])),
    };
  }

  /** Lines with their counts, for an approval (all of the session's, or the given items'). */
  async linesToApprove(trx: Transaction, id: string, itemIds?: string[]): Promise<LineToApprove[]> {
    const rows = (await this.lineRows(trx, id)).filter((l) => !itemIds || itemIds.includes(l.item_id));
    const byItem = groupByItem(await countsWithExpected(trx, id, itemIds));
    return rows.map((l) => ({
      itemId: l.item_id,
      name: l.name,
      counts: (byItem.get(l.item_id) ?? []).map((c) => ({ ...c, counter: { uid: c.countedByUid, name: c.countedBy } })),
    }));
  }
}

function groupByItem(counts: CountWithExpected[]): Map<string, CountWithExpected[]> {
  const byItem = new Map<string, CountWithExpected[]>();
  for (const c of counts) byItem.set(c.itemId, [...(byItem.get(c.itemId) ?? []), c]);
  return byItem;
}
