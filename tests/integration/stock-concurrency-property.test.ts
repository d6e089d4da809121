// Stock per location under concurrent writers, as a property: several clients send random
// adjustments (at named locations, or without one: the site's default location) and moves
// over a few items and five locations in two sites, all at once over HTTP. Whatever the
// interleaving, every accepted request counts exactly once and every refused one changes
// nothing: each location ends at its start plus the accepted adjustments there and the
// accepted moves in and out, each item's total moves by exactly its accepted adjustments, no
// location is ever below 0 at any version of the item's stream, items.quantity is the sum of
// its stock_levels rows, and the projections match a replay of the log.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryEvent } from '../../shared/inventory-events.js';
import { levelsAfter } from '../../shared/inventory-fold.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES } from '../helpers/test-places.js';

const RUNS = 8;
const ITEMS = 3;
const PLACES = TEST_PLACES.map((p) => p.id);
const MAIN = PLACES[0]!;

type Op =
  | { kind: 'adjust'; item: number; delta: number; place: number | null }
  | { kind: 'move'; item: number; from: number; to: number; quantity: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('adjust' as const),
    item: fc.nat(ITEMS - 1),
    delta: fc.integer({ min: -5, max: 5 }).filter((d) => d !== 0),
    // null: the old request, with no location (the default location of the caller's site).
    place: fc.option(fc.nat(PLACES.length - 1), { freq: 3 }),
  }),
  fc.record({
    kind: fc.constant('move' as const),
    item: fc.nat(ITEMS - 1),
    from: fc.nat(PLACES.length - 1),
    to: fc.nat(PLACES.length - 1),
    quantity: fc.integer({ min: 1, max: 5 }),
  }),
);

/** Per item, where it starts: units at each location (its creation at one, then one restock at each other). */
const start = fc.array(fc.array(fc.nat(4), { minLength: PLACES.length, maxLength: PLACES.length }), {
  minLength: ITEMS,
  maxLength: ITEMS,
});
/** Four clients, each sending its requests one after the other, all four at once. */
const clients = fc.array(fc.array(op, { minLength: 2, maxLength: 10 }), { minLength: 4, maxLength: 4 });

describe.each(backends())('concurrent stock changes per location on $name', (backend) => {
  let server: TestServer;
  let accounts: TestAccount[];
  let categoryId: string;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedPlaces(server.store.store);
    const manager = await accountWithRole(server, 'manager', 'Pia Manager');
    accounts = [
      manager,
      await accountWithRole(server, 'staff', 'Rui Staff'),
      await accountWithRole(server, 'staff'),
      await accountWithRole(server, 'manager'),
    ];
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: `Bins ${backend.name}` },
    });
    categoryId = (category.body as { id: string }).id;
  });
  afterAll(() => server.close());

  const post = (account: TestAccount, path: string, body: unknown) =>
    server.request('POST', path, { token: account.idToken, body });

  /** The item's levels as stock_levels holds them, and its quantity. */
  async function stored(id: string) {
    const db = server.store.database.db;
    const rows = await sql<{ location_id: string; quantity: number }>`select location_id::text as location_id, quantity
      from stock_levels where item_id = ${id}`.execute(db);
    const item = await sql<{ quantity: number }>`select quantity from items where id = ${id}`.execute(db);
    return {
      levels: Object.fromEntries(rows.rows.map((r) => [r.location_id, Number(r.quantity)])),
      quantity: Number(item.rows[0]!.quantity),
    };
  }

  /** Every version of the item's levels, folded from its stream in order. */
  async function levelsAtEveryVersion(id: string) {
    const rows = await sql<{ type: string; data: unknown }>`select type, data from events
      where stream_id = ${`item-${id}`} order by stream_version`.execute(server.store.database.db);
    const versions: Array<Record<string, number>> = [];
    let levels: Record<string, number> = {};
    for (const row of rows.rows) {
      const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
      levels = levelsAfter(levels, { type: row.type, data } as InventoryEvent);
      versions.push(levels);
    }
    return { versions, types: rows.rows.map((r) => r.type) };
  }

  it(
    'counts every accepted change once and nothing refused, and no location ever goes below 0',
    { timeout: 300_000 },
    async () => {
      let accepted = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(start, clients, async (starts, sends) => {
          // The items, each created at one location and restocked at the others.
          const items: Array<{ id: string; expected: Record<string, number> }> = [];
          for (const units of starts) {
            const created = await post(accounts[0]!, '/api/inventory', {
              name: `Bin item ${++n}`,
              sku: `BIN-${n}-${backend.name}`,
              category_id: categoryId,
              quantity: units[0]!,
              price: 2,
              threshold: 0,
              location_id: PLACES[0],
            });
            expect(created.status, JSON.stringify(created.body)).toBe(201);
            const id = (created.body as { id: string }).id;
            for (let p = 1; p < PLACES.length; p++) {
              if (units[p] === 0) continue;
              const r = await post(accounts[0]!, `/api/inventory/${id}/adjust`, {
                delta: units[p],
                reason: 'restock',
                locationId: PLACES[p],
              });
              expect(r.status).toBe(200);
            }
            items.push({
              id,
              expected: Object.fromEntries(
                PLACES.flatMap((p, i) => (i === 0 || units[i]! > 0 ? [[p, units[i]!]] : [])),
              ),
            });
          }
          const before = await Promise.all(items.map((i) => stored(i.id)));
          const versionsBefore = await Promise.all(items.map(async (i) => (await levelsAtEveryVersion(i.id)).types));

          // All clients at once, each sending its requests in turn.
          const outcomes = await Promise.all(
            sends.map(async (ops, c) => {
              const results: Array<{ op: Op; status: number; body: unknown }> = [];
              for (const o of ops) {
                const item = items[o.item]!;
                const r =
                  o.kind === 'adjust'
                    ? await post(accounts[c]!, `/api/inventory/${item.id}/adjust`, {
                        delta: o.delta,
                        reason: o.delta > 0 ? 'restock' : 'sale',
                        ...(o.place === null ? {} : { locationId: PLACES[o.place] }),
                      })
                    : await post(accounts[c]!, '/api/moves', {
                        itemId: item.id,
                        fromLocationId: PLACES[o.from],
                        toLocationId: PLACES[o.to],
                        quantity: o.quantity,
                      });
                results.push({ op: o, status: r.status, body: r.body });
              }
              return results;
            }),
          );

          // What the accepted requests add up to, per item and location.
          const adjusted = items.map(() => 0);
          const counts = items.map(() => ({ adjustments: 0, moves: 0 }));
          for (const { op: o, status, body } of outcomes.flat()) {
            const item = items[o.item]!;
            if (status !== 200) {
              // A refusal says why: below 0 there (409), across sites (422), the same location twice (400).
              expect([400, 409, 422], JSON.stringify(body)).toContain(status);
              refused += 1;
              continue;
            }
            accepted += 1;
            const add = (place: string, units: number) => (item.expected[place] = (item.expected[place] ?? 0) + units);
            if (o.kind === 'adjust') {
              add(o.place === null ? MAIN : PLACES[o.place]!, o.delta);
              adjusted[o.item]! += o.delta;
              counts[o.item]!.adjustments += 1;
            } else {
              add(PLACES[o.from]!, -o.quantity);
              add(PLACES[o.to]!, o.quantity);
              counts[o.item]!.moves += 1;
            }
          }

          for (const [k, item] of items.entries()) {
            const after = await stored(item.id);
            expect(after.levels).toEqual(item.expected);
            expect(after.quantity).toBe(before[k]!.quantity + adjusted[k]!);
            expect(after.quantity).toBe(Object.values(after.levels).reduce((a, b) => a + b, 0));
            const { versions, types } = await levelsAtEveryVersion(item.id);
            for (const levels of versions)
              for (const units of Object.values(levels)) expect(units).toBeGreaterThanOrEqual(0);
            expect(versions.at(-1)).toEqual(item.expected);
            // Exactly one event per accepted request (crossings aside), none for a refused one.
            const written = types.slice(versionsBefore[k]!.length);
            expect(written.filter((t) => t === 'StockAdjusted')).toHaveLength(counts[k]!.adjustments);
            expect(written.filter((t) => t === 'StockMoved')).toHaveLength(counts[k]!.moves);
          }
        }),
        { numRuns: RUNS },
      );
      // Both kinds of outcome happened, so the property was tested on both.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
      expect(await verifyProjections(server.store.store)).toEqual([]);
    },
  );
});
