// Stocktakes through the API: a count is compared with the stock the item had at
// the moment it was counted, so a sale recorded after that moment (even one that reached the
// server before the count did) is neither lost nor counted twice; counts that disagree are
// flagged; single lines and whole sessions are approved by managers only; a repeated
// submission with the same Idempotency-Key counts once; projections equal a replay.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { allowGuestSignIn } from '../helpers/guest-access.js';
import { signInAnonymously, type TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';

describe.each(backends())('stocktakes on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let n = 0;

  const call = async (
    account: TestAccount,
    method: string,
    path: string,
    body?: unknown,
    status?: number,
    headers?: Record<string, string>,
  ) => {
    const r = await server.request(method, path, { token: account.idToken, body, headers });
    if (status !== undefined) expect(r.status, JSON.stringify(r.body)).toBe(status);
    else expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newCategory = async () =>
    (await call(manager, 'POST', '/api/categories', { name: `Shelf ${++n} ${backend.name}` })).id as string;
  const newItem = async (categoryId: string, quantity = 10, price = 4) =>
    call(manager, 'POST', '/api/inventory', {
      name: `Thing ${++n}`,
      sku: `ST-${n}-${backend.name}`,
      category_id: categoryId,
      quantity,
      price,
      threshold: 0,
    });
  const quantityOf = async (id: string) => (await call(manager, 'GET', `/api/inventory/${id}`)).quantity as number;
  const sell = (id: string, units: number) =>
    call(staff, 'POST', `/api/inventory/${id}/adjust`, { delta: -units, reason: 'sale' });
  const startFor = (categoryId: string) =>
    call(manager, 'POST', '/api/stocktakes', { scope: 'category', categoryId }, 201);
  const count = (id: string, itemId: string, counted: number, countedAt: Date, who = staff, status = 201) =>
    call(who, 'POST', `/api/stocktakes/${id}/counts`, { itemId, counted, countedAt: countedAt.toISOString() }, status, {
      'idempotency-key': randomUUID(),
    });
  const lineOf = (session: any, itemId: string) => session.lines.find((l: any) => l.itemId === itemId);

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
  });
  afterAll(() => server.close());

  it('compares a count with the stock at its moment: a sale recorded after it (submitted before it) stays counted once', async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId, 10, 2.5);
    const session = await startFor(categoryId);
    expect(session).toMatchObject({ scope: 'category', status: 'open', toCount: 1, counted: 0 });

    // Counted 8 at T on a phone with no signal; a sale of 2 is recorded after T, and reaches
    // the server before the count does.
    const T = new Date();
    const sold = await sell(item.id, 2);
    expect(new Date(sold.updatedAt).getTime()).toBeGreaterThan(T.getTime());
    await count(session.id, item.id, 8, T);

    const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
    expect(shown).toMatchObject({ counted: 1, toCount: 1, conflicts: 0 });
    expect(lineOf(shown, item.id)).toMatchObject({
      status: 'counted',
      expected: 10,
      counted: 8,
      difference: -2,
      value: -5,
    });
    expect(shown.totals).toEqual({ expected: 10, counted: 8, difference: -2, value: -5 });
    // Nothing posts before approval.
    expect(await quantityOf(item.id)).toBe(8);

    const approved = await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect(approved).toMatchObject({ status: 'closed', approved: 1 });
    expect(lineOf(approved, item.id)).toMatchObject({ status: 'approved', difference: -2 });
    expect(await quantityOf(item.id)).toBe(6);

    // An ordinary `count` adjustment, in the item's history, saying where it came from.
    const history = await call(manager, 'GET', `/api/inventory/${item.id}/history`);
    const posted = history.filter((h: any) => h.type === 'StockAdjusted').at(-1);
    expect(posted).toMatchObject({ reason: 'count', delta: -2, actor: { name: 'Mona Manager' } });
    expect(posted.note).toMatch(/Stocktake Count: Shelf/);
    // The log says what the approval posted, line by line, and the adjustment it made.
    const log = (await call(manager, 'GET', `/api/activity?limit=20`)).entries.map((e: any) => e.details);
    expect(log).toContain(
      `Approved stocktake ${session.name}: ${item.name} -2, counted by Stan Staff, by Mona Manager`,
    );
    expect(log).toContain(`-2 (count) ${item.name}, counted by Stan Staff, by Mona Manager, note: ${posted.note}`);
    expect(log).toContain(`Closed stocktake ${session.name} (1 line approved), by Mona Manager`);

    // A closed session takes no more counts (an offline phone replaying late gets a 409).
    await count(session.id, item.id, 5, new Date(), staff, 409);
  });

  it('takes an offline sale made before the count but sent after it as already on the shelf', async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId, 10);
    const session = await startFor(categoryId);
    // Counted 8 at T; a phone sold 2 at T-5min with no signal and its outbox sends the sale
    // (with the moment it was made) after the count was recorded: the count already saw it.
    const T = new Date();
    await count(session.id, item.id, 8, T);
    const sale = { delta: -2, reason: 'sale', occurredAt: new Date(T.getTime() - 5 * 60_000).toISOString() };
    const sold = await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, sale, 200, {
      'idempotency-key': randomUUID(),
    });
    expect(sold.quantity).toBe(8);
    expect(new Date(sold.updatedAt).getTime()).toBeGreaterThan(T.getTime());

    const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
    expect(lineOf(shown, item.id)).toMatchObject({
      status: 'counted',
      expected: 8,
      counted: 8,
      difference: 0,
      value: 0,
    });
    const approved = await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect(lineOf(approved, item.id)).toMatchObject({ status: 'approved', expected: 8, difference: 0 });
    expect(await quantityOf(item.id)).toBe(8);

    // The moment is checked: not older than a week, a date-time. A device clock running ahead
    // never costs the sale: it counts as made when recorded.
    const refuse = (occurredAt: string, status: number) =>
      call(staff, 'POST', `/api/inventory/${item.id}/adjust`, { delta: -1, reason: 'sale', occurredAt }, status);
    expect((await refuse(new Date(Date.now() - 8 * 86_400_000).toISOString(), 422)).error).toMatch(/7 days/);
    await refuse('yesterday', 400);
    expect(await quantityOf(item.id)).toBe(8);
    const ahead = await call(
      staff,
      'POST',
      `/api/inventory/${item.id}/adjust`,
      { delta: -1, reason: 'sale', occurredAt: new Date(Date.now() + 10 * 60_000).toISOString() },
      200,
    );
    expect(ahead.quantity).toBe(7);
  });

  it('takes a sale recorded before the count into the expected quantity', async () => {
    const categoryId = await newCategory();
    const [a, b] = [await newItem(categoryId), await newItem(categoryId)];
    const session = await startFor(categoryId);
    await sell(a.id, 2);
    await sell(b.id, 2);
    const T = new Date();
    await count(session.id, a.id, 8, T); // right: the sale is in the count
    await count(session.id, b.id, 7, T); // one missing
    const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
    expect(lineOf(shown, a.id)).toMatchObject({ expected: 8, counted: 8, difference: 0 });
    expect(lineOf(shown, b.id)).toMatchObject({ expected: 8, counted: 7, difference: -1, value: -4 });
    expect(shown.totals).toEqual({ expected: 16, counted: 15, difference: -1, value: -4 });
    await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect([await quantityOf(a.id), await quantityOf(b.id)]).toEqual([8, 7]);
  });

  it('flags an item counted twice with different numbers; approves single lines; only managers approve', async () => {
    const categoryId = await newCategory();
    const [a, b, c] = [await newItem(categoryId), await newItem(categoryId), await newItem(categoryId)];
    const session = await startFor(categoryId);
    const T = new Date();
    const first = await count(session.id, a.id, 9, T, staff);
    const second = await count(session.id, a.id, 7, T, manager);
    await count(session.id, b.id, 12, T);
    // The same number twice is no conflict.
    await count(session.id, c.id, 10, T);
    await count(session.id, c.id, 10, T, manager);

    const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
    expect(shown).toMatchObject({ toCount: 3, counted: 3, conflicts: 1, approved: 0 });
    expect(lineOf(shown, a.id)).toMatchObject({ status: 'conflict', counted: null });
    expect(lineOf(shown, a.id).counts.map((k: any) => [k.counted, k.countedBy])).toEqual([
      [9, 'Stan Staff'],
      [7, 'Mona Manager'],
    ]);
    expect(lineOf(shown, c.id)).toMatchObject({ status: 'counted', difference: 0 });
    // The list says the same, summed in one statement.
    const listed = (await call(staff, 'GET', '/api/stocktakes')).stocktakes.find((s: any) => s.id === session.id);
    expect(listed).toMatchObject({ toCount: 3, counted: 3, conflicts: 1, approved: 0, status: 'open' });

    // Staff count blind and cannot approve or start.
    const asStaff = await call(staff, 'GET', `/api/stocktakes/${session.id}`);
    expect(asStaff.showsVariance).toBe(false);
    expect(lineOf(asStaff, b.id)).toMatchObject({ counted: 12, expected: null, difference: null, value: null });
    const refused = await call(staff, 'POST', `/api/stocktakes/${session.id}/lines/${b.id}/approve`, {}, 403);
    expect(refused.error).toBe("You don't have permission to run stocktakes");
    await call(staff, 'POST', `/api/stocktakes/${session.id}/approve`, {}, 403);
    await call(staff, 'POST', '/api/stocktakes', { scope: 'store' }, 403);

    // Approve all waits for the conflict; a single line goes through alone.
    const all = await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {}, 409);
    expect(all.error).toMatch(/Counted twice with different numbers: Thing/);
    await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${a.id}/approve`, {}, 409);
    const one = await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${b.id}/approve`, {});
    expect(one).toMatchObject({ status: 'open', approved: 1 });
    expect(
      (await call(manager, 'GET', '/api/stocktakes')).stocktakes.find((s: any) => s.id === session.id),
    ).toMatchObject({ approved: 1, conflicts: 1 });
    expect([await quantityOf(a.id), await quantityOf(b.id), await quantityOf(c.id)]).toEqual([10, 12, 10]);
    await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${b.id}/approve`, {}, 409);
    await count(session.id, b.id, 11, new Date(), staff, 409);

    // The manager picks the second count of the disputed item.
    const picked = await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${a.id}/approve`, {
      countId: second.id,
    });
    expect(lineOf(picked, a.id)).toMatchObject({ status: 'approved', counted: 7, difference: -3 });
    expect(first.id).not.toBe(second.id);
    expect(await quantityOf(a.id)).toBe(7);
  });

  it('sends counting staff progress and counts live but never an expected quantity; guests get no stocktake events', async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId, 10);
    const staffFeed = await connectFeed(server.url, { token: staff.idToken });
    await allowGuestSignIn(server);
    const guestFeed = await connectFeed(server.url, { token: (await signInAnonymously()).idToken });
    try {
      await Promise.all(
        [staffFeed, guestFeed].map((f) => f.waitFor((m) => m.some((x) => x.type === 'hello'), 20_000, 'hello')),
      );
      const session = await startFor(categoryId);
      await count(session.id, item.id, 7, new Date());
      await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${item.id}/approve`, {});
      const stream = `stocktake-${session.id}`;
      const seen = await staffFeed.waitForMatching((e) => e.stream === stream, 2);
      await staffFeed.waitForMatching((e) => e.stream === stream && e.type === 'StocktakeLinesApproved');
      expect(seen.map((e) => e.event.type).slice(0, 2)).toEqual(['StocktakeStarted', 'StockCounted']);
      // The approval's own adjustment (item stream, same commit) closes what each feed gets.
      const posted = (e: { stream: string; type: string }) =>
        e.stream === `item-${item.id}` && e.type === 'StockAdjusted';
      await staffFeed.waitForMatching(posted);
      await guestFeed.waitForMatching(posted);
      const staffSees = staffFeed.events().filter((e) => e.event.stream === stream);
      for (const e of staffSees) expect(JSON.stringify(e.event.data)).not.toMatch(/expected|difference|delta|value/i);
      const note = staffFeed.events().find((e) => posted(e.event))!.event.data as { note: string };
      expect(note.note).toMatch(/counted 7/);
      expect(note.note).not.toMatch(/expected/);
      expect(guestFeed.events().filter((e) => e.event.streamType === 'stocktake')).toEqual([]);
      // The manager still sees what was posted against what.
      const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
      expect(lineOf(shown, item.id)).toMatchObject({
        status: 'approved',
        counted: 7,
        expected: 10,
        difference: -3,
        value: -12,
      });
      expect(await quantityOf(item.id)).toBe(7);
    } finally {
      await Promise.all([staffFeed.close(), guestFeed.close()]);
    }
  });

  it('applies a count submitted twice with one Idempotency-Key once', async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId);
    const session = await startFor(categoryId);
    const body = { itemId: item.id, counted: 4, countedAt: new Date().toISOString() };
    const headers = { 'idempotency-key': `count-${randomUUID()}` };
    const send = () =>
      server.request('POST', `/api/stocktakes/${session.id}/counts`, { token: staff.idToken, body, headers });
    const [x, y] = await Promise.all([send(), send()]);
    const z = await send();
    expect([x.status, y.status, z.status]).toEqual([201, 201, 201]);
    expect(new Set([x.body.id, y.body.id, z.body.id]).size).toBe(1);
    const shown = await call(manager, 'GET', `/api/stocktakes/${session.id}`);
    expect(lineOf(shown, item.id).counts).toHaveLength(1);
    await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect(await quantityOf(item.id)).toBe(4);
  });

  it('refuses counts from the future, of other items, and bodies that do not fit', async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId);
    const stranger = await newItem(await newCategory());
    const session = await startFor(categoryId);
    const future = await count(session.id, item.id, 3, new Date(Date.now() + 10 * 60_000), staff, 422);
    expect(future.error).toMatch(/future/);
    expect((await count(session.id, stranger.id, 3, new Date(), staff, 422)).error).toBe(
      'This item is not part of this stocktake',
    );
    const extra = await call(
      staff,
      'POST',
      `/api/stocktakes/${session.id}/counts`,
      { itemId: item.id, counted: 1, countedAt: new Date().toISOString(), note: 'x' },
      400,
    );
    expect(extra.error).toBe('Unknown field: note');
    await call(staff, 'GET', `/api/stocktakes/${randomUUID()}`, undefined, 404);
    await count(randomUUID(), item.id, 3, new Date(), staff, 404);

    // Sessions and counts are in the activity log; every projection equals a replay of the events.
    const log = await call(manager, 'GET', '/api/activity?q=stocktake');
    expect(log.entries.map((e: any) => e.details)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Started stocktake Count: Shelf .*: 1 item to count, by Mona Manager$/),
      ]),
    );
    const counted = await call(manager, 'GET', '/api/activity?q=Counted');
    // (Approvals say "counted by" too: the newest count's entry is the first that starts so.)
    expect(counted.entries.find((e: any) => e.details.startsWith('Counted')).details).toMatch(
      /^Counted Thing \d+: \d+ \(stocktake Count: Shelf .*\), by Stan Staff$/,
    );
    // The activity filter knows the stocktake entries' own resource type.
    const stocktakes = await call(manager, 'GET', '/api/activity?resourceType=stocktake');
    expect(stocktakes.entries.length).toBeGreaterThan(0);
    expect(new Set(stocktakes.entries.map((e: any) => e.resourceType))).toEqual(new Set(['stocktake']));
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it('starts counts of some items or of the whole store, fixing the list when it starts', async () => {
    const categoryId = await newCategory();
    const [a, b] = [await newItem(categoryId), await newItem(categoryId)];
    const some = await call(
      manager,
      'POST',
      '/api/stocktakes',
      { scope: 'items', itemIds: [b.id, a.id], name: '  Back shelf  ' },
      201,
    );
    expect(some).toMatchObject({ name: 'Back shelf', scope: 'items', toCount: 2 });
    expect(some.lines.map((l: any) => l.itemId).sort()).toEqual([a.id, b.id].sort());
    const everything = await call(manager, 'POST', '/api/stocktakes', { scope: 'store' }, 201);
    const total = (await call(manager, 'GET', '/api/inventory?limit=500')).length;
    expect(everything).toMatchObject({ name: 'Count: whole store', toCount: total });
    // An item added later is not on a list already started.
    const late = await newItem(categoryId);
    expect((await call(manager, 'GET', `/api/stocktakes/${everything.id}`)).toCount).toBe(total);
    expect((await count(everything.id, late.id, 1, new Date(), staff, 422)).error).toBe(
      'This item is not part of this stocktake',
    );
    await call(manager, 'POST', '/api/stocktakes', { scope: 'category' }, 400);
    await call(manager, 'POST', '/api/stocktakes', { scope: 'items', itemIds: [randomUUID()] }, 400);
  });

  it('lets a custom role with Run stocktakes start, see the variance and approve', async () => {
    const role = await call(manager, 'POST', '/api/roles', {
      name: `Shift lead ${backend.name}`,
      description: 'Runs the weekly count',
      permissions: ['inventory:view', 'stock:update', 'stocktake:run'],
    });
    const lead = await accountWithRole(server, role.id, 'Lee Lead');
    const categoryId = await newCategory();
    const item = await newItem(categoryId);
    const session = await call(lead, 'POST', '/api/stocktakes', { scope: 'category', categoryId }, 201);
    await count(session.id, item.id, 12, new Date(), lead);
    expect(lineOf(await call(lead, 'GET', `/api/stocktakes/${session.id}`), item.id)).toMatchObject({
      expected: 10,
      difference: 2,
      value: 8,
    });
    await call(lead, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect(await quantityOf(item.id)).toBe(12);
  });

  it('lets a role that runs counts without counting list and see its sessions, but not count; a role with neither sees none', async () => {
    const auditor = await accountWithRole(
      server,
      (
        await call(manager, 'POST', '/api/roles', {
          name: `Auditor ${backend.name}`,
          description: 'Starts and approves counts others make',
          permissions: ['inventory:view', 'stocktake:run'],
        })
      ).id,
      'Ada Auditor',
    );
    const viewer = await accountWithRole(
      server,
      (
        await call(manager, 'POST', '/api/roles', {
          name: `Viewer ${backend.name}`,
          description: 'Looks only',
          permissions: ['inventory:view'],
        })
      ).id,
      'Vic Viewer',
    );
    const categoryId = await newCategory();
    const item = await newItem(categoryId);
    const session = await call(auditor, 'POST', '/api/stocktakes', { scope: 'category', categoryId }, 201);
    expect((await call(auditor, 'GET', '/api/stocktakes')).stocktakes.map((s: any) => s.id)).toContain(session.id);
    const refused = await call(
      auditor,
      'POST',
      `/api/stocktakes/${session.id}/counts`,
      { itemId: item.id, counted: 9, countedAt: new Date().toISOString() },
      403,
    );
    expect(refused).toEqual({ error: "You don't have permission to update stock levels" });
    await count(session.id, item.id, 9, new Date());
    expect(lineOf(await call(auditor, 'GET', `/api/stocktakes/${session.id}`), item.id)).toMatchObject({
      expected: 10,
      difference: -1,
    });
    for (const path of ['/api/stocktakes', `/api/stocktakes/${session.id}`]) {
      expect(await call(viewer, 'GET', path, undefined, 403)).toEqual({
        error: "You don't have permission to update stock levels or run stocktakes",
      });
    }
  });

  it('counts at one location or a whole site: posting a count changes the stock at the counted location only', async () => {
    const place = async (name: string, parentId: string | null = null) =>
      (
        await call(
          manager,
          'POST',
          '/api/locations',
          { site_id: MAIN_SITE_ID, parent_id: parentId, name, code: `${name.replace(/\W/g, '')}-${++n}` },
          201,
        )
      ).id as string;
    const backRoom = await place(`Back room ${backend.name}`);
    const topShelf = await place('Top shelf', backRoom);
    const item = await newItem(await newCategory(), 10);
    await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
      delta: 6,
      reason: 'restock',
      locationId: backRoom,
    });
    const levels = async () =>
      Object.fromEntries(
        (await call(manager, 'GET', `/api/inventory/${item.id}/locations`)).locations.map(
          (l: { locationId: string; quantity: number }) => [l.locationId, l.quantity],
        ),
      );
    expect(await levels()).toMatchObject({ [MAIN_LOCATION_ID]: 10, [backRoom]: 6 });

    // The back room (with its shelf): the item's line is where it has stock there.
    const room = await call(
      manager,
      'POST',
      '/api/stocktakes',
      { scope: 'items', itemIds: [item.id], locationId: backRoom },
      201,
    );
    expect(room).toMatchObject({
      name: `Count: 1 item at Back room ${backend.name}`,
      siteId: MAIN_SITE_ID,
      locationId: backRoom,
      placeName: `Main store › Back room ${backend.name}`,
      toCount: 1,
    });
    expect(room.locations.map((l: { id: string }) => l.id)).toEqual([backRoom, topShelf]);
    expect(room.lines.map((l: any) => [l.locationId, l.locationName])).toEqual([
      [backRoom, `Back room ${backend.name}`],
    ]);
    // A count naming no location is at the counted location; Main location is not part of it.
    await count(room.id, item.id, 4, new Date());
    // A move after the count: the room held 6 when it was counted, whatever left it since.
    await call(staff, 'POST', '/api/moves', {
      itemId: item.id,
      fromLocationId: backRoom,
      toLocationId: MAIN_LOCATION_ID,
      quantity: 1,
    });
    const elsewhere = await call(
      staff,
      'POST',
      `/api/stocktakes/${room.id}/counts`,
      { itemId: item.id, locationId: MAIN_LOCATION_ID, counted: 1, countedAt: new Date().toISOString() },
      422,
    );
    expect(elsewhere).toEqual({ error: 'This location is not part of this stocktake' });
    // Found on the shelf inside the room, where it had none: the count opens a line there.
    await call(staff, 'POST', `/api/stocktakes/${room.id}/counts`, {
      itemId: item.id,
      locationId: topShelf,
      counted: 2,
      countedAt: new Date().toISOString(),
    });
    const counted = await call(manager, 'GET', `/api/stocktakes/${room.id}`);
    expect(counted.lines.map((l: any) => [l.locationName, l.expected, l.counted, l.difference])).toEqual([
      [`Back room ${backend.name}`, 6, 4, -2],
      [`Back room ${backend.name} › Top shelf`, 0, 2, 2],
    ]);
    await call(manager, 'POST', `/api/stocktakes/${room.id}/approve`, {});
    // Main location keeps its 11: counting the back room never changes another location.
    expect(await levels()).toMatchObject({ [MAIN_LOCATION_ID]: 11, [backRoom]: 3, [topShelf]: 2 });
    expect(await quantityOf(item.id)).toBe(16);

    // The whole site: a line at each location the item is at (by name); each line posts at its own.
    const site = await call(
      manager,
      'POST',
      '/api/stocktakes',
      { scope: 'items', itemIds: [item.id], siteId: MAIN_SITE_ID },
      201,
    );
    expect(site).toMatchObject({ locationId: null, placeName: 'Main store', toCount: 3 });
    expect(site.locations[0].id).toBe(MAIN_LOCATION_ID);
    const at = async (locationId: string, counted: number) =>
      call(staff, 'POST', `/api/stocktakes/${site.id}/counts`, {
        itemId: item.id,
        locationId,
        counted,
        countedAt: new Date().toISOString(),
      });
    await at(MAIN_LOCATION_ID, 7);
    await at(backRoom, 3);
    expect(await call(manager, 'POST', `/api/stocktakes/${site.id}/lines/${item.id}/approve`, {}, 422)).toMatchObject({
      error: 'This item is counted at several locations: say which line (locationId)',
    });
    const approved = await call(manager, 'POST', `/api/stocktakes/${site.id}/lines/${item.id}/approve`, {
      locationId: MAIN_LOCATION_ID,
    });
    expect(approved.lines.map((l: any) => [l.locationId, l.status, l.difference])).toEqual([
      [backRoom, 'counted', 0],
      [MAIN_LOCATION_ID, 'approved', -4],
      [topShelf, 'uncounted', null],
    ]);
    expect(await levels()).toMatchObject({ [MAIN_LOCATION_ID]: 7, [backRoom]: 3, [topShelf]: 2 });
    const list = (await call(manager, 'GET', '/api/stocktakes')).stocktakes;
    expect(list.find((s: any) => s.id === site.id)).toMatchObject({ placeName: 'Main store', counted: 2, approved: 1 });
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const docs = (await server.request('GET', '/api/docs/json')).body;
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining([
        '/api/stocktakes',
        '/api/stocktakes/{id}',
        '/api/stocktakes/{id}/counts',
        '/api/stocktakes/{id}/lines/{itemId}/approve',
        '/api/stocktakes/{id}/approve',
      ]),
    );
    const count = docs.paths['/api/stocktakes/{id}/counts'].post;
    expect(count.requestBody.content['application/json'].schema).toMatchObject({
      additionalProperties: false,
      required: ['itemId', 'counted', 'countedAt'],
    });
  });
});
