// The store as of any moment, and what changed between two, checked against a
// fresh replay: a history of random commands is written through the API (creates, stock
// moves, edits, moves between categories, deletes, reverts, category renames), then for 50
// random instants the as-of listing, categories and dashboard totals must equal a pure fold
// of the events up to that instant, and /api/changes the difference of two such folds.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryEvent, InventoryEvent } from '../../shared/inventory-events.js';
import { evolveCategory, type FoldedCategory } from '../../shared/inventory-fold.js';
import { toStoredEvent } from '../../server/eventstore/event-store.js';
import type { StoredEvent } from '../../server/eventstore/types.js';
import { evolveItem, type ItemState } from '../../server/inventory/item-state.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';

type Op =
  | { kind: 'create'; category: number; quantity: number; price: number; threshold: number }
  | { kind: 'adjust'; item: number; delta: number }
  | {
      kind: 'edit';
      item: number;
      name: boolean;
      price: number | null;
      threshold: number | null;
      category: number | null;
    }
  | { kind: 'delete'; item: number }
  | { kind: 'revert'; pick: number }
  | { kind: 'rename'; category: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      category: fc.nat(2),
      quantity: fc.nat(20),
      price: fc.integer({ min: 1, max: 5000 }).map((c) => c / 100),
      threshold: fc.nat(6),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      item: fc.nat(),
      delta: fc.integer({ min: -8, max: 10 }).filter((d) => d !== 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      item: fc.nat(),
      name: fc.boolean(),
      price: fc.option(fc.integer({ min: 1, max: 9000 }).map((c) => c / 100)),
      threshold: fc.option(fc.nat(8)),
      category: fc.option(fc.nat(2)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), item: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('revert' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), category: fc.nat(2) }) },
);

interface Replayed {
  items: Map<string, ItemState>;
  categories: Map<string, { id: string; name: string; description: string }>;
}

/** A fresh replay: the events up to `t`, folded with the decisions' own evolve (no projection involved). */
function replay(events: StoredEvent[], t: Date): Replayed {
  const items = new Map<string, ItemState | null>();
  const categories = new Map<string, FoldedCategory | null>();
  for (const e of events) {
    if (e.createdAt.getTime() > t.getTime()) continue;
    if (e.streamType === 'item') {
      items.set(
        e.streamId,
        evolveItem(items.get(e.streamId) ?? null, { type: e.type, data: e.data } as InventoryEvent, {
          version: e.streamVersion,
          at: e.createdAt,
          streamId: e.streamId,
        }),
      );
    } else if (e.streamType === 'category') {
      const id = e.streamId.slice('category-'.length);
      categories.set(
        id,
        evolveCategory(categories.get(id) ?? null, { type: e.type, data: e.data } as CategoryEvent, {
          version: e.streamVersion,
          at: e.createdAt,
        }),
      );
    }
  }
  const live = new Map<string, ItemState>();
  for (const s of items.values()) if (s && !s.deleted) live.set(s.id, s);
  const cats = new Map<string, { id: string; name: string; description: string }>();
  for (const [id, c] of categories) if (c && !c.deleted) cats.set(id, { id, name: c.name, description: c.description });
  return { items: live, categories: cats };
}

const shape = (s: ItemState, categories: Replayed['categories']) => ({
  id: s.id,
  name: s.name,
  sku: s.sku,
  description: s.description,
  categoryId: s.categoryId,
  category: categories.get(s.categoryId)?.name,
  quantity: s.quantity,
  price: s.price,
  threshold: s.threshold,
  barcode: s.barcode,
  expiryDate: s.expiryDate,
  imageUrl: s.imageUrl,
});

describe.each(backends())('as-of reads and compare on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let events: StoredEvent[];
  let first: number;
  let last: number;

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Asa Manager');
    const call = (method: string, path: string, body?: unknown) =>
      server.request(method, path, { token: manager.idToken, body });
    const categories: string[] = [];
    for (const name of ['Hardware', 'Paint', 'Garden'])
      categories.push((await call('POST', '/api/categories', { name, description: `${name} aisle` })).body.id);
    const items: string[] = [];
    const changes: string[] = [];
    const ops = fc.sample(fc.array(opArb, { minLength: 70, maxLength: 70 }), { numRuns: 1, seed: 1414 })[0]!;
    let n = 0;
    for (const op of ops) {
      const item = items.length ? items[('item' in op ? op.item : 0) % items.length]! : null;
      let r: Awaited<ReturnType<typeof call>> | null = null;
      if (op.kind === 'create') {
        r = await call('POST', '/api/inventory', {
          name: `Item ${++n}`,
          sku: `AS-${n}`,
          category_id: categories[op.category],
          quantity: op.quantity,
          price: op.price,
          threshold: op.threshold,
        });
        if (r.status === 201) items.push(r.body.id);
      } else if (op.kind === 'adjust' && item) {
        r = await call('POST', `/api/inventory/${item}/adjust`, {
          delta: op.delta,
          reason: op.delta > 0 ? 'restock' : 'sale',
        });
      } else if (op.kind === 'edit' && item) {
        const body: Record<string, unknown> = {};
        if (op.name) body.name = `Renamed ${++n}`;
        if (op.price !== null) body.price = op.price;
        if (op.threshold !== null) body.threshold = op.threshold;
        if (op.category !== null) body.category_id = categories[op.category];
        if (Object.keys(body).length) r = await call('PUT', `/api/inventory/${item}`, body);
      } else if (op.kind === 'delete' && item) {
        r = await call('DELETE', `/api/inventory/${item}`);
      } else if (op.kind === 'revert' && changes.length) {
        r = await call('POST', `/api/events/${changes[op.pick % changes.length]}/revert`, { fields: undefined });
      } else if (op.kind === 'rename') {
        r = await call('PUT', `/api/categories/${categories[op.category]}`, { name: `Aisle ${++n}` });
      }
      if (r && r.status < 300 && item && op.kind !== 'revert') {
        const history = (await call('GET', `/api/inventory/${item}/history`)).body;
        changes.push(history.at(-1).eventId);
      }
      // Writes a few milliseconds apart: instants between them separate before from after.
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const rows =
      await sql<any>`select position, tx_id::text as tx_id, stream_id, stream_type, stream_version, event_id::text as event_id,
        type, data, metadata, created_at from events order by position`.execute(server.store.database.db);
    events = rows.rows.map(toStoredEvent);
    first = events[0]!.createdAt.getTime(); // the earliest moment an as-of read shows
    last = events.at(-1)!.createdAt.getTime() + 5;
  }, 240_000);
  afterAll(() => server.close());

  const get = async (path: string) => {
    const r = await server.request('GET', path, { token: manager.idToken });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  it('the history projections are what a rebuild gives', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it('answers items, low stock, categories and dashboard totals as a fresh replay does, at 50 random instants', async () => {
    // Half of the instants fall exactly on an event's time: the edges of the validity ranges.
    const instant = fc.oneof(
      fc.integer({ min: first, max: last }),
      fc.constantFrom(...events.map((e) => e.createdAt.getTime())),
    );
    await fc.assert(
      fc.asyncProperty(instant, async (ms) => {
        const t = new Date(ms);
        const at = encodeURIComponent(t.toISOString());
        const expected = replay(events, t);
        const listed = await get(`/api/inventory?asOf=${at}&limit=500`);
        const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
        expect(
          listed
            .map((i: any) => ({
              id: i.id,
              name: i.name,
              sku: i.sku,
              description: i.description,
              categoryId: i.categoryId,
              category: i.category,
              quantity: i.quantity,
              price: i.price,
              threshold: i.threshold,
              barcode: i.barcode,
              expiryDate: i.expiryDate,
              imageUrl: i.imageUrl,
            }))
            .sort(byId),
        ).toEqual([...expected.items.values()].map((s) => shape(s, expected.categories)).sort(byId));
        const low = await get(`/api/inventory/low-stock?asOf=${at}`);
        expect(low.map((i: any) => [i.id, i.quantity, i.threshold]).sort()).toEqual(
          [...expected.items.values()]
            .filter((i) => i.quantity <= i.threshold)
            .map((i) => [i.id, i.quantity, i.threshold])
            .sort(),
        );
        const categories = await get(`/api/categories?asOf=${at}`);
        expect(
          categories
            .map((c: any) => ({ id: c.id, name: c.name, description: c.description, itemCount: c.itemCount }))
            .sort(byId),
        ).toEqual(
          [...expected.categories.values()]
            .map((c) => ({ ...c, itemCount: [...expected.items.values()].filter((i) => i.categoryId === c.id).length }))
            .sort(byId),
        );
        const dashboard = await get(`/api/dashboard?asOf=${at}`);
        const live = [...expected.items.values()];
        expect(dashboard.totals).toEqual({
          items: live.length,
          categories: expected.categories.size,
          units: live.reduce((s, i) => s + i.quantity, 0),
          value: Math.round(live.reduce((s, i) => s + i.quantity * Math.round(i.price * 100), 0)) / 100,
          lowStock: live.filter((i) => i.quantity <= i.threshold).length,
        });
      }),
      { numRuns: 50, seed: 14 },
    );
  });

  it('compares two moments as the difference of two replays', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: first, max: last }), fc.integer({ min: first, max: last }), async (x, y) => {
        const [from, to] = [new Date(Math.min(x, y)), new Date(Math.max(x, y))];
        const a = replay(events, from).items;
        const b = replay(events, to).items;
        const report = await get(
          `/api/changes?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
        );
        const expected = new Map<string, { status: string; stockMovement: number; fields: string[] }>();
        for (const id of new Set([...a.keys(), ...b.keys()])) {
          const before = a.get(id);
          const after = b.get(id);
          const fields =
            before && after
              ? (
                  [
                    'name',
                    'sku',
                    'description',
                    'categoryId',
                    'price',
                    'threshold',
                    'imageUrl',
                    'expiryDate',
                    'barcode',
                  ] as const
                ).filter((f) => before[f] !== after[f])
              : [];
          const movement = (after?.quantity ?? 0) - (before?.quantity ?? 0);
          const status = !before ? 'created' : !after ? 'deleted' : 'changed';
          if (status === 'changed' && fields.length === 0 && movement === 0) continue;
          expected.set(id, { status, stockMovement: movement, fields: [...fields].sort() });
        }
        const got = new Map<string, { status: string; stockMovement: number; fields: string[] }>();
        for (const g of report.groups) {
          for (const c of g.items)
            got.set(c.itemId, {
              status: c.status,
              stockMovement: c.stockMovement,
              fields: c.diffs.map((d: any) => d.field).sort(),
            });
        }
        expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
        const all = [...expected.values()];
        expect(report.totals).toMatchObject({
          created: all.filter((c) => c.status === 'created').length,
          deleted: all.filter((c) => c.status === 'deleted').length,
          changed: all.filter((c) => c.status === 'changed').length,
          stockMovement: all.reduce((s, c) => s + c.stockMovement, 0),
        });
      }),
      { numRuns: 20, seed: 15 },
    );
  });
});
