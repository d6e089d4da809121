// Who counted and who approved: when a manager keeps a staff member's count
// ("Keep 38") or approves it, the count stays the staff member's everywhere it is recorded (the
// session, the events, the item's history, the activity log) and the approval is the manager's;
// guests learn neither name. Also the scopes a count can now start on: several categories, and
// the items low on stock. On PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { signInAnonymously, type TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { splitStatements } from '../../server/db/migrate.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';

describe.each(backends())('stocktake attribution and scopes on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let other: TestAccount;
  let n = 0;

  const call = async (account: TestAccount, method: string, path: string, body?: unknown, status?: number) => {
    const r = await server.request(method, path, {
      token: account.idToken,
      body,
      headers: { 'idempotency-key': randomUUID() },
    });
    if (status !== undefined) expect(r.status, JSON.stringify(r.body)).toBe(status);
    else expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const newCategory = async (name = `Shelf ${++n} ${backend.name}`) =>
    (await call(manager, 'POST', '/api/categories', { name })).id as string;
  const newItem = async (categoryId: string, quantity = 40, threshold = 0) =>
    call(manager, 'POST', '/api/inventory', {
      name: `Thing ${++n}`,
      sku: `SA-${n}-${backend.name}`,
      category_id: categoryId,
      quantity,
      price: 2,
      threshold,
    });
  const count = (id: string, itemId: string, counted: number, who: TestAccount) =>
    call(who, 'POST', `/api/stocktakes/${id}/counts`, { itemId, counted, countedAt: new Date().toISOString() }, 201);
  const lineOf = (session: any, itemId: string) => session.lines.find((l: any) => l.itemId === itemId);
  const activity = async (q: string) =>
    (await call(manager, 'GET', `/api/activity?q=${encodeURIComponent(q)}`)).entries as any[];

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
    other = await accountWithRole(server, 'staff', 'Olga Other');
  });
  afterAll(() => server.close());

  it("keeping a staff member's count credits the count to them and the approval to the manager", async () => {
    const categoryId = await newCategory();
    const item = await newItem(categoryId, 40);
    const session = await call(manager, 'POST', '/api/stocktakes', { scope: 'category', categoryId }, 201);
    // Stan counts 38, then the manager counts 40: the counts disagree, and the manager keeps Stan's.
    const stans = await count(session.id, item.id, 38, staff);
    await count(session.id, item.id, 40, manager);
    const guestFeed = await connectFeed(server.url, { token: (await accountWithRole(server, 'guest')).idToken });
    try {
      await guestFeed.waitFor((m) => m.some((x) => x.type === 'hello'), 20_000, 'hello');
      const kept = await call(manager, 'POST', `/api/stocktakes/${session.id}/lines/${item.id}/approve`, {
        countId: stans.id,
      });

      // The session: the line's count is Stan's, its approval the manager's.
      expect(lineOf(kept, item.id)).toMatchObject({
        status: 'approved',
        counted: 38,
        difference: -2,
        countedBy: 'Stan Staff',
        approvedBy: 'Mona Manager',
      });
      expect(lineOf(await call(staff, 'GET', `/api/stocktakes/${session.id}`), item.id)).toMatchObject({
        countedBy: 'Stan Staff',
        approvedBy: 'Mona Manager',
      });

      // The item's history: a count by Stan, posted (approved) by the manager.
      const history = await call(manager, 'GET', `/api/inventory/${item.id}/history`);
      const posted = history.filter((h: any) => h.type === 'StockAdjusted').at(-1);
      expect(posted).toMatchObject({
        reason: 'count',
        delta: -2,
        countedBy: 'Stan Staff',
        actor: { name: 'Mona Manager', uid: manager.uid },
      });
      // Other adjustments name no counter.
      await call(manager, 'POST', `/api/inventory/${item.id}/adjust`, { delta: 1, reason: 'restock' });
      expect((await call(manager, 'GET', `/api/inventory/${item.id}/history`)).at(-1)).toMatchObject({
        reason: 'restock',
        countedBy: null,
      });

      // The events: the adjustment's actor approved it and its metadata names the counter; the
      // session's approval names the count's counter per line.
      const itemEvents = await server.store.store.readStream(`item-${item.id}`);
      const adjustment = itemEvents.find(
        (e) => e.type === 'StockAdjusted' && (e.data as { reason: string }).reason === 'count',
      )!;
      expect(adjustment.metadata.actor).toEqual({ uid: manager.uid, name: 'Mona Manager' });
      expect(adjustment.metadata.countedBy).toEqual({ uid: staff.uid, name: 'Stan Staff' });
      expect(JSON.stringify(adjustment.data)).not.toContain('Stan');
      const sessionEvents = await server.store.store.readStream(`stocktake-${session.id}`);
      const approval = sessionEvents.find((e) => e.type === 'StocktakeLinesApproved')!;
      expect(approval.metadata.actor.name).toBe('Mona Manager');
      expect(approval.data.lines).toEqual([
        expect.objectContaining({ countId: stans.id, countedBy: { uid: staff.uid, name: 'Stan Staff' } }),
      ]);

      // The activity log: the count is Stan's entry; the approval is the manager's and says whose count it kept.
      const counted = (await activity('Counted')).filter(
        (e) => e.resourceId === session.id && e.details.startsWith('Counted'),
      );
      expect(counted.map((e) => [e.details.replace(/ \(stocktake .*\), by /, ', by '), e.userName])).toEqual([
        [`Counted ${item.name}: 40, by Mona Manager`, 'Mona Manager'],
        [`Counted ${item.name}: 38, by Stan Staff`, 'Stan Staff'],
      ]);
      const approved = (await activity('Approved')).find((e) => e.resourceId === session.id);
      expect(approved).toMatchObject({
        userName: 'Mona Manager',
        details: `Approved stocktake ${session.name}: ${item.name} -2, counted by Stan Staff, by Mona Manager`,
      });
      // The adjustment it posted says both too.
      const postedEntry = (await activity(item.name)).find(
        (e) => e.resourceId === item.id && e.details.includes('(count)'),
      );
      expect(postedEntry).toMatchObject({
        userName: 'Mona Manager',
        details: `-2 (count) ${item.name}, counted by Stan Staff, by Mona Manager, note: ${posted.note}`,
      });

      // Guests see the history with no names, and the feed's adjustment carries none.
      const guest = await signInAnonymously();
      const asGuest = await server.request('GET', `/api/inventory/${item.id}/history`, { token: guest.idToken });
      expect(asGuest.status).toBe(200);
      const guestPosted = asGuest.body.filter((h: any) => h.reason === 'count').at(-1);
      expect(guestPosted).toMatchObject({ countedBy: 'Staff member', actor: { name: 'Staff member' } });
      const [frame] = await guestFeed.waitForMatching(
        (e) => e.stream === `item-${item.id}` && e.type === 'StockAdjusted' && (e.data as any).reason === 'count',
      );
      expect(JSON.stringify(frame)).not.toMatch(/Stan|Mona/);
    } finally {
      await guestFeed.close();
    }
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });

  it('approving all names every counter in the entry, and the migration fills stores written before', async () => {
    const categoryId = await newCategory();
    const [a, b, c] = [await newItem(categoryId, 10), await newItem(categoryId, 10), await newItem(categoryId, 10)];
    const session = await call(manager, 'POST', '/api/stocktakes', { scope: 'category', categoryId }, 201);
    await count(session.id, a.id, 9, staff);
    await count(session.id, b.id, 12, other);
    await count(session.id, c.id, 10, staff);
    const closed = await call(manager, 'POST', `/api/stocktakes/${session.id}/approve`, {});
    expect([a, b, c].map((i) => [lineOf(closed, i.id).countedBy, lineOf(closed, i.id).approvedBy])).toEqual([
      ['Stan Staff', 'Mona Manager'],
      ['Olga Other', 'Mona Manager'],
      ['Stan Staff', 'Mona Manager'],
    ]);
    const approved = (await activity('Approved')).find((e) => e.resourceId === session.id);
    expect(approved).toMatchObject({
      userName: 'Mona Manager',
      details: `Approved stocktake ${session.name}: ${a.name} -1, ${b.name} +2, ${c.name} ±0, counted by Olga Other, Stan Staff, by Mona Manager`,
    });
    const historyOf = async (id: string) =>
      (await call(manager, 'GET', `/api/inventory/${id}/history`)).filter((h: any) => h.reason === 'count');
    expect((await historyOf(b.id)).map((h: any) => [h.countedBy, h.actor.name])).toEqual([
      ['Olga Other', 'Mona Manager'],
    ]);
    // Counted right (c): nothing to post, nothing in its history.
    expect(await historyOf(c.id)).toEqual([]);

    // A store written before migration 020 had neither column filled: its fill gives what a replay gives.
    const db = server.store.database.db;
    await sql`update stocktake_counts set counted_by_uid = null`.execute(db);
    await sql`update stocktake_lines set approved_by = null`.execute(db);
    const fills = splitStatements(
      readFileSync(new URL('../../migrations/020_stocktake_attribution.sql', import.meta.url), 'utf8'),
    );
    for (const statement of fills.filter((s) => s.startsWith('update'))) await sql.raw(statement).execute(db);
    expect(await verifyProjections(server.store.store)).toEqual([]);
    expect(lineOf(await call(manager, 'GET', `/api/stocktakes/${session.id}`), b.id)).toMatchObject({
      countedBy: 'Olga Other',
      approvedBy: 'Mona Manager',
    });
  });

  it('starts a count of several categories, or of the items low on stock, and refuses bodies that do not fit', async () => {
    const [x, y, z] = [
      await newCategory(`Aisle X ${backend.name}`),
      await newCategory(`Aisle Y ${backend.name}`),
      await newCategory(),
    ];
    const [x1, y1] = [await newItem(x), await newItem(y)];
    await newItem(z);
    const several = await call(manager, 'POST', '/api/stocktakes', { scope: 'categories', categoryIds: [y, x] }, 201);
    expect(several).toMatchObject({
      scope: 'categories',
      name: `Count: Aisle X ${backend.name}, Aisle Y ${backend.name}`,
      toCount: 2,
    });
    expect(several.lines.map((l: any) => l.itemId).sort()).toEqual([x1.id, y1.id].sort());

    // Low stock as the alerts say it: at or below the threshold when the count starts.
    const low = await newItem(z, 2, 5);
    const edge = await newItem(z, 5, 5);
    await newItem(z, 6, 5);
    const lowCount = await call(manager, 'POST', '/api/stocktakes', { scope: 'low-stock' }, 201);
    expect(lowCount).toMatchObject({ scope: 'low-stock', name: 'Count: low stock' });
    const lowIds = lowCount.lines.map((l: any) => l.itemId);
    expect(lowIds).toEqual(expect.arrayContaining([low.id, edge.id]));
    const items = await call(manager, 'GET', '/api/inventory?limit=500');
    expect(lowIds.sort()).toEqual(
      items
        .filter((i: any) => i.quantity <= i.threshold)
        .map((i: any) => i.id)
        .sort(),
    );

    const refused = async (body: unknown, error: unknown) =>
      expect((await call(manager, 'POST', '/api/stocktakes', body, 400)).error).toEqual(error);
    await refused(
      { scope: 'categories' },
      'A count of several categories needs categoryIds (and no categoryId or itemIds)',
    );
    await refused(
      { scope: 'categories', categoryIds: [x], categoryId: x },
      'A count of several categories needs categoryIds (and no categoryId or itemIds)',
    );
    await refused({ scope: 'categories', categoryIds: [x, randomUUID()] }, 'categoryIds: Category not found');
    await refused(
      { scope: 'low-stock', categoryIds: [x] },
      'A low-stock count takes no categoryId, categoryIds or itemIds',
    );
    await refused(
      { scope: 'category', categoryId: x, categoryIds: [y] },
      'A category count needs categoryId (and no itemIds)',
    );
    await refused({ scope: 'aisles' }, expect.stringMatching(/scope/));
    expect(
      (await call(manager, 'POST', '/api/stocktakes', { scope: 'categories', categoryIds: [x, x] }, 400)).error,
    ).toMatch(/categoryIds/);
    expect(await verifyProjections(server.store.store)).toEqual([]);
  });
});
