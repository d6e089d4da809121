// The dashboard's revenue and top sellers come from sales roll-ups (migration 014): day rows
// plus the movements between each end of the window and its nearest midnight. Here 70 days of
// sales, returns, restocks, price changes, renames, deletes and restores are written with
// their own times (through the set-based forms, and event by event where a batch needs it,
// with one sale booked to a day before its item's later sales days), and at moments inside
// days, near midnights and on events' own times both the as-of and the live (clock set)
// dashboard must give the sums and the ranking a scan of the raw events gives.
// Sales and restocks are reverted now and then, days later, and some reverts reverted again
// a sale counts at a moment unless an odd number of its chain's reverts were
// made by then, at its own time and price; a revert's batch may also sell the same item.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryStream, itemStream, type InventoryEvent } from '../../shared/inventory-events.js';
import type { TopSellingItem } from '../../shared/dashboard.js';
import { createCategory, updateCategory } from '../../server/categories/decide.js';
import { adjustStock, createItem, deleteItem, updateItem } from '../../server/inventory/decide.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { splitStatements } from '../../server/db/migrate.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { DashboardQueries } from '../../server/dashboard/dashboard-queries.js';
import { AsOfDashboardQueries } from '../../server/history/as-of-dashboard.js';
import { appendBackdated, type BackdatedEvent } from '../bench/backdated-append.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';

const DAY = 86_400_000;
/** The tables this test is about (see `rollupDifferences`). */
const ROLLUPS = [
  'stock_daily',
  'item_sales_daily',
  'item_sales',
  'stock_movements',
  'item_versions',
  'reverted_sales',
  'low_stock_episodes',
];

/**
 * projections:verify, for the roll-ups and what they are computed from. The activity log is
 * left out: its set-based form names an edited item by its name after a rename that shares
 * the batch with other changes of it, where its handler names it by the name before (the app
 * does not write such batches; this test's fill does).
 */
async function rollupDifferences(store: TestStore['store']) {
  return (await verifyProjections(store)).filter((d) => ROLLUPS.includes(d.table));
}
const meta = { actor: { uid: 'test', name: 'Test' }, correlationId: 'sales-rollups' };

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sale {
  itemId: string;
  at: number;
  units: number;
  cents: number;
  /** When each revert of its chain (the sale's, the revert's, ...) was made, in order. */
  undone: number[];
}

/** Whether a sale counts at `t`: the reverts made by then undo it if they are odd in number. */
const counts = (sale: Sale, t: number) => sale.undone.filter((at) => at <= t).length % 2 === 0;

/** A movement that may be reverted: a sale, a restock, or a revert of either. */
interface Movement {
  eventId: string;
  itemId: string;
  delta: number;
  reverted: boolean;
}

interface History {
  events: BackdatedEvent[];
  end: number;
}

/** 70 days of changes ending yesterday, each event with its own moment, in log order. */
function history(): History {
  const rnd = random(2026);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const end = Math.floor(Date.now() / DAY) * DAY - 1; // the last moment of yesterday
  const start = end + 1 - 70 * DAY;
  const events: BackdatedEvent[] = [];
  const categories = new Map<string, { id: string; name: string; description: string; version: number }>();
  const items = new Map<string, ItemState>();
  /** `own`: the first event's id and every event's own metadata (a revert's command). */
  type Own = { eventId?: string; metadata?: Record<string, unknown> };
  const emit = (
    stream: { id: string; type: string },
    made: InventoryEvent[] | { type: string; data: unknown }[],
    at: number,
    version: number,
    own: Own = {},
  ) => {
    let v = version;
    for (const [k, e] of made.entries()) {
      events.push({
        streamId: stream.id,
        streamType: stream.type,
        streamVersion: ++v,
        type: e.type,
        data: e.data,
        createdAt: new Date(at),
        ...(k === 0 && own.eventId ? { eventId: own.eventId } : {}),
        ...(own.metadata ? { metadata: own.metadata } : {}),
      });
    }
    return v;
  };
  const apply = (id: string, made: InventoryEvent[], at: number, own: Own = {}) => {
    const stream = itemStream(id);
    let state = items.get(id) ?? null;
    const base = state?.version ?? 0;
    for (const [k, e] of made.entries())
      state = evolveItem(state, e, { version: base + k + 1, at: new Date(at), streamId: stream.id });
    emit(stream, made, at, base, own);
    items.set(id, state!);
  };
  const movements: Movement[] = [];
  /** A sale or restock (or a revert of one, with `reverts`), remembered so it can be reverted later. */
  const move = (
    item: ItemState,
    delta: number,
    reason: 'sale' | 'restock' | 'correction',
    at: number,
    reverts?: string,
  ) => {
    const eventId = randomUUID();
    apply(item.id, adjustStock({ delta, reason, note: null }, item), at, {
      eventId,
      ...(reverts ? { metadata: { reverts, revertReason: null } } : {}),
    });
    movements.push({ eventId, itemId: item.id, delta, reverted: false });
  };
  for (const name of ['Hardware', 'Paint']) {
    const id = randomUUID();
    const made = createCategory({ categoryId: id, name, description: '' });
    emit(categoryStream(id), made, start, 0);
    categories.set(id, { id, name, description: '', version: 1 });
  }
  const categoryIds = [...categories.keys()];
  for (let i = 0; i < 10; i++) {
    const id = randomUUID();
    const fields = {
      name: `Item ${String(i).padStart(2, '0')}`,
      description: '',
      sku: `SR-${i}`,
      categoryId: categoryIds[i % 2]!,
      quantity: 500,
      price: (100 + Math.floor(rnd() * 900)) / 100,
      threshold: 3,
      imageUrl: null,
      expiryDate: null,
      barcode: null,
    };
    apply(id, createItem({ itemId: id, fields }, null), start + i * 1000);
  }
  let renames = 0;
  for (let day = 1; day < 70; day++) {
    const times = Array.from(
      { length: 4 + Math.floor(rnd() * 10) },
      () => start + day * DAY + Math.floor(rnd() * DAY),
    ).sort((a, b) => a - b);
    for (const at of times) {
      const r = rnd();
      const all = [...items.values()];
      const alive = all.filter((s) => !s.deleted);
      const item = pick(alive);
      if (r < 0.55) {
        // Sales of 1-4, now and then a return (a sale with a positive delta).
        const delta = rnd() < 0.1 ? 1 : -(1 + Math.floor(rnd() * 4));
        move(item, delta, 'sale', at);
      } else if (r < 0.6) {
        // A revert of one of the last sales, restocks or reverts (hours or days ago), as the
        // app writes it: a correction of the opposite delta citing it. Now and then the same
        // item sells again in the revert's batch.
        const open = movements.slice(-60).filter((m) => !m.reverted && !items.get(m.itemId)!.deleted);
        if (open.length === 0) continue;
        const target = pick(open);
        target.reverted = true;
        move(items.get(target.itemId)!, -target.delta, 'correction', at, target.eventId);
        if (rnd() < 0.4) move(items.get(target.itemId)!, -1, 'sale', at);
      } else if (r < 0.7) {
        move(item, 5, 'restock', at);
      } else if (r < 0.75) {
        apply(item.id, adjustStock({ delta: -1, reason: 'damage', note: null }, item), at);
      } else if (r < 0.85) {
        apply(item.id, updateItem({ changes: { price: (100 + Math.floor(rnd() * 900)) / 100 } }, item), at);
      } else if (r < 0.9) {
        apply(item.id, updateItem({ changes: { name: `Renamed ${++renames}` } }, item), at);
      } else if (r < 0.93) {
        const c = categories.get(pick(categoryIds))!;
        const made = updateCategory({ name: `Aisle ${++renames}` }, { ...c, deletedAt: null } as never);
        c.version = emit(categoryStream(c.id), made, at, c.version);
        c.name = (made[0]!.data as { changes: { name: { to: string } } }).changes.name.to;
      } else if (r < 0.96 && alive.length > 6) {
        apply(item.id, deleteItem(item), at);
      } else {
        // A deleted item restored, as a revert of its deletion writes it: ItemCreated on its stream.
        const gone = all.filter((s) => s.deleted);
        if (gone.length === 0) continue;
        const back = pick(gone);
        const { id, version: _v, deleted: _d, createdAt: _c, updatedAt: _u, ...fields } = back;
        apply(id, [{ type: 'ItemCreated', data: { itemId: id, ...fields } }], at);
      }
    }
  }
  // A sale booked to ten days back, after its item's later sales (a transaction that began
  // before midnight and committed after later ones, stretched to show the roll-up's repair).
  const late = [...items.values()].find((s) => !s.deleted)!;
  const at = start + 60 * DAY + 7 * 3_600_000;
  const made = adjustStock({ delta: -2, reason: 'sale', note: null }, late);
  apply(late.id, made, at);
  return { events, end };
}

/**
 * Appends a day's events in batches as the app would (a creation apart from other changes; a
 * revert after what it reverts was committed, as the app decides it on the committed stream).
 */
async function write(store: TestStore['store'], events: BackdatedEvent[]): Promise<void> {
  let batch: BackdatedEvent[] = [];
  const day = (e: BackdatedEvent) => Math.floor(e.createdAt.getTime() / DAY);
  const kind = (e: BackdatedEvent) => (e.type === 'ItemCreated' ? `created ${e.streamId}` : 'other');
  const reverting = (e: BackdatedEvent) => e.type === 'StockAdjusted' && e.metadata?.reverts !== undefined;
  for (const e of events) {
    const prev = batch.at(-1);
    if (prev && (day(prev) !== day(e) || kind(prev) !== kind(e) || batch.length >= 7 || reverting(e))) {
      await appendBackdated(store, batch, meta);
      batch = [];
    }
    batch.push(e);
  }
  await appendBackdated(store, batch, meta);
}

/**
 * Sales as the movements record them: reason 'sale', -delta units at the item's price then;
 * each with the times of the reverts of its chain (a revert cites the sale, or a revert of it).
 */
function salesOf(events: BackdatedEvent[]): Sale[] {
  const price = new Map<string, number>();
  const sales: Sale[] = [];
  const chainOf = new Map<string, Sale>();
  for (const e of events) {
    const d = e.data as any;
    if (e.type === 'ItemCreated') price.set(e.streamId, Math.round(d.price * 100));
    if (e.type === 'ItemUpdated' && d.changes.price) price.set(e.streamId, Math.round(d.changes.price.to * 100));
    if (e.type !== 'StockAdjusted') continue;
    const reverts = e.metadata?.reverts as string | undefined;
    const sale = reverts ? chainOf.get(reverts) : undefined;
    if (sale) {
      sale.undone.push(e.createdAt.getTime());
      chainOf.set(e.eventId!, sale);
    } else if (d.reason === 'sale') {
      const made = {
        itemId: e.streamId.slice(5),
        at: e.createdAt.getTime(),
        units: -d.delta,
        cents: -d.delta * price.get(e.streamId)!,
        undone: [],
      };
      sales.push(made);
      if (e.eventId) chainOf.set(e.eventId, made);
    }
  }
  return sales;
}

/** Items and category names after the events up to `t` (all of them: Infinity). */
function replay(events: BackdatedEvent[], t: number) {
  const items = new Map<string, ItemState | null>();
  const categories = new Map<string, string>();
  for (const e of events) {
    if (e.createdAt.getTime() > t) continue;
    const d = e.data as any;
    if (e.streamType === 'item') {
      items.set(
        e.streamId,
        evolveItem(items.get(e.streamId) ?? null, { type: e.type, data: e.data } as InventoryEvent, {
          version: e.streamVersion,
          at: e.createdAt,
          streamId: e.streamId,
        }),
      );
    } else if (e.type === 'CategoryCreated') categories.set(d.categoryId, d.name);
    else if (e.type === 'CategoryUpdated' && d.changes.name)
      categories.set(e.streamId.slice('category-'.length), d.changes.name.to);
  }
  return { items: [...items.values()].filter((s): s is ItemState => !!s && !s.deleted), categories };
}

function expectedTop(sales: Sale[], events: BackdatedEvent[], t: number, namesAt: number): TopSellingItem[] {
  const since = t - 30 * DAY;
  const { items, categories } = replay(events, namesAt);
  const rows = items.map((s) => {
    const mine = sales.filter((x) => x.itemId === s.id && x.at >= since && x.at <= t && counts(x, t));
    return {
      itemId: s.id,
      name: s.name,
      category: categories.get(s.categoryId)!,
      sold: mine.reduce((n, x) => n + x.units, 0),
      revenue: mine.reduce((n, x) => n + x.cents, 0) / 100,
    };
  });
  return rows
    .filter((r) => r.sold > 0)
    .sort((a, b) => b.sold - a.sold || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 5);
}

describe.each(backends())('dashboard sales roll-ups on $name', (backend) => {
  let t: TestStore;
  let h: History;
  let sales: Sale[];

  beforeAll(async () => {
    t = await openTestStore(backend);
    h = history();
    await write(t.store, h.events);
    sales = salesOf(h.events);
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps the roll-ups as a replay of the events through the handlers makes them', async () => {
    expect(sales.length).toBeGreaterThan(200);
    // Reverted sales, some of them reverted back, and reverted restocks are in the history.
    expect(sales.filter((s) => s.undone.length === 1).length).toBeGreaterThan(5);
    expect(sales.filter((s) => s.undone.length >= 2).length).toBeGreaterThan(0);
    const reverted = await sql<{ n: number }>`select count(*)::int as n from reverted_sales`.execute(t.database.db);
    expect(reverted.rows[0]!.n).toBe(sales.reduce((n, s) => n + s.undone.length, 0));
    expect(await rollupDifferences(t.store)).toEqual([]);
  }, 60_000);

  it("gives the raw events' revenue and top sellers at moments inside days, near midnights and on events", async () => {
    const rnd = random(14);
    const first = h.events[0]!.createdAt.getTime();
    const moments = [
      ...Array.from({ length: 16 }, () => first + Math.floor(rnd() * (h.end - first))),
      // Either side of a midnight, and the middle of a day (the nearest midnight flips).
      ...[20, 45, 61].flatMap((d) => [
        first + d * DAY - 1,
        first + d * DAY,
        first + d * DAY + 1,
        first + d * DAY + DAY / 2,
      ]),
      // On sales' own times, and a millisecond before them: the window's ends include and exclude them.
      ...Array.from({ length: 8 }, () => pick(rnd, sales).at).flatMap((at) => [
        at,
        at - 1,
        at + 30 * DAY,
        at + 30 * DAY - 1,
      ]),
      // Between a sale and its revert, on the revert, and either side of the reverted sale's window edge.
      ...Array.from({ length: 8 }, () =>
        pick(
          rnd,
          sales.filter((s) => s.undone.length > 0),
        ),
      ).flatMap((s) => [
        s.undone[0]! - 1,
        s.undone[0]!,
        Math.floor((s.at + s.undone[0]!) / 2),
        s.at + 30 * DAY,
        s.at + 30 * DAY + 1,
      ]),
      h.end,
    ].map((ms) => Math.min(ms, h.end + DAY));
    for (const ms of moments) {
      const at = new Date(ms);
      const window = (from: number, to: number, open: boolean) =>
        sales.filter((s) => s.at >= from && (open ? s.at < to : s.at <= to) && counts(s, ms));
      const current = window(ms - 30 * DAY, ms, false);
      const previous = window(ms - 60 * DAY, ms - 30 * DAY, true);
      const expected = {
        last30Days: current.reduce((n, s) => n + s.cents, 0) / 100,
        previous30Days: previous.reduce((n, s) => n + s.cents, 0) / 100,
        unitsSold: current.reduce((n, s) => n + s.units, 0),
      };
      const where = `at ${at.toISOString()}`;
      const asOf = new AsOfDashboardQueries(t.database.db, at);
      expect(await asOf.revenue(at), where).toMatchObject(expected);
      expect(await asOf.topSelling(at), where).toEqual(expectedTop(sales, h.events, ms, ms));
      // The live dashboard with its clock set there: the same sums, today's names.
      const live = new DashboardQueries(t.database.db, () => at);
      expect(await live.revenue(at), where).toMatchObject(expected);
      expect(await live.topSelling(at), where).toEqual(expectedTop(sales, h.events, ms, Infinity));
    }
  }, 120_000);

  it('fills the roll-ups from stored movements as the projection keeps them (migrations 014 and 019)', async () => {
    const fills = (file: string) =>
      splitStatements(readFileSync(new URL(`../../migrations/${file}`, import.meta.url), 'utf8')).filter((s) =>
        /^(insert into|update|delete from)/.test(s),
      );
    expect(fills('014_sales_rollups.sql')).toHaveLength(3);
    expect(fills('019_reverted_sales.sql')).toHaveLength(8);
    // The store as it was before 019: every sale counted, reverts unknown to the roll-ups and
    // episodes cleared by a revert said to be cleared by its reason.
    await t.database.db.transaction().execute(async (trx) => {
      await sql`update stock_daily set sold_units = 0, sold_revenue = 0`.execute(trx);
      await sql`delete from item_sales_daily`.execute(trx);
      await sql`delete from item_sales`.execute(trx);
      await sql`delete from reverted_sales`.execute(trx);
      await sql`update low_stock_episodes set cleared_by = 'correction' where cleared_by = 'revert'`.execute(trx);
      await sql`update low_stock_episodes set clear_reverted_at = null`.execute(trx);
      for (const statement of fills('014_sales_rollups.sql')) await sql.raw(statement).execute(trx);
    });
    const before = (await rollupDifferences(t.store)).map((d) => d.table).sort();
    expect(before).toEqual(expect.arrayContaining(['item_sales', 'item_sales_daily', 'reverted_sales', 'stock_daily']));
    await t.database.db.transaction().execute(async (trx) => {
      for (const statement of fills('019_reverted_sales.sql')) await sql.raw(statement).execute(trx);
    });
    expect(await rollupDifferences(t.store)).toEqual([]);
  }, 120_000);
});

function pick<T>(rnd: () => number, xs: T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}
