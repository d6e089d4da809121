// Guest (anonymous) sign-in: anyone holding the public web API key can sign in
// anonymously, so a store starts with guests shut out, a manager switches them on in
// Settings, and even then guests never learn who the staff are and never take an export.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../shared/realtime.js';
import { splitStatements } from '../../server/db/migrate.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { SettingsService } from '../../server/accounts/settings/settings-service.js';
import { backends, openTestStore } from '../helpers/backends.js';
import { randomSuffix, signInAnonymously } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { eventCount, newMember, startSession, type SignedIn } from './accounts-fixtures.js';

const DISABLED = { error: 'Guest access is disabled' };
const NO_EXPORT = { error: "Guests can't export data" };

interface Operation {
  method: string;
  path: string;
  required: string[];
}

/** Every operation of the served OpenAPI document, so a route added later is covered too. */
function operations(server: TestServer): Operation[] {
  const doc = server.app.swagger() as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean }> }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      required: (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name),
    })),
  );
}

describe.each(backends())('guest sign-in on $name', (backend) => {
  let server: TestServer;
  let manager: SignedIn;
  let staff: SignedIn;
  let staffName: string;
  let itemId: string;
  let adjustEventId: string;
  const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

  /** A request path with its parameters filled in from this store. */
  const fill = (op: Operation) => {
    const values: Record<string, string> = {
      from: hourAgo(),
      streamId: `item-${itemId}`,
      version: '1',
      key: 'guest-probe',
      q: 'a',
    };
    const path = op.path.replace(/\{(\w+)\}/g, (_all, name: string) =>
      name === 'eventId' ? adjustEventId : name === 'code' ? '4006381333931' : itemId,
    );
    const query = op.required.map((name) => `${name}=${encodeURIComponent(values[name] ?? 'x')}`).join('&');
    return query ? `${path}?${query}` : path;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await newMember(server, { name: `Morgan Manager ${randomSuffix()}` });
    staffName = `Sam Staff ${randomSuffix()}`;
    staff = await newMember(server, { name: staffName });
    const category = await server.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Guest shelf' },
    });
    const item = await server.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: { name: 'Guest Lamp', sku: 'GL-1', category_id: category.body.id, quantity: 10, price: 4, threshold: 2 },
    });
    itemId = item.body.id;
    const adjusted = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: staff.idToken,
      body: { delta: -3, reason: 'sale' },
    });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(200);
    const log = await server.request('GET', '/api/activity', { token: manager.idToken });
    adjustEventId = log.body.entries.find((e: any) => e.userId === staff.uid).eventId;
  });
  afterAll(() => server?.close());

  it('is off by default: an anonymous sign-in gets 403 on every API route and on the live feed, and is not offered', async () => {
    expect((await server.request('GET', '/api/client-config')).body.guestSignIn).toBe(false);
    const anonymous = await signInAnonymously();
    const before = await eventCount(server);
    const signedIn = operations(server).filter(
      (op) => !['/api/health', '/api/client-config', '/api/ws'].includes(op.path),
    );
    expect(signedIn.length).toBeGreaterThan(40);
    for (const op of signedIn) {
      const body = ['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined;
      const res = await server.request(op.method, fill(op), { token: anonymous.idToken, body });
      expect([op.method, op.path, res.status, res.body]).toEqual([op.method, op.path, 403, DISABLED]);
    }
    const feed = await connectFeed(server.url, { token: anonymous.idToken });
    expect(await feed.closed).toEqual({ code: CLOSE_CODES.guestsDisabled, reason: 'Guest access is disabled' });
    expect(feed.events()).toEqual([]);
    expect(await eventCount(server)).toBe(before); // no guest account was registered
  });

  it('cannot be switched on by staff or by an anonymous sign-in', async () => {
    const anonymous = await signInAnonymously();
    const byStaff = await server.request('PUT', '/api/settings', { token: staff.idToken, body: { allowGuests: true } });
    expect([byStaff.status, byStaff.body]).toEqual([403, { error: "You don't have permission to manage settings" }]);
    const byGuest = await server.request('PUT', '/api/settings', {
      token: anonymous.idToken,
      body: { allowGuests: true },
    });
    expect([byGuest.status, byGuest.body]).toEqual([403, DISABLED]);
    expect((await server.request('GET', '/api/settings', { token: manager.idToken })).body.allowGuests).toBe(false);
  });

  describe('switched on by a manager', () => {
    let guest: SignedIn;
    beforeAll(async () => {
      const on = await server.request('PUT', '/api/settings', { token: manager.idToken, body: { allowGuests: true } });
      expect(on.body.allowGuests).toBe(true);
      guest = await startSession(server, await signInAnonymously());
    });

    it('offers guest sign-in, and the guest reads the inventory', async () => {
      expect((await server.request('GET', '/api/client-config')).body.guestSignIn).toBe(true);
      expect(guest.session.user).toMatchObject({ role: 'guest', provider: 'anonymous' });
      const items = await server.request('GET', '/api/inventory', { token: guest.idToken });
      expect(items.status).toBe(200);
      expect(JSON.stringify(items.body)).toContain('Guest Lamp');
    });

    it('shows the guest activity without staff names or uids, where the manager sees who', async () => {
      const managerView = await server.request('GET', '/api/activity', { token: manager.idToken });
      expect(managerView.body.entries.map((e: any) => e.userName)).toContain(staffName);
      const guestView = await server.request('GET', '/api/activity', { token: guest.idToken });
      expect(guestView.status).toBe(200);
      expect(guestView.body.entries.length).toBe(managerView.body.entries.length);
      for (const entry of guestView.body.entries)
        expect([entry.userName, entry.userId]).toEqual(['Staff member', null]);
      // The same sentences, "by Staff member" where the manager reads who it was.
      const anonymous = (entry: any) => entry.details.replace(`, by ${entry.userName}`, ', by Staff member');
      expect(guestView.body.entries.map((e: any) => e.details)).toEqual(managerView.body.entries.map(anonymous));
      expect(JSON.stringify(guestView.body)).not.toContain(staffName);
      // Nor can a guest find a person's entries by name or by uid.
      expect(
        (await server.request('GET', `/api/activity?q=${encodeURIComponent(staffName)}`, { token: manager.idToken }))
          .body.entries.length,
      ).toBeGreaterThan(0);
      expect(
        (await server.request('GET', `/api/activity?q=${encodeURIComponent(staffName)}`, { token: guest.idToken })).body
          .entries,
      ).toEqual([]);
      const byUid = await server.request('GET', `/api/activity?userId=${staff.uid}`, { token: guest.idToken });
      expect([byUid.status, byUid.body]).toEqual([
        403,
        { error: "Guests can't filter the activity log by staff member" },
      ]);
      const byUser = await server.request('GET', '/api/activity?sort=user&order=asc', { token: guest.idToken });
      expect(byUser.status).toBe(200);
      expect(byUser.body.entries.map((e: any) => e.userName)).toEqual(
        managerView.body.entries.map(() => 'Staff member'),
      );
    });

    it('never answers a guest with a staff name, uid or email, on any route', async () => {
      const people = [staffName, staff.uid, staff.email!, manager.session.user.name, manager.uid, manager.email!];
      const reads = operations(server).filter(
        (op) => op.method === 'GET' && !['/api/ws', '/api/docs'].includes(op.path),
      );
      let answered = 0;
      for (const op of reads) {
        const res = await server.request('GET', fill(op), { token: guest.idToken });
        expect(res.status, `${op.path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status === 200) answered++;
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        for (const person of people) expect(text.includes(person), `${op.path} shows ${person} to a guest`).toBe(false);
        // No download of any kind reaches a guest.
        if (res.status < 300) expect(res.headers.get('content-disposition'), op.path).toBeNull();
      }
      expect(answered).toBeGreaterThan(10); // the dashboard, display, history, revert plan...
      const history = await server.request('GET', `/api/inventory/${itemId}/history`, { token: guest.idToken });
      expect(history.body.map((h: any) => h.actor)).toEqual(
        history.body.map(() => ({ uid: null, name: 'Staff member' })),
      );
      const dashboard = await server.request('GET', '/api/dashboard', { token: guest.idToken });
      expect(dashboard.body.recentActivity.length).toBeGreaterThan(0);
      for (const entry of dashboard.body.recentActivity)
        expect([entry.userName, entry.userId]).toEqual(['Staff member', null]);
    });

    it('refuses every export to a guest with 403, and still serves it to staff', async () => {
      for (const path of [
        '/api/inventory/export.csv',
        '/api/activity.csv',
        `/api/changes/export.csv?from=${encodeURIComponent(hourAgo())}`,
      ]) {
        const res = await server.request('GET', path, { token: guest.idToken });
        expect([path, res.status, res.body]).toEqual([path, 403, NO_EXPORT]);
        const forStaff = await server.request('GET', path, { token: staff.idToken });
        expect([path, forStaff.status]).toEqual([path, 200]);
      }
    });

    it("sends a guest's live feed events with 'Staff member' for whoever made them", async () => {
      const [guestFeed, managerFeed] = [
        await connectFeed(server.url, { token: guest.idToken }),
        await connectFeed(server.url, { token: manager.idToken }),
      ];
      try {
        await Promise.all(
          [guestFeed, managerFeed].map((f) => f.waitFor((m) => m.some((x) => x.type === 'hello'), 20_000, 'hello')),
        );
        const res = await server.request('POST', `/api/inventory/${itemId}/adjust`, {
          token: staff.idToken,
          body: { delta: 2, reason: 'restock' },
        });
        expect(res.status).toBe(200);
        const mine = (e: { stream: string; type: string; data: unknown }) =>
          e.stream === `item-${itemId}` && e.type === 'StockAdjusted' && (e.data as { delta: number }).delta === 2;
        const [seenByGuest] = await guestFeed.waitForMatching(mine);
        const [seenByManager] = await managerFeed.waitForMatching(mine);
        expect(seenByManager!.event.actor).toEqual({ uid: staff.uid, name: staffName });
        expect(seenByGuest!.event.actor).toEqual({ uid: null, name: 'Staff member' });
        expect(seenByGuest!.event.data).toEqual(seenByManager!.event.data);
        const guestText = JSON.stringify(guestFeed.messages);
        for (const person of [staffName, staff.uid, manager.uid]) expect(guestText).not.toContain(person);
      } finally {
        await Promise.all([guestFeed.close(), managerFeed.close()]);
      }
    });
  });
});

describe.each(backends())('the guest-access migration on $name', (backend) => {
  const migration = async () =>
    splitStatements(await readFile(new URL('../../migrations/018_guest_access_off.sql', import.meta.url), 'utf8'));
  const meta = () => ({ actor: { uid: 'manager-1', name: 'Morgan' }, correlationId: randomUUID() });
  const silent = { info: () => undefined } as any;

  it('turns guest sign-in off in a store that only had the old default, and keeps a manager’s explicit choice', async () => {
    const store = await openTestStore(backend);
    try {
      const settings = new SettingsService(store.store);
      const db = store.database.db;
      const allowGuests = async () =>
        (await sql<{ on: boolean }>`select allow_guests as on from settings where id = 1`.execute(db)).rows[0]!.on;
      const run = async () => {
        for (const statement of await migration()) await sql.raw(statement).execute(db);
      };
      // A store whose settings were changed under the old default: its row says guests are on.
      await settings.change({ storeName: 'Corner Shop' }, meta(), silent);
      await sql`update settings set allow_guests = true where id = 1`.execute(db);
      await run();
      expect(await allowGuests()).toBe(false);
      expect(await verifyProjections(store.store)).toEqual([]); // the same as a rebuild from events

      // A manager who chose guests (an event that says so) keeps them.
      await settings.change({ allowGuests: true }, meta(), silent);
      await run();
      expect(await allowGuests()).toBe(true);
      expect(await verifyProjections(store.store)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
