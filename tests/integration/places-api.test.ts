// Sites and locations through the API, as a store manager uses them: Main store is there from
// the start and renamable; sites are created with an IANA time zone, edited, archived and
// restored; locations are created in a site's tree, edited, found by code or label barcode,
// moved within the tree, archived and restored. Every refusal is a clear 4xx that changes
// nothing (no event written); the log says who changed which place; the live feed carries the
// changes to staff and managers, not to guests; and a replay of the log gives the same rows.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import type { Location, Site } from '../../shared/sites.js';
import { verifyProjections } from '../../server/eventstore/rebuild-projections.js';
import { accountWithRole } from '../helpers/accounts-with-roles.js';
import { backends } from '../helpers/backends.js';
import type { TestAccount } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { eventCount } from './accounts-fixtures.js';

describe.each(backends())('sites and locations on $name', (backend) => {
  let server: TestServer;
  let manager: TestAccount;
  let staff: TestAccount;
  let guest: TestAccount;
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
  /** A request that must be refused with `status` and write nothing; its body. */
  const refused = async (method: string, path: string, body: unknown, status: number, who = manager) => {
    const before = await eventCount(server);
    const answer = await call(who, method, path, body, status);
    expect(await eventCount(server), `${method} ${path} wrote events`).toBe(before);
    expect(typeof answer.error).toBe('string');
    return answer as { error: string; field?: string };
  };
  const newSite = async (name: string, timeZone = 'UTC'): Promise<Site> =>
    call(manager, 'POST', '/api/sites', { name, code: `S${++n}`, time_zone: timeZone }, 201);
  const newLocation = async (siteId: string, name: string, parentId: string | null = null, extra = {}) =>
    (await call(
      manager,
      'POST',
      '/api/locations',
      { site_id: siteId, parent_id: parentId, name, code: `L${++n}`, ...extra },
      201,
    )) as Location;
  const locationsOf = async (siteId: string): Promise<Location[]> =>
    call(manager, 'GET', `/api/locations?siteId=${siteId}`);

  beforeAll(async () => {
    server = await startTestServer(backend);
    manager = await accountWithRole(server, 'manager', 'Mona Manager');
    staff = await accountWithRole(server, 'staff', 'Stan Staff');
    guest = await accountWithRole(server, 'guest');
  });
  afterAll(() => server?.close());

  it('has Main store with its default location from the start, and renames it like any other site', async () => {
    const sites: Site[] = await call(staff, 'GET', '/api/sites');
    const main = sites.find((s) => s.id === MAIN_SITE_ID)!;
    expect(main).toMatchObject({
      name: 'Main store',
      code: 'MAIN',
      timeZone: 'UTC',
      defaultLocationId: MAIN_LOCATION_ID,
      archivedAt: null,
      version: 1,
    });
    expect((await locationsOf(MAIN_SITE_ID)).map((l) => l.name)).toEqual(['Main location']);

    const renamed = await call(manager, 'PATCH', `/api/sites/${MAIN_SITE_ID}`, {
      name: 'High Street',
      address: '1 High Street',
      time_zone: 'europe/london',
    });
    expect(renamed).toMatchObject({ name: 'High Street', address: '1 High Street', timeZone: 'Europe/London' });
    expect(renamed.version).toBe(2);
    // A stale version is refused, with the site as it is now.
    const stale = await refused('PATCH', `/api/sites/${MAIN_SITE_ID}`, { name: 'Old name', expected_version: 1 }, 409);
    expect(stale).toMatchObject({ error: 'This site was changed by someone else' });
  });

  it('creates a site with an IANA time zone and refuses a bad zone, a taken code and staff', async () => {
    const site = await call(
      manager,
      'POST',
      '/api/sites',
      { name: 'Harbour warehouse', code: 'HW', time_zone: 'Asia/Tokyo' },
      201,
    );
    expect(site).toMatchObject({
      name: 'Harbour warehouse',
      code: 'HW',
      timeZone: 'Asia/Tokyo',
      defaultLocationId: null,
    });

    const zone = await refused('POST', '/api/sites', { name: 'Moon base', code: 'MB', time_zone: 'Mars/Olympus' }, 400);
    expect(zone).toEqual({ error: 'Mars/Olympus is not a time zone (for example Europe/Paris)', field: 'time_zone' });
    expect((await refused('POST', '/api/sites', { name: 'Offset', code: 'OF', time_zone: '+02:00' }, 400)).field).toBe(
      'time_zone',
    );
    const taken = await refused('POST', '/api/sites', { name: 'Other', code: 'hw', time_zone: 'UTC' }, 409);
    expect(taken).toEqual({ error: 'Code hw is already used by Harbour warehouse', field: 'code' });
    const badCode = await refused('POST', '/api/sites', { name: 'Spaced', code: 'A B', time_zone: 'UTC' }, 400);
    expect(badCode.field).toBe('code');
    await refused('PATCH', `/api/sites/${site.id}`, { time_zone: 'Nowhere/Land' }, 400);
    expect(
      (await refused('POST', '/api/sites', { name: 'Staff site', code: 'SS', time_zone: 'UTC' }, 403, staff)).error,
    ).toBe("You don't have permission to manage settings");
    expect((await call(manager, 'GET', `/api/sites/${site.id}`)).name).toBe('Harbour warehouse');
  });

  it('builds a tree of locations: the first becomes the default, codes are unique per site, bad parents are refused', async () => {
    const site = await newSite('Corner shop', 'Europe/Paris');
    const other = await newSite('Depot');
    const backRoom = await newLocation(site.id, 'Back room', null, { code: 'BACK' });
    expect((await call(manager, 'GET', `/api/sites/${site.id}`)).defaultLocationId).toBe(backRoom.id);
    const shelf = await newLocation(site.id, 'Shelf 1', backRoom.id);
    const bin = await newLocation(site.id, 'Bin 1', shelf.id);
    expect(bin).toMatchObject({ siteId: site.id, parentId: shelf.id, archivedAt: null, version: 1 });
    // The second location does not take the default.
    expect((await call(manager, 'GET', `/api/sites/${site.id}`)).defaultLocationId).toBe(backRoom.id);

    // The same code at the same site (any case) is refused; at another site it is fine.
    const dup = await refused('POST', '/api/locations', { site_id: site.id, name: 'Back 2', code: 'back' }, 409);
    expect(dup).toEqual({ error: 'Code back is already used by Back room at this site', field: 'code' });
    await call(manager, 'POST', '/api/locations', { site_id: other.id, name: 'Back', code: 'BACK' }, 201);

    const unknownParent = await refused(
      'POST',
      '/api/locations',
      { site_id: site.id, parent_id: randomUUID(), name: 'Nowhere', code: 'NW' },
      400,
    );
    expect(unknownParent).toEqual({ error: 'parent_id: Location not found', field: 'parent_id' });
    const elsewhere = await refused(
      'POST',
      '/api/locations',
      { site_id: other.id, parent_id: shelf.id, name: 'Stray', code: 'ST' },
      400,
    );
    expect(elsewhere).toEqual({ error: 'parent_id: Shelf 1 is at another site, not Depot', field: 'parent_id' });
    const unknownSite = await refused(
      'POST',
      '/api/locations',
      { site_id: randomUUID(), name: 'Lost', code: 'LOST' },
      400,
    );
    expect(unknownSite.field).toBe('site_id');

    // Moves stay in the tree: not into itself or below itself, not to another site.
    const cycle = await refused('POST', `/api/locations/${backRoom.id}/move`, { parent_id: bin.id }, 400);
    expect(cycle).toEqual({
      error: 'parent_id: Bin 1 is inside Back room: a location cannot go inside itself',
      field: 'parent_id',
    });
    await refused('POST', `/api/locations/${shelf.id}/move`, { parent_id: shelf.id }, 400);
    const otherSiteLocation = (await locationsOf(other.id))[0]!;
    await refused('POST', `/api/locations/${bin.id}/move`, { parent_id: otherSiteLocation.id }, 400);

    const moved = await call(manager, 'POST', `/api/locations/${bin.id}/move`, { parent_id: backRoom.id });
    expect(moved).toMatchObject({ parentId: backRoom.id, version: 2 });
    const top = await call(manager, 'POST', `/api/locations/${bin.id}/move`, { parent_id: null });
    expect(top.parentId).toBeNull();
    const tree = await locationsOf(site.id);
    expect(tree.map((l) => [l.name, l.parentId])).toEqual([
      ['Back room', null],
      ['Bin 1', null],
      ['Shelf 1', backRoom.id],
    ]);
  });

  it('edits a location and finds it by its code or by the barcode on its label, with its path', async () => {
    const site = await newSite('Garden centre');
    const yard = await newLocation(site.id, 'Yard');
    const rack = await newLocation(site.id, 'Rack A', yard.id);
    const edited = await call(manager, 'PATCH', `/api/locations/${rack.id}`, {
      name: 'Rack 1',
      code: 'R1',
      barcode: 'LOC-R1',
    });
    expect(edited).toMatchObject({ name: 'Rack 1', code: 'R1', barcode: 'LOC-R1', version: 2 });

    const byBarcode = await call(staff, 'GET', '/api/locations/by-code?barcode=LOC-R1');
    expect(byBarcode).toMatchObject({ id: rack.id, path: ['Yard', 'Rack 1'] });
    const byCode = await call(staff, 'GET', `/api/locations/by-code?siteId=${site.id}&code=r1`);
    expect(byCode.id).toBe(rack.id);
    await call(staff, 'GET', '/api/locations/by-code?barcode=NO-SUCH', undefined, 404);
    await call(staff, 'GET', '/api/locations/by-code?code=R1', undefined, 400);

    // A label's barcode names one thing: not another location's, not an item's.
    const category = await call(manager, 'POST', '/api/categories', { name: `Plants ${backend.name}` }, 201);
    await call(
      manager,
      'POST',
      '/api/inventory',
      {
        name: 'Fern',
        sku: `FERN-${backend.name}`,
        category_id: category.id,
        quantity: 0,
        price: 3,
        threshold: 0,
        barcode: 'FERN-1',
      },
      201,
    );
    expect((await refused('PATCH', `/api/locations/${yard.id}`, { barcode: 'FERN-1' }, 409)).error).toBe(
      'Barcode already used by item Fern',
    );
    expect((await refused('PATCH', `/api/locations/${yard.id}`, { barcode: 'LOC-R1' }, 409)).error).toBe(
      'Barcode already used by location Rack 1',
    );
    // Removing it frees it.
    expect((await call(manager, 'PATCH', `/api/locations/${rack.id}`, { barcode: null })).barcode).toBeNull();
    await call(staff, 'GET', '/api/locations/by-code?barcode=LOC-R1', undefined, 404);
  });

  it('archives and restores locations, refusing the default, one with active locations inside, and an archived parent', async () => {
    const site = await newSite('Market stall');
    const front = await newLocation(site.id, 'Front');
    const back = await newLocation(site.id, 'Back');
    const crate = await newLocation(site.id, 'Crate', back.id);

    expect((await refused('POST', `/api/locations/${front.id}/archive`, undefined, 409)).error).toBe(
      'Front is where stock goes at Market stall by default: choose another default location first',
    );
    expect((await refused('POST', `/api/locations/${back.id}/archive`, undefined, 409)).error).toBe(
      'Back still has 1 location inside (Crate): archive or move them first',
    );
    const archived = await call(manager, 'POST', `/api/locations/${crate.id}/archive`);
    expect(archived.archivedAt).not.toBeNull();
    await call(manager, 'POST', `/api/locations/${back.id}/archive`);
    // An archived location takes no new locations, and what is inside it stays archived until it is back.
    expect(
      (await refused('POST', '/api/locations', { site_id: site.id, parent_id: back.id, name: 'Box', code: 'BOX' }, 409))
        .error,
    ).toBe('Back is archived: it takes no locations');
    expect((await refused('POST', `/api/locations/${crate.id}/restore`, undefined, 409)).error).toBe(
      'Back is archived: restore it first',
    );
    // The code of an archived location stays taken.
    expect(
      (await refused('POST', '/api/locations', { site_id: site.id, name: 'New back', code: back.code }, 409)).error,
    ).toBe(`Code ${back.code} is already used by Back (archived) at this site`);

    await call(manager, 'POST', `/api/locations/${back.id}/restore`);
    expect((await call(manager, 'POST', `/api/locations/${crate.id}/restore`)).archivedAt).toBeNull();

    // Another default frees the first.
    const withDefault = await call(manager, 'PATCH', `/api/sites/${site.id}`, { default_location_id: back.id });
    expect(withDefault.defaultLocationId).toBe(back.id);
    await call(manager, 'POST', `/api/locations/${front.id}/archive`);
    expect((await refused('PATCH', `/api/sites/${site.id}`, { default_location_id: front.id }, 409)).error).toBe(
      'Front is archived: restore it before making it the default',
    );
  });

  it('archives and restores a site; an archived site takes no locations; the last active site stays', async () => {
    const site = await newSite('Pop-up');
    const archived = await call(manager, 'POST', `/api/sites/${site.id}/archive`);
    expect(archived.archivedAt).not.toBeNull();
    expect(
      (await refused('POST', '/api/locations', { site_id: site.id, name: 'Table', code: 'TABLE' }, 409)).error,
    ).toBe('Pop-up is archived: restore it first');
    expect((await call(manager, 'POST', `/api/sites/${site.id}/restore`)).archivedAt).toBeNull();
    await newLocation(site.id, 'Table');

    // Archiving every other site leaves one the store cannot lose.
    const sites: Site[] = await call(manager, 'GET', '/api/sites');
    const active = sites.filter((s) => !s.archivedAt && s.id !== MAIN_SITE_ID);
    for (const s of active) await call(manager, 'POST', `/api/sites/${s.id}/archive`);
    const last = await refused('POST', `/api/sites/${MAIN_SITE_ID}/archive`, undefined, 409);
    expect(last.error).toMatch(/is the only active site: the store needs one$/);
    for (const s of active) await call(manager, 'POST', `/api/sites/${s.id}/restore`);
  });

  it('refuses archiving a place while stock is there or below it, saying how much and where, until it is moved out', async () => {
    const site = await newSite('Bakery');
    const backRoom = await newLocation(site.id, 'Back room');
    const shelf = await newLocation(site.id, 'Shelf 2', backRoom.id);
    const front = await newLocation(site.id, 'Front');
    const category = await call(manager, 'POST', '/api/categories', { name: `Baking ${backend.name}` }, 201);
    const stockAt = async (name: string, quantity: number) => {
      const item = await call(
        manager,
        'POST',
        '/api/inventory',
        { name, sku: `${name}-${backend.name}`, category_id: category.id, quantity: 0, price: 1, threshold: 0 },
        201,
      );
      await call(staff, 'POST', `/api/inventory/${item.id}/adjust`, {
        delta: quantity,
        reason: 'restock',
        locationId: shelf.id,
      });
      return item.id as string;
    };
    const flour = await stockAt('Flour', 14);
    const yeast = await stockAt('Yeast', 3);

    expect((await refused('POST', `/api/locations/${shelf.id}/archive`, undefined, 409)).error).toBe(
      'Shelf 2 still holds 17 units of 2 items: move them first',
    );
    expect((await refused('POST', `/api/locations/${backRoom.id}/archive`, undefined, 409)).error).toBe(
      'Back room still holds 17 units of 2 items (at Shelf 2): move them first',
    );
    expect((await refused('POST', `/api/sites/${site.id}/archive`, undefined, 409)).error).toBe(
      'Bakery still holds 17 units of 2 items (at Shelf 2): move them first',
    );

    // Moved out, the shelf can go; what is left at the front keeps the site.
    for (const [itemId, quantity] of [
      [flour, 14],
      [yeast, 3],
    ] as const) {
      await call(staff, 'POST', '/api/moves', { itemId, fromLocationId: shelf.id, toLocationId: front.id, quantity });
    }
    expect((await call(manager, 'POST', `/api/locations/${shelf.id}/archive`)).archivedAt).not.toBeNull();
    expect((await refused('POST', `/api/sites/${site.id}/archive`, undefined, 409)).error).toBe(
      'Bakery still holds 17 units of 2 items (at Front): move them first',
    );
  });

  it('logs who changed which place, and sends the changes live to staff and managers but not to guests', async () => {
    const feeds = await Promise.all([manager, staff, guest].map((a) => connectFeed(server.url, { token: a.idToken })));
    try {
      for (const feed of feeds) await feed.waitFor((m) => m.some((x) => x.type === 'hello'));
      const site = await newSite('Kiosk');
      const stand = await newLocation(site.id, 'Stand');
      const isStand = (e: { stream: string }) => e.stream === `location-${stand.id}`;
      const [toManager, toStaff] = await Promise.all(feeds.slice(0, 2).map((f) => f.waitForMatching(isStand)));
      expect(toManager![0]!.event).toMatchObject({ type: 'LocationCreated', streamType: 'location' });
      expect(toStaff![0]!.event.actor.name).toBe('Mona Manager');
      // The guest's feed got an event written after it (Stand's site's, an item's) but none of these.
      const category = await call(manager, 'POST', '/api/categories', { name: `After ${backend.name}` }, 201);
      await feeds[2]!.waitForMatching((e) => e.stream === `category-${category.id}`);
      expect(
        feeds[2]!.events().filter((m) => m.event.streamType === 'site' || m.event.streamType === 'location'),
      ).toEqual([]);
    } finally {
      await Promise.all(feeds.map((f) => f.close()));
    }

    const log = await call(manager, 'GET', '/api/activity?resourceType=location&q=stand');
    expect(log.entries.map((e: { details: string }) => e.details)).toEqual([
      expect.stringMatching(/^Created location Stand \(L\d+\) at Kiosk, by Mona Manager$/),
    ]);
    expect(log.entries[0]).toMatchObject({ action: 'create', resourceType: 'location', resourceName: 'Stand' });
    // Main store and its location came with the store: nobody made them, no entry says so.
    const created = await call(manager, 'GET', '/api/activity?resourceType=site&action=create');
    expect(created.entries.map((e: { resourceName: string }) => e.resourceName)).not.toContain('Main store');
  });

  it('gives the same sites, locations and log on a replay of the events', async () => {
    expect(await verifyProjections(server.store.store)).toEqual([]);
    const rows = await sql<{ n: number }>`select count(*)::int as n from locations`.execute(server.store.database.db);
    expect(Number(rows.rows[0]!.n)).toBeGreaterThan(10);
  });
});
