// Cached principals: two server instances on one database (two processes' worth
// of PostgreSQL connections; on PGlite, two apps on the one embedded database), each with its
// principal cache. A role change, a change to a role's permissions and a disable made through
// instance A take effect on the very next request to instance B, for the routes that serve
// cached principals (a read and a stock adjustment), even while B has not yet heard of the
// change: B's event-driven invalidation is held back, so only the stamp each route reads in
// its own statement can catch it. Once the events arrive, B's cache drops the entry.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountsPrincipalResolver } from '../../server/accounts/principal-resolver.js';
import { cachePrincipals, type CachingResolver } from '../../server/auth/principal-cache.js';
import type { PrincipalResolver } from '../../server/auth/principal.js';
import type { StoredEvent } from '../../server/eventstore/types.js';
import { subscriptionsFor } from '../../server/subscriptions/database-subscriptions.js';
import { backends, openTestStore, type TestStore } from '../helpers/backends.js';
import { openSecondInstanceStore } from '../helpers/second-instance-store.js';
import { startTestServer, testConfig, type TestServer } from '../helpers/test-server.js';
import { newMember, type SignedIn } from './accounts-fixtures.js';

describe.each(backends())('cached principals across instances on $name', { timeout: 120_000 }, (backend) => {
  let storeA: TestStore;
  let storeB: TestStore;
  let a: TestServer;
  let b: TestServer;
  let cacheB: CachingResolver;
  /** How often B resolved a principal from the database. */
  let resolvedOnB = 0;
  let manager: SignedIn;
  let itemId: string;
  /** B's subscriptions hand committed events here instead of to B's cache while held. */
  let held: StoredEvent[][] | null = null;
  /** How B's cache takes a batch. */
  let toCacheB: (events: StoredEvent[]) => void = () => undefined;

  beforeAll(async () => {
    storeA = await openTestStore(backend, { poolSize: 10 });
    storeB = backend.url ? await openSecondInstanceStore(backend, storeA) : storeA;
    // B is wired as production wires it (server/features.ts), with a counter around the resolver.
    const accounts = createAccountsPrincipalResolver(storeB.store.db);
    const counted: PrincipalResolver = (token, options) => {
      resolvedOnB++;
      return accounts(token, options);
    };
    // B's subscriptions as buildApp makes them, made here so B's cache can subscribe before B is built.
    const subscriptionsB = subscriptionsFor(storeB.database, storeB.store, {
      pollMs: testConfig().realtime.pollMs,
      log: { error: () => undefined, warn: () => undefined },
    });
    cacheB = cachePrincipals(counted, {
      subscribe: (listener) => {
        toCacheB = listener;
        return subscriptionsB.subscribe((events) => void (held ? held.push(events) : listener(events)));
      },
    });
    a = await startTestServer(backend, { store: storeA });
    b = await startTestServer(backend, {
      store: storeB,
      context: { resolvePrincipal: cacheB, subscriptions: subscriptionsB },
    });
    manager = await newMember(a, { name: 'Morgan Manager' });
    const category = await a.request('POST', '/api/categories', {
      token: manager.idToken,
      body: { name: 'Cache aisle' },
    });
    const item = await a.request('POST', '/api/inventory', {
      token: manager.idToken,
      body: {
        name: 'Cached Widget',
        sku: 'CW-1',
        category_id: category.body.id,
        quantity: 100,
        price: 2,
        threshold: 1,
      },
    });
    expect(item.status).toBe(201);
    itemId = item.body.id;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    cacheB?.close();
    if (storeB !== storeA) await storeB?.close();
    await storeA?.close();
  });

  const read = (member: SignedIn) => b.request('GET', `/api/inventory/${itemId}`, { token: member.idToken });
  const adjust = (member: SignedIn) =>
    b.request('POST', `/api/inventory/${itemId}/adjust`, {
      token: member.idToken,
      body: { delta: 1, reason: 'restock' },
    });
  const quantity = async () =>
    Number(
      (await sql<{ q: number }>`select quantity as q from items where id = ${itemId}`.execute(storeA.database.db))
        .rows[0]!.q,
    );

  /** Both cached routes work on B, and B now answers them from its cache. */
  async function warmOnB(member: SignedIn) {
    expect((await read(member)).status).toBe(200);
    expect((await adjust(member)).status).toBe(200);
    // B's subscriptions may still be handing on the new member's own events (each drops the
    // member's entry) on a loaded machine: a few more pairs, until one is served from the cache.
    for (let tries = 1; ; tries++) {
      const before = resolvedOnB;
      expect((await read(member)).status).toBe(200);
      expect((await adjust(member)).status).toBe(200);
      if (resolvedOnB === before || tries === 10) {
        expect(resolvedOnB, 'served from the cache').toBe(before);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Runs `change` on A while B's cache hears nothing of it; then hands it what it missed. */
  async function whileBHasNotHeard(work: () => Promise<void>) {
    held = [];
    try {
      await work();
    } finally {
      const events = held;
      held = null;
      for (const batch of events) toCacheB(batch);
    }
  }

  it('a role change on A takes effect on the very next request on B, both ways', async () => {
    const member = await newMember(a, { name: 'Rita Role' });
    const role = await a.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { name: 'Profile only', description: 'Sees nothing but their profile', permissions: ['profile:view'] },
    });
    expect(role.status).toBe(201);
    await warmOnB(member);
    await whileBHasNotHeard(async () => {
      const demoted = await a.request('PUT', `/api/users/${member.uid}/role`, {
        token: manager.idToken,
        body: { role: role.body.id },
      });
      expect(demoted.status).toBe(200);
      const stock = await quantity();
      expect((await read(member)).status).toBe(403);
      expect((await adjust(member)).status).toBe(403);
      expect(await quantity()).toBe(stock);

      // And back: a cached principal without the permission asks afresh before refusing.
      expect(
        (await a.request('PUT', `/api/users/${member.uid}/role`, { token: manager.idToken, body: { role: 'staff' } }))
          .status,
      ).toBe(200);
      expect((await read(member)).status).toBe(200);
      expect((await adjust(member)).status).toBe(200);
      expect(await quantity()).toBe(stock + 1);
    });
  });

  it("a change to a role's permissions on A takes effect on the very next request on B", async () => {
    const role = await a.request('POST', '/api/roles', {
      token: manager.idToken,
      body: { name: 'Counter', description: 'Counts stock', permissions: ['inventory:view', 'stock:update'] },
    });
    const member = await newMember(a, { name: 'Cora Counter' });
    expect(
      (
        await a.request('PUT', `/api/users/${member.uid}/role`, {
          token: manager.idToken,
          body: { role: role.body.id },
        })
      ).status,
    ).toBe(200);
    await warmOnB(member);
    await whileBHasNotHeard(async () => {
      const narrowed = await a.request('PUT', `/api/roles/${role.body.id}`, {
        token: manager.idToken,
        body: { name: 'Counter', description: 'Looks only', permissions: ['inventory:view'] },
      });
      expect(narrowed.status).toBe(200);
      const stock = await quantity();
      const refused = await adjust(member);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: "You don't have permission to update stock levels" });
      expect(await quantity()).toBe(stock);
      expect((await read(member)).status).toBe(200);
    });
  });

  it('a disabled account on A is refused on the very next request on B, and let back in when enabled', async () => {
    const member = await newMember(a, { name: 'Dana Disabled' });
    await warmOnB(member);
    await whileBHasNotHeard(async () => {
      expect((await a.request('POST', `/api/users/${member.uid}/disable`, { token: manager.idToken })).status).toBe(
        200,
      );
      const stock = await quantity();
      const readRefused = await read(member);
      expect(readRefused.status).toBe(403);
      expect(readRefused.body).toEqual({ error: 'Account disabled' });
      expect((await adjust(member)).status).toBe(403);
      expect(await quantity()).toBe(stock);

      expect(
        (await a.request('POST', `/api/users/${member.uid}/enable`, { token: manager.idToken, body: {} })).status,
      ).toBe(200);
      expect((await read(member)).status).toBe(200);
    });
  });

  it("drops a user's cached principal when B reads their events after commit", async () => {
    const member = await newMember(a, { name: 'Ivy Invalidated' });
    await warmOnB(member);
    expect(cacheB.has(member.uid)).toBe(true);
    // No further request from the member: only the event, read by B's subscriptions after
    // A's NOTIFY (or its poll), can remove the entry.
    expect(
      (await a.request('PUT', `/api/users/${member.uid}/role`, { token: manager.idToken, body: { role: 'manager' } }))
        .status,
    ).toBe(200);
    await expect.poll(() => cacheB.has(member.uid), { timeout: 10_000 }).toBe(false);
  });
});
