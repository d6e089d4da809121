// Sales in a window of time from the roll-ups of migration 014, exactly as a scan of the
// window's stock movements would sum them, for any window ending at any moment (the live
// dashboard's, or an as-of one's). Each end of the window is moved to the nearest UTC
// midnight, where the day rows (stock_daily's sales, item_sales_daily's sales before a day)
// give the sums; the sales between an end and its midnight are then read one by one and
// counted in or out, so at most half a day of movements is read per end.
//
// A reverted sale is taken out of the roll-ups at its own day (dashboard/projection.ts) and
// its revert kept in reverted_sales, as a movement of the sale's time that takes the sale's
// units back. Those rows are counted like sales at the window's ends, by the sale's time;
// and a revert made after the moment the window ends at (an as-of read, or a clock set back)
// is not known then: its sale is counted back in.
import { sql, type RawBuilder } from 'kysely';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC midnight nearest to `t`. */
export const nearestMidnight = (t: Date) => new Date(Math.round(t.getTime() / DAY_MS) * DAY_MS);
const dayOf = (midnight: Date) => midnight.toISOString().slice(0, 10);

/** The sales movements between each moment and its midnight (both ends included), by their time `at`. */
function edges(moments: Date[], at = sql.ref('created_at')): RawBuilder<unknown> {
  return sql.join(
    moments.map((t) => {
      const m = nearestMidnight(t);
      const [lo, hi] = t < m ? [t, m] : [m, t];
      return sql`${at} between ${lo} and ${hi}`;
    }),
    sql` or `,
  );
}

/** 1 for a movement at `at` inside [from, to] (or [from, to) with `open`). */
const inside = (from: Date, to: Date, open: boolean, at: RawBuilder<unknown>) =>
  sql`(${at} >= ${from} and ${open ? sql`${at} < ${to}` : sql`${at} <= ${to}`})::int`;

/**
 * 1 for a movement at `created_at` inside [from, to] (or [from, to) with `open`), less 1 if
 * the midnights nearest to them (always [midnight, midnight)) contain it: what the day rows
 * miss (+1) or count too much (-1). Zero for every movement away from the edges.
 */
function correction(from: Date, to: Date, open = false, at = sql.ref('created_at')): RawBuilder<number> {
  return sql`(${inside(from, to, open, at)}
    - (${at} >= ${nearestMidnight(from)} and ${at} < ${nearestMidnight(to)})::int)`;
}

/**
 * For a reverted_sales row: the correction by its sale's time, less 1 when the revert came
 * after `now` and its sale is in the window (the day rows took the sale out; then it still
 * counted).
 */
function revertCorrection(from: Date, to: Date, now: Date, open = false): RawBuilder<number> {
  return sql`(${correction(from, to, open, sql.ref('sold_at'))} - (created_at > ${now})::int * ${inside(from, to, open, sql.ref('sold_at'))})`;
}

/** The reverted_sales rows a window from `since` to `now` with these ends needs: at the edges, or made after `now`. */
function revertRows(moments: Date[], since: Date, now: Date): RawBuilder<unknown> {
  return sql`(${edges(moments, sql.ref('sold_at'))} or (created_at > ${now} and sold_at >= ${since} and sold_at <= ${now}))`;
}

/**
 * Store-wide revenue of [since60, since30) (`previous`) and [since30, now] (`current`) and
 * units sold in the latter: one row, numeric columns.
 */
export function revenueWindows(
  since60: Date,
  since30: Date,
  now: Date,
): RawBuilder<{ current: string; previous: string; units: string }> {
  const [d60, d30, dNow] = [since60, since30, now].map((t) => dayOf(nearestMidnight(t)));
  return sql`with days as (
      select coalesce(sum(sold_revenue) filter (where day >= ${d30}::date), 0) as current,
        coalesce(sum(sold_revenue) filter (where day < ${d30}::date), 0) as previous,
        coalesce(sum(sold_units) filter (where day >= ${d30}::date), 0) as units
      from stock_daily where day >= ${d60}::date and day < ${dNow}::date
    ), edge as (
      select coalesce(sum(-delta * unit_price * kc), 0) as current, coalesce(sum(-delta * unit_price * kp), 0) as previous,
        coalesce(sum(-delta * kc), 0) as units
      from (
        select delta, unit_price, ${correction(since30, now)} as kc, ${correction(since60, since30, true)} as kp
        from stock_movements where reason = 'sale' and (${edges([since60, since30, now])})
        union all
        select delta, unit_price, ${revertCorrection(since30, now, now)}, ${revertCorrection(since60, since30, now, true)}
        from reverted_sales where ${revertRows([since60, since30, now], since60, now)}) m
    )
    select days.current + edge.current as current, days.previous + edge.previous as previous, days.units + edge.units as units
    from days, edge`;
}

/** Each item's units sold before midnight `m` (items that sold nothing before it have no row). */
function soldBefore(m: Date, sign: 1 | -1): RawBuilder<unknown> {
  const day = dayOf(m);
  const minus = sign < 0 ? sql`-` : sql``;
  return sql`select item_id, ${minus}sold_before as sold from item_sales_daily
      where prev_day is not null and daterange(prev_day + 1, day + 1) @> ${day}::date
    union all
    select item_id, ${minus}sold from item_sales where last_day < ${day}::date`;
}

/**
 * Per item (deleted ones included) that sold in [since, now]: units, as rows (item_id, sold)
 * to sum by item. Revenue is left to `itemRevenue`, for the few items shown: summing numeric
 * for every item cost more than the rest of the ranking on PGlite.
 */
export function itemSoldParts(since: Date, now: Date): RawBuilder<unknown> {
  return sql`${soldBefore(nearestMidnight(now), 1)}
    union all
    ${soldBefore(nearestMidnight(since), -1)}
    union all
    select item_id, -delta * k from (
      select item_id, delta, ${correction(since, now)} as k
      from stock_movements where reason = 'sale' and (${edges([since, now])})
      union all
      select item_id, delta, ${revertCorrection(since, now, now)}
      from reverted_sales where ${revertRows([since, now], since, now)}) e
    where k <> 0`;
}

/** One item's revenue before midnight `m`: its first sales day from `m` on says, else its total. */
function revenueBefore(item: RawBuilder<unknown>, m: Date): RawBuilder<unknown> {
  const day = dayOf(m);
  return sql`coalesce(
    (select d.revenue_before from item_sales_daily d where d.item_id = ${item} and d.day >= ${day}::date order by d.day limit 1),
    (select s.revenue from item_sales s where s.item_id = ${item}), 0)`;
}

/** One item's revenue in [since, now] (`item`: an expression naming it), by its key: a few index reads. */
export function itemRevenue(item: RawBuilder<unknown>, since: Date, now: Date): RawBuilder<string> {
  return sql`(${revenueBefore(item, nearestMidnight(now))} - ${revenueBefore(item, nearestMidnight(since))}
    + (select coalesce(sum(-m.delta * m.unit_price * ${correction(since, now)}), 0) from stock_movements m
      where m.item_id = ${item} and m.reason = 'sale' and (${edges([since, now])}))
    + (select coalesce(sum(-r.delta * r.unit_price * ${revertCorrection(since, now, now)}), 0) from reverted_sales r
      where r.item_id = ${item} and ${revertRows([since, now], since, now)}))`;
}
