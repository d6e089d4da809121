// Transfers between sites through the API: a draft with lines, shipped (each line's units
// leave their location and are in transit), received in parts at a location of the
// destination site, the rest written off with a reason; a draft cancelled. Every refusal
// (more than the source location holds, more than is in transit, a location of the wrong
// site, archived places, the same site twice, unknown items, steps out of order, no rights)
// changes nothing. Items' quantity on hand + in transit changes only by write-offs; the list,
// the activity log and the item's history say what happened, a retried request with its
// Idempotency-Key ships once, and the projections match a replay of the log.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { seedPlaces, TEST_PLACES, WAREHOUSE_SITE_ID } from '../helpers/test-places.js';

const [, BACK, SHELF, DOCK, BAY] = TEST_PLACES.map((p) => p.id) as [string, string, string, string, string];
const NOWHERE = '00000000-0000-4000-8000-00000000beef';

describe.each(backends())('transfers between sites on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
  let categoryId: string;
  let n = 0;

  const send = (account: TestAccount, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(method, path, { token: account.idToken, body, headers });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const r = await send(account, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  /** An item with `units` at each location named (the first by its creation, the others by restocks). */
  async function newItem(units: Record<string, number>, threshold = 0) {
    const [first, ...rest] = Object.entries(units);
    const item = await ok(manager, 'POST', '/api/inventory', {
      name: `Crate ${++n}`,
      sku: `CRATE-${n}-${backend.name}`,
      category_id: categoryId,
      quantity: first![1],
      price: 5,
      threshold,
      location_id: first![0],
    });
    for (const [locationId, quantity] of rest)
      await ok(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: quantity, reason: 'restock', locationId });
    return item as { id: string; name: string };
  }
  /** Where the item is: its levels by location (0s left out), on hand and in transit. */
  async function whereIs(id: string) {
    const body = await ok(staff, 'GET', `/api/inventory/${id}/locations`);
    return {
      total: body.total as number,
      inTransit: body.inTransit as number,
      levels: Object.fromEntries(
        (body.locations as Array<{ locationId: string; quantity: number }>)
          .filter((l) => l.quantity !== 0)
          .map((l) => [l.locationId, l.quantity]),
      ),
    };
  }
  const eventCount = async () =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from events`.execute(server.store.database.db)).rows[0]!.n,
    );
  const draft = (lines: Array<{ itemId: string; fromLocationId: string; quantity: number }>, extra = {}) =>
    send(staff, 'POST', '/api/transfers', { fromSiteId: WAREHOUSE_SITE_ID, toSiteId: MAIN_SITE_ID, lines, ...extra });

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedPlaces(server.store.store);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Sid Staff');
    guest = await accountWithRole(server, 'guest');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Crates ${backend.name}` })).id;
  });
  afterAll(() => server.close());

  it('ships a draft into transit, receives part at the destination, writes off the rest; totals change only by the loss', async () => {
    const hose = await newItem({ [DOCK]: 10, [BAY]: 2 });
    const tape = await newItem({ [BAY]: 6 });
    const created = await draft(
      [
        { itemId: hose.id, fromLocationId: DOCK, quantity: 8 },
        { itemId: tape.id, fromLocationId: BAY, quantity: 6 },
      ],
      { note: 'for the spring window' },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const transfer = created.body;
    expect(transfer).toMatchObject({
      fromSiteId: WAREHOUSE_SITE_ID,
      fromSiteName: 'Warehouse',
      toSiteId: MAIN_SITE_ID,
      toSiteName: 'Main store',
      note: 'for the spring window',
      status: 'draft',
      lineCount: 2,
      units: 14,
      inTransit: 0,
      createdBy: 'Sid Staff',
      lines: [
        { itemId: hose.id, itemName: hose.name, fromLocationName: 'Dock', quantity: 8, inTransit: 0 },
        { itemId: tape.id, itemName: tape.name, fromLocationName: 'Bay 7', quantity: 6, inTransit: 0 },
      ],
    });
    expect(transfer.number).toBeGreaterThan(0);
    // A draft moves nothing.
    expect(await whereIs(hose.id)).toEqual({ total: 12, inTransit: 0, levels: { [DOCK]: 10, [BAY]: 2 } });

    const shipped = await ok(staff, 'POST', `/api/transfers/${transfer.id}/ship`);
    expect(shipped).toMatchObject({ status: 'shipped', inTransit: 14, lines: [{ inTransit: 8 }, { inTransit: 6 }] });
    expect(shipped.shippedAt).not.toBeNull();
    expect(await whereIs(hose.id)).toEqual({ total: 4, inTransit: 8, levels: { [DOCK]: 2, [BAY]: 2 } });
    expect(await whereIs(tape.id)).toEqual({ total: 0, inTransit: 6, levels: {} });
    expect((await ok(staff, 'GET', `/api/inventory/${hose.id}`)).quantity).toBe(4);

    const received = await ok(staff, 'POST', `/api/transfers/${transfer.id}/receive`, {
      toLocationId: BACK,
      lines: [{ itemId: hose.id, quantity: 5 }],
    });
    expect(received).toMatchObject({
      status: 'partly-received',
      received: 5,
      inTransit: 9,
      lines: [
        { received: 5, inTransit: 3 },
        { received: 0, inTransit: 6 },
      ],
    });
    expect(await whereIs(hose.id)).toEqual({ total: 9, inTransit: 3, levels: { [DOCK]: 2, [BAY]: 2, [BACK]: 5 } });
    // A second receipt, elsewhere at the site.
    await ok(staff, 'POST', `/api/transfers/${transfer.id}/receive`, {
      toLocationId: SHELF,
      lines: [
        { itemId: tape.id, quantity: 4 },
        { itemId: hose.id, quantity: 1 },
      ],
    });
    expect(await whereIs(tape.id)).toEqual({ total: 4, inTransit: 2, levels: { [SHELF]: 4 } });

    const closed = await ok(staff, 'POST', `/api/transfers/${transfer.id}/write-off`, {
      reason: 'fell off the van',
      lines: [{ itemId: hose.id }, { itemId: tape.id, quantity: 2 }],
    });
    expect(closed).toMatchObject({
      status: 'received',
      received: 10,
      writtenOff: 4,
      inTransit: 0,
      lines: [
        { received: 6, writtenOff: 2, inTransit: 0 },
        { received: 4, writtenOff: 2, inTransit: 0 },
      ],
    });
    expect(closed.closedAt).not.toBeNull();
    // On hand + in transit: 12 -> 10 for the hose, 6 -> 4 for the tape: only the write-off changed them.
    expect(await whereIs(hose.id)).toEqual({
      total: 10,
      inTransit: 0,
      levels: { [DOCK]: 2, [BAY]: 2, [BACK]: 5, [SHELF]: 1 },
    });
    expect(await whereIs(tape.id)).toEqual({ total: 4, inTransit: 0, levels: { [SHELF]: 4 } });

    // The item's history shows each step with where and which transfer.
    const history = await ok(staff, 'GET', `/api/inventory/${hose.id}/history`);
    expect(history.slice(-4)).toEqual([
      expect.objectContaining({
        type: 'StockShipped',
        delta: -8,
        location: { id: DOCK, name: 'Dock' },
        transfer: { id: transfer.id, number: transfer.number, quantity: 8 },
      }),
      expect.objectContaining({ type: 'StockReceived', delta: 5, location: { id: BACK, name: 'Back room' } }),
      expect.objectContaining({ type: 'StockReceived', delta: 1, location: { id: SHELF, name: 'Shelf A' } }),
      expect.objectContaining({
        type: 'TransitWrittenOff',
        note: 'fell off the van',
        transfer: { id: transfer.id, number: transfer.number, quantity: 2, reason: 'fell off the van' },
      }),
    ]);

    // The activity log has a sentence for each step.
    const log = await ok(manager, 'GET', '/api/activity?limit=50');
    const said = (log.entries as Array<{ details: string }>)
      .map((e) => e.details)
      .filter((d) => d.includes(`transfer #${transfer.number}`))
      .reverse();
    expect(said).toEqual([
      `Created transfer #${transfer.number} from Warehouse to Main store: 2 lines, 14 units, by Sid Staff, note: for the spring window`,
      `Shipped transfer #${transfer.number}: 14 units in transit, by Sid Staff`,
      `Received 5 units of transfer #${transfer.number} at Back room, 9 still in transit, by Sid Staff`,
      `Received 5 units of transfer #${transfer.number} at Shelf A, 4 still in transit, by Sid Staff`,
      `Wrote off 2 ${hose.name} in transit on transfer #${transfer.number}, 2 still in transit, by Sid Staff, reason: fell off the van`,
      `Wrote off 2 ${tape.name} in transit on transfer #${transfer.number}, by Sid Staff, reason: fell off the van`,
    ]);
  });

  it('refuses a draft that names the same site twice, unknown items, or locations of the wrong site or archived', async () => {
    const item = await newItem({ [DOCK]: 5 });
    const before = await eventCount();
    const line = { itemId: item.id, fromLocationId: DOCK, quantity: 1 };
    expect(await draft([line], { toSiteId: WAREHOUSE_SITE_ID })).toMatchObject({
      status: 400,
      body: { error: 'A transfer goes between two sites: within a site, move the stock instead', field: 'toSiteId' },
    });
    expect(await draft([{ ...line, itemId: NOWHERE }])).toMatchObject({
      status: 422,
      body: { error: `Item not found: ${NOWHERE}`, field: 'lines[0].itemId' },
    });
    expect(await draft([{ ...line, fromLocationId: BACK }])).toMatchObject({
      status: 422,
      body: { error: 'Back room is not at Warehouse', field: 'lines[0].fromLocationId' },
    });
    expect(await draft([{ ...line, fromLocationId: NOWHERE }])).toMatchObject({
      status: 422,
      body: { error: 'Location not found' },
    });
    expect(await draft([line], { toSiteId: NOWHERE })).toMatchObject({
      status: 422,
      body: { error: 'Site not found', field: 'toSiteId' },
    });
    expect(await draft([line, { ...line, fromLocationId: BAY }])).toMatchObject({
      status: 400,
      body: { error: `${item.name} is on more than one line: put all its units on one` },
    });
    // Schema refusals: no lines, a fraction, a field the API does not know.
    expect((await draft([])).status).toBe(400);
    expect((await draft([{ ...line, quantity: 1.5 }])).status).toBe(400);
    expect((await draft([line], { priority: 'high' })).status).toBe(400);
    expect(
      (
        await send(guest, 'POST', '/api/transfers', {
          fromSiteId: WAREHOUSE_SITE_ID,
          toSiteId: MAIN_SITE_ID,
          lines: [line],
        })
      ).status,
    ).toBe(403);

    // Archived: a location of the source site, the destination site.
    const closedLocation = await ok(manager, 'POST', '/api/locations', {
      site_id: WAREHOUSE_SITE_ID,
      name: `Old bay ${backend.name}`,
      code: 'OLD',
    });
    await ok(manager, 'POST', `/api/locations/${closedLocation.id}/archive`);
    expect(await draft([{ ...line, fromLocationId: closedLocation.id }])).toMatchObject({
      status: 409,
      body: { error: `Old bay ${backend.name} is archived: restore it to keep stock there` },
    });
    const shop = await ok(manager, 'POST', '/api/sites', { name: 'Shop 3', code: 'SHOP3', time_zone: 'Europe/Paris' });
    await ok(manager, 'POST', '/api/locations', { site_id: shop.id, name: 'Counter', code: 'CTR' });
    await ok(manager, 'POST', `/api/sites/${shop.id}/archive`);
    expect(await draft([line], { toSiteId: shop.id })).toMatchObject({
      status: 409,
      body: { error: 'Shop 3 is archived: restore it to send or receive stock there' },
    });
    // Nothing was written by any of them but the places' own changes (two archives, a site and two locations).
    expect(await eventCount()).toBe(before + 5);
    expect((await ok(staff, 'GET', `/api/transfers?siteId=${shop.id}`)).length).toBe(0);
  });

  it('refuses shipping more than the source location holds, receiving more than is in transit or at the wrong site, and steps out of order, with nothing changed', async () => {
    const item = await newItem({ [DOCK]: 3, [BAY]: 9 });
    const other = await newItem({ [DOCK]: 4 });
    const created = (
      await draft([
        { itemId: item.id, fromLocationId: DOCK, quantity: 5 },
        { itemId: other.id, fromLocationId: DOCK, quantity: 4 },
      ])
    ).body;
    const before = await eventCount();
    // 5 asked at Dock, 3 there (9 more at Bay 7 do not count): refused as a whole, the other line not shipped either.
    expect(await send(staff, 'POST', `/api/transfers/${created.id}/ship`)).toMatchObject({
      status: 409,
      body: { error: `Insufficient stock of ${item.name} at Dock: 3 there, 5 to ship`, itemId: item.id, available: 3 },
    });
    expect(await eventCount()).toBe(before);
    expect(await whereIs(other.id)).toEqual({ total: 4, inTransit: 0, levels: { [DOCK]: 4 } });
    // Receiving or writing off a draft: nothing is in transit yet.
    expect(
      await send(staff, 'POST', `/api/transfers/${created.id}/receive`, {
        toLocationId: BACK,
        lines: [{ itemId: other.id, quantity: 1 }],
      }),
    ).toMatchObject({ status: 409, body: { error: `Transfer #${created.number} has not been shipped yet` } });

    await ok(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 2, reason: 'restock', locationId: DOCK });
    await ok(staff, 'POST', `/api/transfers/${created.id}/ship`);
    const shippedEvents = await eventCount();
    const receive = (body: Record<string, unknown>) =>
      send(staff, 'POST', `/api/transfers/${created.id}/receive`, { toLocationId: BACK, ...body });
    expect(await receive({ lines: [{ itemId: item.id, quantity: 6 }] })).toMatchObject({
      status: 409,
      body: { error: `Only 5 units of ${item.name} are in transit on Transfer #${created.number}`, inTransit: 5 },
    });
    expect(await receive({ toLocationId: DOCK, lines: [{ itemId: item.id, quantity: 1 }] })).toMatchObject({
      status: 422,
      body: { error: 'Dock is not at Main store', field: 'toLocationId' },
    });
    expect(await receive({ lines: [{ itemId: NOWHERE, quantity: 1 }] })).toMatchObject({
      status: 422,
      body: { field: 'lines[0].itemId' },
    });
    const closedShelf = await ok(manager, 'POST', '/api/locations', {
      site_id: MAIN_SITE_ID,
      name: `Old shelf ${backend.name}`,
      code: 'OLDSH',
    });
    await ok(manager, 'POST', `/api/locations/${closedShelf.id}/archive`);
    expect(await receive({ toLocationId: closedShelf.id, lines: [{ itemId: item.id, quantity: 1 }] })).toMatchObject({
      status: 409,
      body: { error: `Old shelf ${backend.name} is archived: restore it to keep stock there` },
    });
    expect(
      await send(staff, 'POST', `/api/transfers/${created.id}/write-off`, {
        reason: 'lost',
        lines: [{ itemId: other.id, quantity: 5 }],
      }),
    ).toMatchObject({
      status: 409,
      body: { error: `Only 4 units of ${other.name} are in transit on Transfer #${created.number}` },
    });
    expect(
      (
        await send(staff, 'POST', `/api/transfers/${created.id}/write-off`, {
          reason: '',
          lines: [{ itemId: other.id }],
        })
      ).status,
    ).toBe(400);
    expect(await send(staff, 'POST', `/api/transfers/${created.id}/ship`)).toMatchObject({
      status: 409,
      body: { error: `Transfer #${created.number} was already shipped` },
    });
    expect(await send(staff, 'POST', `/api/transfers/${created.id}/cancel`)).toMatchObject({
      status: 409,
      body: {
        error: `Transfer #${created.number} was shipped: receive its units or write them off instead of cancelling`,
      },
    });
    // Deleting an item on its way is refused: it would arrive for nothing.
    expect(await send(manager, 'DELETE', `/api/inventory/${other.id}`)).toMatchObject({
      status: 409,
      body: { error: `${other.name} has 4 units in transit: receive or write them off first` },
    });
    expect(await eventCount()).toBe(shippedEvents + 2); // the archived shelf's creation and archive
    expect(await whereIs(item.id)).toEqual({ total: 9, inTransit: 5, levels: { [BAY]: 9 } });
    expect(
      (
        await send(guest, 'POST', `/api/transfers/${created.id}/receive`, {
          toLocationId: BACK,
          lines: [{ itemId: item.id, quantity: 1 }],
        })
      ).status,
    ).toBe(403);
    expect((await send(staff, 'POST', `/api/transfers/${NOWHERE}/ship`)).status).toBe(404);
    expect((await send(staff, 'GET', `/api/transfers/not-a-uuid`)).status).toBe(404);
  });

  it('cancels a draft, lists transfers by status and site, and ships once for a retried request', async () => {
    const item = await newItem({ [DOCK]: 6 });
    const cancelled = (await draft([{ itemId: item.id, fromLocationId: DOCK, quantity: 2 }])).body;
    expect(await ok(staff, 'POST', `/api/transfers/${cancelled.id}/cancel`, { reason: 'wrong shop' })).toMatchObject({
      status: 'cancelled',
    });
    expect(await send(staff, 'POST', `/api/transfers/${cancelled.id}/ship`)).toMatchObject({
      status: 409,
      body: { error: `Transfer #${cancelled.number} was cancelled` },
    });

    const sent = (await draft([{ itemId: item.id, fromLocationId: DOCK, quantity: 3 }])).body;
    const key = { 'idempotency-key': `ship-${sent.id}` };
    const [first, second] = await Promise.all([
      send(staff, 'POST', `/api/transfers/${sent.id}/ship`, undefined, key),
      send(staff, 'POST', `/api/transfers/${sent.id}/ship`, undefined, key),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toMatchObject({ id: sent.id, status: 'shipped', inTransit: 3 });
    expect(await whereIs(item.id)).toEqual({ total: 3, inTransit: 3, levels: { [DOCK]: 3 } });

    const ids = (list: Array<{ id: string }>) => list.map((t) => t.id);
    const inTransit = await ok(staff, 'GET', '/api/transfers?status=shipped');
    expect(ids(inTransit)).toContain(sent.id);
    expect(ids(inTransit)).not.toContain(cancelled.id);
    expect(ids(await ok(staff, 'GET', '/api/transfers?status=cancelled'))).toContain(cancelled.id);
    expect(ids(await ok(staff, 'GET', '/api/transfers?status=open'))).toContain(sent.id);
    expect(ids(await ok(staff, 'GET', '/api/transfers?status=in-transit'))).toContain(sent.id);
    const all = await ok(guest, 'GET', `/api/transfers?siteId=${MAIN_SITE_ID}`);
    expect(ids(all).slice(0, 2)).toEqual([sent.id, cancelled.id]);
    expect(all[0]).toMatchObject({ number: sent.number, status: 'shipped', inTransit: 3, lineCount: 1, units: 3 });
    expect((await send(staff, 'GET', '/api/transfers?status=lost')).status).toBe(400);
  });

  it('leaves every projection as a replay of the log makes it, each quantity the sum of its levels', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
    const unbalanced = await sql`select i.id from items i left join stock_levels s on s.item_id = i.id
      group by i.id having i.quantity <> coalesce(sum(s.quantity), 0)`.execute(server.store.database.db);
    expect(unbalanced.rows).toEqual([]);
    const transit = await sql`select i.id from items i
      where i.in_transit <> coalesce((select sum(l.quantity - l.received - l.written_off) from transfer_lines l
        join transfers t on t.id = l.transfer_id
        where l.item_id = i.id and t.status in ('shipped', 'partly-received')), 0)`.execute(server.store.database.db);
    expect(transit.rows).toEqual([]);
  });
});
