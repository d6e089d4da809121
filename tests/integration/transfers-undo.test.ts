// Undo of a transfer's steps through the API, as the activity log's Revert, an item history's
// Revert and a toast's Undo send it (POST /api/events/{eventId}/revert): a shipment (every
// unit back where it left, the transfer a draft again), a receipt (its units back in transit)
// and a write-off (its units in transit again). Each refusal changes nothing: a shipment of
// which something was received, a receipt whose location no longer holds its units, a step
// undone before (naming who undid it, also when two undos race), someone else's step without
// Revert changes, no right to update stock, a transfer's creation, an undo itself. The log and
// the items' histories say what was undone; on hand + in transit changes only by write-offs
// and their undoing; the projections match a replay of the log.
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

interface Entry {
  details: string;
  eventId: string;
  reverted: boolean;
  resourceType: string;
  eventType?: string;
}

describe.each(backends())('undo of a transfer step on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let otherStaff: TestAccount;
  let auditor: TestAccount;
  let categoryId: string;
  let n = 0;
  let keys = 0;

  const send = (account: TestAccount, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request(method, path, { token: account.idToken, body, headers });
  const ok = async (account: TestAccount, method: string, path: string, body?: unknown) => {
    const r = await send(account, method, path, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  async function newItem(units: Record<string, number>) {
    const [first, ...rest] = Object.entries(units);
    const item = await ok(manager, 'POST', '/api/inventory', {
      name: `Hose ${++n}`,
      sku: `UNDO-${n}-${backend.name}`,
      category_id: categoryId,
      quantity: first![1],
      price: 5,
      threshold: 0,
      location_id: first![0],
    });
    for (const [locationId, quantity] of rest)
      await ok(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: quantity, reason: 'restock', locationId });
    return item as { id: string; name: string };
  }
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
  const draft = async (lines: Array<{ itemId: string; fromLocationId: string; quantity: number }>) =>
    (await ok(staff, 'POST', '/api/transfers', { fromSiteId: WAREHOUSE_SITE_ID, toSiteId: MAIN_SITE_ID, lines })) as {
      id: string;
      number: number;
    };
  /** A step sent with its own Idempotency-Key, as the transfer page sends it; answers the key. */
  async function step(account: TestAccount, path: string, body?: unknown): Promise<string> {
    const key = `undo-test-${backend.name}-${++keys}`;
    const r = await send(account, 'POST', path, body, { 'idempotency-key': key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return key;
  }
  /** The change a write made, as the toast's Undo finds it. */
  const changeOf = async (account: TestAccount, key: string) =>
    (await ok(account, 'GET', `/api/history/change-of-write?key=${key}`)) as { eventId: string; type: string };
  const undo = (account: TestAccount, eventId: string, reason = 'Undo') =>
    send(account, 'POST', `/api/events/${eventId}/revert`, { reason });
  /** The log's entries about this transfer, oldest first. */
  async function logOf(number: number): Promise<Entry[]> {
    const log = await ok(manager, 'GET', '/api/activity?limit=100');
    return (log.entries as Entry[]).filter((e) => e.details.includes(`transfer #${number}`)).reverse();
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedPlaces(server.store.store);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Sid Staff');
    otherStaff = await accountWithRole(server, 'staff', 'Pat Porter');
    categoryId = (await ok(manager, 'POST', '/api/categories', { name: `Hoses ${backend.name}` })).id;
    const role = await ok(manager, 'POST', '/api/roles', {
      name: `Auditor ${backend.name}`,
      description: 'Reverts, never moves stock',
      permissions: ['inventory:view', 'changes:revert'],
    });
    auditor = await accountWithRole(server, role.id, 'Ada Auditor');
  });
  afterAll(() => server.close());

  it("undoes a shipment from the toast's Undo: every unit back where it left, a draft again to ship again or cancel", async () => {
    const hose = await newItem({ [DOCK]: 10, [BAY]: 2 });
    const tape = await newItem({ [BAY]: 6 });
    const transfer = await draft([
      { itemId: hose.id, fromLocationId: DOCK, quantity: 8 },
      { itemId: tape.id, fromLocationId: BAY, quantity: 6 },
    ]);
    const shipKey = await step(staff, `/api/transfers/${transfer.id}/ship`);
    expect(await whereIs(hose.id)).toEqual({ total: 4, inTransit: 8, levels: { [DOCK]: 2, [BAY]: 2 } });

    const change = await changeOf(staff, shipKey);
    expect(change.type).toBe('TransferShipped');
    const plan = await ok(staff, 'GET', `/api/events/${change.eventId}/revert`);
    expect(plan).toMatchObject({
      kind: 'transfer-shipment',
      resourceType: 'transfer',
      resourceId: transfer.id,
      resourceName: `Transfer #${transfer.number}`,
      summary: `Shipped transfer #${transfer.number}: 14 units in transit`,
      actor: { name: 'Sid Staff' },
      revertedBy: null,
      blocked: null,
    });
    // Someone else's step: not without Revert changes.
    expect(await undo(otherStaff, change.eventId)).toMatchObject({
      status: 403,
      body: { error: "You don't have permission to revert changes" },
    });
    const undone = await undo(staff, change.eventId);
    expect(undone.status, JSON.stringify(undone.body)).toBe(201);
    expect(undone.body).toMatchObject({
      resourceType: 'transfer',
      resourceId: transfer.id,
      summary: `Shipped transfer #${transfer.number}: 14 units in transit`,
    });
    expect(undone.body.reverted).toContain(change.eventId);

    const after = await ok(staff, 'GET', `/api/transfers/${transfer.id}`);
    expect(after).toMatchObject({
      status: 'draft',
      inTransit: 0,
      shippedAt: null,
      lines: [
        { quantity: 8, received: 0, inTransit: 0 },
        { quantity: 6, received: 0, inTransit: 0 },
      ],
    });
    expect(await whereIs(hose.id)).toEqual({ total: 12, inTransit: 0, levels: { [DOCK]: 10, [BAY]: 2 } });
    expect(await whereIs(tape.id)).toEqual({ total: 6, inTransit: 0, levels: { [BAY]: 6 } });
    expect((await ok(staff, 'GET', `/api/transfers?status=draft`)).map((t: { id: string }) => t.id)).toContain(
      transfer.id,
    );

    // Undone once: a second undo names who undid it, and changes nothing.
    const before = await eventCount();
    const again = await undo(manager, change.eventId);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(
      new RegExp(`^The shipment of transfer #${transfer.number} was already undone by Sid Staff on \\d{4}-`),
    );
    expect(again.body.revertedBy).toMatchObject({ name: 'Sid Staff' });
    expect(await eventCount()).toBe(before);
    expect(await ok(manager, 'GET', `/api/events/${change.eventId}/revert`)).toMatchObject({
      revertedBy: { name: 'Sid Staff' },
      blocked: expect.stringMatching(/^Already undone by Sid Staff/),
    });

    // The log: the shipment marked reverted, its undoing said in words; the items' histories too.
    const log = await logOf(transfer.number);
    expect(log.map((e) => e.details)).toEqual([
      `Created transfer #${transfer.number} from Warehouse to Main store: 2 lines, 14 units, by Sid Staff`,
      `Shipped transfer #${transfer.number}: 14 units in transit, by Sid Staff`,
      `Undid the shipment of transfer #${transfer.number}: 14 units back on the shelves they left, by Sid Staff, why: Undo`,
    ]);
    expect(log.map((e) => e.reverted)).toEqual([false, true, false]);
    expect(log.map((e) => e.eventType)).toEqual(['TransferCreated', 'TransferShipped', 'TransferShipmentUndone']);
    const history = await ok(staff, 'GET', `/api/inventory/${hose.id}/history`);
    expect(history.slice(-2)).toEqual([
      expect.objectContaining({
        type: 'StockShipped',
        delta: -8,
        revertedBy: expect.objectContaining({ name: 'Sid Staff' }),
      }),
      expect.objectContaining({
        type: 'StockReceived',
        delta: 8,
        location: { id: DOCK, name: 'Dock' },
        transfer: { id: transfer.id, number: transfer.number, quantity: 8 },
        reverts: expect.objectContaining({ eventId: history.at(-2).eventId, reason: 'Undo' }),
      }),
    ]);

    // A draft again: shipped again, and that shipment is a step of its own to undo.
    const reshipKey = await step(staff, `/api/transfers/${transfer.id}/ship`);
    expect(await whereIs(tape.id)).toEqual({ total: 0, inTransit: 6, levels: {} });
    expect((await undo(staff, (await changeOf(staff, reshipKey)).eventId)).status).toBe(201);
    expect(await ok(staff, 'POST', `/api/transfers/${transfer.id}/cancel`, {})).toMatchObject({ status: 'cancelled' });
    expect(await whereIs(tape.id)).toEqual({ total: 6, inTransit: 0, levels: { [BAY]: 6 } });
  });

  it('refuses to undo a shipment of which units were received, until that receipt is undone', async () => {
    const hose = await newItem({ [DOCK]: 5 });
    const transfer = await draft([{ itemId: hose.id, fromLocationId: DOCK, quantity: 5 }]);
    const shipKey = await step(staff, `/api/transfers/${transfer.id}/ship`);
    const receiveKey = await step(staff, `/api/transfers/${transfer.id}/receive`, {
      toLocationId: BACK,
      lines: [{ itemId: hose.id, quantity: 2 }],
    });
    const shipment = (await changeOf(staff, shipKey)).eventId;
    const before = await eventCount();
    expect(await undo(staff, shipment)).toMatchObject({
      status: 409,
      body: {
        error: `Cannot undo: 2 units of transfer #${transfer.number} were received or written off since: undo those first`,
      },
    });
    expect(await ok(staff, 'GET', `/api/events/${shipment}/revert`)).toMatchObject({
      blocked: `Cannot undo: 2 units of transfer #${transfer.number} were received or written off since: undo those first`,
    });
    expect(await eventCount()).toBe(before);
    expect(await whereIs(hose.id)).toEqual({ total: 2, inTransit: 3, levels: { [BACK]: 2 } });

    expect((await undo(staff, (await changeOf(staff, receiveKey)).eventId)).status).toBe(201);
    expect(await ok(staff, 'GET', `/api/transfers/${transfer.id}`)).toMatchObject({
      status: 'shipped',
      received: 0,
      inTransit: 5,
    });
    expect((await undo(staff, shipment)).status).toBe(201);
    expect(await whereIs(hose.id)).toEqual({ total: 5, inTransit: 0, levels: { [DOCK]: 5 } });
  });

  it('undoes a receipt from its log entry: the units back in transit, refused while the location no longer holds them', async () => {
    const hose = await newItem({ [DOCK]: 8 });
    const tape = await newItem({ [BAY]: 3 });
    const transfer = await draft([
      { itemId: hose.id, fromLocationId: DOCK, quantity: 8 },
      { itemId: tape.id, fromLocationId: BAY, quantity: 3 },
    ]);
    await step(staff, `/api/transfers/${transfer.id}/ship`);
    await step(staff, `/api/transfers/${transfer.id}/receive`, {
      toLocationId: BACK,
      lines: [
        { itemId: hose.id, quantity: 4 },
        { itemId: tape.id, quantity: 3 },
      ],
    });
    await step(staff, `/api/transfers/${transfer.id}/receive`, {
      toLocationId: SHELF,
      lines: [{ itemId: hose.id, quantity: 4 }],
    });
    expect(await ok(staff, 'GET', `/api/transfers/${transfer.id}`)).toMatchObject({ status: 'received', inTransit: 0 });
    // 3 of the 4 hoses received at Back room were sold since.
    await ok(staff, 'POST', `/api/inventory/${hose.id}/adjust`, { delta: -3, reason: 'sale', locationId: BACK });
    const entry = (await logOf(transfer.number)).find((e) => e.details.startsWith('Received 7 units'))!;
    expect(entry.eventType).toBe('TransferReceived');

    const before = await eventCount();
    expect(await undo(manager, entry.eventId)).toMatchObject({
      status: 409,
      body: { error: `Cannot undo: ${hose.name} has 1 at Back room now; 4 to take back into transit` },
    });
    expect(await eventCount()).toBe(before);
    expect(await whereIs(tape.id)).toEqual({ total: 3, inTransit: 0, levels: { [BACK]: 3 } });

    // The hoses come back to Back room: the receipt can be undone, by a manager, with why.
    await ok(staff, 'POST', `/api/inventory/${hose.id}/adjust`, { delta: 3, reason: 'correction', locationId: BACK });
    const undone = await undo(manager, entry.eventId, 'counted at the wrong shop');
    expect(undone.status, JSON.stringify(undone.body)).toBe(201);
    expect(await ok(staff, 'GET', `/api/transfers/${transfer.id}`)).toMatchObject({
      status: 'partly-received',
      received: 4,
      inTransit: 7,
      closedAt: null,
      lines: [
        { received: 4, inTransit: 4 },
        { received: 0, inTransit: 3 },
      ],
    });
    expect(await whereIs(hose.id)).toEqual({ total: 4, inTransit: 4, levels: { [SHELF]: 4 } });
    expect(await whereIs(tape.id)).toEqual({ total: 0, inTransit: 3, levels: {} });
    const log = await logOf(transfer.number);
    expect(log.at(-1)!.details).toBe(
      `Undid the receipt of 7 units of transfer #${transfer.number} at Back room: back in transit, 7 in all, by Mona Manager, why: counted at the wrong shop`,
    );
    expect(log.find((e) => e.eventId === entry.eventId)!.reverted).toBe(true);
    // The items' history: the receipt reverted, by whom.
    const history = await ok(staff, 'GET', `/api/inventory/${tape.id}/history`);
    expect(history.at(-1)).toMatchObject({
      type: 'StockShipped',
      delta: -3,
      location: { id: BACK, name: 'Back room' },
      reverts: { reason: 'counted at the wrong shop' },
    });
    // The units arrive after all: received again.
    await ok(staff, 'POST', `/api/transfers/${transfer.id}/receive`, {
      toLocationId: SHELF,
      lines: [
        { itemId: hose.id, quantity: 4 },
        { itemId: tape.id, quantity: 3 },
      ],
    });
    expect(await whereIs(hose.id)).toEqual({ total: 8, inTransit: 0, levels: { [SHELF]: 8 } });
  });

  it("undoes a write-off of two lines from an item's history: the units in transit again", async () => {
    const hose = await newItem({ [DOCK]: 4 });
    const tape = await newItem({ [DOCK]: 2 });
    const transfer = await draft([
      { itemId: hose.id, fromLocationId: DOCK, quantity: 4 },
      { itemId: tape.id, fromLocationId: DOCK, quantity: 2 },
    ]);
    await step(staff, `/api/transfers/${transfer.id}/ship`);
    await step(staff, `/api/transfers/${transfer.id}/receive`, {
      toLocationId: BACK,
      lines: [{ itemId: hose.id, quantity: 1 }],
    });
    await step(staff, `/api/transfers/${transfer.id}/write-off`, {
      reason: 'van stolen',
      lines: [{ itemId: hose.id }, { itemId: tape.id }],
    });
    expect(await whereIs(hose.id)).toEqual({ total: 1, inTransit: 0, levels: { [BACK]: 1 } });
    const written = (await ok(staff, 'GET', `/api/inventory/${tape.id}/history`)).at(-1);
    expect(written).toMatchObject({ type: 'TransitWrittenOff' });
    expect(await ok(staff, 'GET', `/api/events/${written.eventId}/revert`)).toMatchObject({
      kind: 'transfer-write-off',
      summary: `Wrote off 3 ${hose.name} in transit on transfer #${transfer.number}, 2 still in transit, reason: van stolen; Wrote off 2 ${tape.name} in transit on transfer #${transfer.number}, reason: van stolen`,
      blocked: null,
    });
    expect((await undo(staff, written.eventId)).status).toBe(201);
    expect(await ok(staff, 'GET', `/api/transfers/${transfer.id}`)).toMatchObject({
      status: 'partly-received',
      received: 1,
      writtenOff: 0,
      inTransit: 5,
      closedAt: null,
    });
    // On hand + in transit back to what they were before the loss.
    expect(await whereIs(hose.id)).toEqual({ total: 1, inTransit: 3, levels: { [BACK]: 1 } });
    expect(await whereIs(tape.id)).toEqual({ total: 0, inTransit: 2, levels: {} });
    const log = await logOf(transfer.number);
    expect(log.slice(-2).map((e) => e.details)).toEqual([
      `Undid the write-off of 3 ${hose.name} on transfer #${transfer.number}: back in transit, 3 in all, by Sid Staff, why: Undo`,
      `Undid the write-off of 2 ${tape.name} on transfer #${transfer.number}: back in transit, 5 in all, by Sid Staff, why: Undo`,
    ]);
    expect(log.filter((e) => e.eventType === 'TransferLineWrittenOff').map((e) => e.reverted)).toEqual([true, true]);
    // The units can be received now.
    await ok(staff, 'POST', `/api/transfers/${transfer.id}/receive`, {
      toLocationId: BACK,
      lines: [{ itemId: tape.id, quantity: 2 }],
    });
    expect(await whereIs(tape.id)).toEqual({ total: 2, inTransit: 0, levels: { [BACK]: 2 } });
  });

  it('refuses an undo without the right to update stock, of a creation or of an undo, and answers two racing undos once', async () => {
    const hose = await newItem({ [DOCK]: 3 });
    const transfer = await draft([{ itemId: hose.id, fromLocationId: DOCK, quantity: 3 }]);
    const shipKey = await step(staff, `/api/transfers/${transfer.id}/ship`);
    const shipment = (await changeOf(staff, shipKey)).eventId;
    const before = await eventCount();
    // Revert changes, but not Update stock levels: not at the site the units go back to.
    expect(await undo(auditor, shipment)).toMatchObject({
      status: 403,
      body: { error: "You don't have permission to update stock levels at Warehouse" },
    });
    const created = (await logOf(transfer.number)).find((e) => e.eventType === 'TransferCreated')!;
    expect(await undo(manager, created.eventId)).toMatchObject({
      status: 422,
      body: { error: "A transfer's creation is not undone: cancel the draft instead" },
    });
    expect(await eventCount()).toBe(before);

    const [first, second] = await Promise.all([undo(staff, shipment), undo(manager, shipment)]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const refused = first.status === 409 ? first : second;
    const winner = first.status === 201 ? 'Sid Staff' : 'Mona Manager';
    expect(refused.body.error).toMatch(new RegExp(`already undone by ${winner} on`));
    expect(await whereIs(hose.id)).toEqual({ total: 3, inTransit: 0, levels: { [DOCK]: 3 } });

    const undoing = (await logOf(transfer.number)).find((e) => e.eventType === 'TransferShipmentUndone')!;
    expect(await undo(manager, undoing.eventId)).toMatchObject({
      status: 422,
      body: {
        error: "An undo of a transfer's step is not undone in turn: ship, receive or write off the transfer again",
      },
    });
    const itemUndo = (await ok(staff, 'GET', `/api/inventory/${hose.id}/history`)).at(-1);
    expect((await undo(manager, itemUndo.eventId)).status).toBe(422);
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
    const negative = await sql`select * from stock_levels where quantity < 0`.execute(server.store.database.db);
    expect(negative.rows).toEqual([]);
  });
});
