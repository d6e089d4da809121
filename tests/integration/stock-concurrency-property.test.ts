// Stock per location under concurrent writers, as a property: several clients send random
// adjustments (at named locations, or without one: the site's default location), moves, and
// transfers between the two sites (drafted, shipped, received in part, written off in part,
// or cancelled when they cannot ship; and receipts of other clients' transfers, racing the
// owner's) over a few items and five locations in two sites, all at once over HTTP. Whatever
// the interleaving, every accepted request counts exactly once and every refused one changes
// nothing: each location ends at its start plus the accepted adjustments there, the moves in
// and out, the shipments out and the receipts in; each item's units in transit are its
// accepted shipments less its receipts and write-offs; its quantity on hand plus in transit
// moves by exactly its accepted adjustments less its write-offs; no location is ever below 0
// at any version of the item's stream, items.quantity is the sum of its stock_levels rows,
// and the projections match a replay of the log.
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
  | { kind: 'move'; item: number; from: number; to: number; quantity: number }
  | { kind: 'transfer'; items: number[]; from: number; to: number; quantity: number; receive: number; lose: number }
  | { kind: 'receive-any'; pick: number; to: number; quantity: number };

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
  // A transfer of one or two items from one location to the other site, as far as it gets:
  // shipped, `receive` of each line received, `lose` of each written off.
  fc.record({
    kind: fc.constant('transfer' as const),
    items: fc.uniqueArray(fc.nat(ITEMS - 1), { minLength: 1, maxLength: 2 }),
    from: fc.nat(PLACES.length - 1),
    to: fc.nat(PLACES.length - 1),
    quantity: fc.integer({ min: 1, max: 3 }),
    receive: fc.nat(3),
    lose: fc.nat(2),
  }),
  // A receipt of units of someone's shipped transfer (its first line), racing its owner's.
  fc.record({
    kind: fc.constant('receive-any' as const),
    pick: fc.nat(),
    to: fc.nat(PLACES.length - 1),
    quantity: fc.integer({ min: 1, max: 2 }),
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

  /** The item's levels as stock_levels holds them, its quantity (on hand) and its units in transit. */
  async function stored(id: string) {
    const db = server.store.database.db;
    const rows = await sql<{ location_id: string; quantity: number }>`select location_id::text as location_id, quantity
      from stock_levels where item_id = ${id}`.execute(db);
    const item = await sql<{ quantity: number; in_transit: number }>`select quantity, in_transit from items
      where id = ${id}`.execute(db);
    return {
      levels: Object.fromEntries(rows.rows.map((r) => [r.location_id, Number(r.quantity)])),
      quantity: Number(item.rows[0]!.quantity),
      inTransit: Number(item.rows[0]!.in_transit),
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
      let shipments = 0;
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

          // What each accepted request did, per item: units put at (+) or taken from (-) a
          // location, put in (+) or taken out of (-) transit, adjusted or lost, and its event.
          const effects = items.map(() => ({
            levels: {} as Record<string, number>,
            transit: 0,
            adjusted: 0,
            lost: 0,
            events: {} as Record<string, number>,
          }));
          const effect = (
            item: number,
            event: string,
            change: { at?: Array<[string, number]>; transit?: number; adjusted?: number; lost?: number },
          ) => {
            const e = effects[item]!;
            for (const [place, units] of change.at ?? []) e.levels[place] = (e.levels[place] ?? 0) + units;
            e.transit += change.transit ?? 0;
            e.adjusted += change.adjusted ?? 0;
            e.lost += change.lost ?? 0;
            e.events[event] = (e.events[event] ?? 0) + 1;
          };
          /** Shipped transfers anyone may receive from: their id, first line's item, and destination site. */
          const shipped: Array<{ id: string; item: number; toSite: string }> = [];
          const outcome = (status: number, body: unknown, ok: number) => {
            if (status === ok) {
              accepted += 1;
              return true;
            }
            // A refusal says why: below 0 there or not in transit (409), across sites (422), the same location twice (400).
            expect([400, 409, 422], JSON.stringify(body)).toContain(status);
            refused += 1;
            return false;
          };
          const siteOf = (place: number) => TEST_PLACES[place]!.siteId;
          /** A location of the site that is not `place`'s (the `to`th of them). */
          const elsewhere = (place: number, to: number) => {
            const there = TEST_PLACES.filter((p) => p.siteId !== siteOf(place));
            return there[to % there.length]!;
          };

          // All clients at once, each sending its requests in turn.
          await Promise.all(
            sends.map(async (ops, c) => {
              const account = accounts[c]!;
              for (const o of ops) {
                if (o.kind === 'adjust') {
                  const r = await post(account, `/api/inventory/${items[o.item]!.id}/adjust`, {
                    delta: o.delta,
                    reason: o.delta > 0 ? 'restock' : 'sale',
                    ...(o.place === null ? {} : { locationId: PLACES[o.place] }),
                  });
                  if (outcome(r.status, r.body, 200))
                    effect(o.item, 'StockAdjusted', {
                      at: [[o.place === null ? MAIN : PLACES[o.place]!, o.delta]],
                      adjusted: o.delta,
                    });
                } else if (o.kind === 'move') {
                  const r = await post(account, '/api/moves', {
                    itemId: items[o.item]!.id,
                    fromLocationId: PLACES[o.from],
                    toLocationId: PLACES[o.to],
                    quantity: o.quantity,
                  });
                  if (outcome(r.status, r.body, 200))
                    effect(o.item, 'StockMoved', {
                      at: [
                        [PLACES[o.from]!, -o.quantity],
                        [PLACES[o.to]!, o.quantity],
                      ],
                    });
                } else if (o.kind === 'transfer') {
                  const to = elsewhere(o.from, o.to);
                  const draft = await post(account, '/api/transfers', {
                    fromSiteId: siteOf(o.from),
                    toSiteId: to.siteId,
                    lines: o.items.map((i) => ({
                      itemId: items[i]!.id,
                      fromLocationId: PLACES[o.from],
                      quantity: o.quantity,
                    })),
                  });
                  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
                  const id = (draft.body as { id: string }).id;
                  const ship = await post(account, `/api/transfers/${id}/ship`, {});
                  if (!outcome(ship.status, ship.body, 200)) {
                    // Too little at the location: the draft is given up, and nothing moved.
                    expect((await post(account, `/api/transfers/${id}/cancel`, {})).status).toBe(200);
                    continue;
                  }
                  for (const i of o.items)
                    effect(i, 'StockShipped', { at: [[PLACES[o.from]!, -o.quantity]], transit: o.quantity });
                  shipped.push({ id, item: o.items[0]!, toSite: to.siteId });
                  shipments += 1;
                  const receive = Math.min(o.receive, o.quantity);
                  if (receive > 0) {
                    const r = await post(account, `/api/transfers/${id}/receive`, {
                      toLocationId: to.id,
                      lines: o.items.map((i) => ({ itemId: items[i]!.id, quantity: receive })),
                    });
                    if (outcome(r.status, r.body, 200))
                      for (const i of o.items)
                        effect(i, 'StockReceived', { at: [[to.id, receive]], transit: -receive });
                  }
                  if (o.lose > 0) {
                    const r = await post(account, `/api/transfers/${id}/write-off`, {
                      reason: 'lost on the way',
                      lines: o.items.map((i) => ({ itemId: items[i]!.id, quantity: o.lose })),
                    });
                    if (outcome(r.status, r.body, 200))
                      for (const i of o.items) effect(i, 'TransitWrittenOff', { transit: -o.lose, lost: o.lose });
                  }
                } else {
                  const target = shipped.length ? shipped[o.pick % shipped.length]! : null;
                  if (!target) continue;
                  const at = TEST_PLACES.filter((p) => p.siteId === target.toSite)[o.to % 2]!;
                  const r = await post(account, `/api/transfers/${target.id}/receive`, {
                    toLocationId: at.id,
                    lines: [{ itemId: items[target.item]!.id, quantity: o.quantity }],
                  });
                  if (outcome(r.status, r.body, 200))
                    effect(target.item, 'StockReceived', { at: [[at.id, o.quantity]], transit: -o.quantity });
                }
              }
            }),
          );

          for (const [k, item] of items.entries()) {
            const e = effects[k]!;
            for (const [place, units] of Object.entries(e.levels))
              item.expected[place] = (item.expected[place] ?? 0) + units;
            const after = await stored(item.id);
            expect(after.levels).toEqual(item.expected);
            expect(after.inTransit).toBe(before[k]!.inTransit + e.transit);
            // On hand + in transit: only adjustments and write-offs change it.
            expect(after.quantity + after.inTransit).toBe(
              before[k]!.quantity + before[k]!.inTransit + e.adjusted - e.lost,
            );
            expect(after.quantity).toBe(Object.values(after.levels).reduce((a, b) => a + b, 0));
            expect(after.inTransit).toBeGreaterThanOrEqual(0);
            const { versions, types } = await levelsAtEveryVersion(item.id);
            for (const levels of versions)
              for (const units of Object.values(levels)) expect(units).toBeGreaterThanOrEqual(0);
            expect(versions.at(-1)).toEqual(item.expected);
            // Exactly one event per accepted request and line (crossings aside), none for a refused one.
            const written = types.slice(versionsBefore[k]!.length);
            for (const type of ['StockAdjusted', 'StockMoved', 'StockShipped', 'StockReceived', 'TransitWrittenOff'])
              expect(
                written.filter((t) => t === type),
                type,
              ).toHaveLength(e.events[type] ?? 0);
          }
        }),
        // Interleavings are not replayed by a seed, so shrinking only re-runs other histories
        // until the test times out: the first failure is reported as it happened.
        { numRuns: RUNS, endOnFailure: true },
      );
      // Both kinds of outcome happened, so the property was tested on both; transfers shipped.
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
      expect(shipments).toBeGreaterThan(0);
      expect(await verifyProjections(server.store.store)).toEqual([]);
    },
  );
});
