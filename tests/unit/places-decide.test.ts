// Site and location decisions and their fold: given state, when command, then events (no
// database); the events fold (shared/sites.ts) to the state the next decision takes; the
// sentences the log shows; who receives the events live; webhooks never send them.
import { describe, expect, it } from 'vitest';
import { describeChange, sentenceText } from '../../shared/change-sentence.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import {
  canonicalTimeZone,
  evolveLocation,
  evolveSite,
  siteWithLocation,
  type LocationEvent,
  type SiteEvent,
} from '../../shared/sites.js';
import {
  archiveLocation,
  archiveSite,
  createLocation,
  createSite,
  moveLocation,
  NO_STOCK,
  restoreLocation,
  restoreSite,
  updateLocation,
  updateSite,
  type LocationState,
  type SiteState,
} from '../../server/sites/decide.js';
import { ConflictError, NotFoundError, ValidationError } from '../../server/errors.js';
import { Audience, audienceMask, audienceOfStreamType } from '../../server/realtime/event-visibility.js';
import { wantedEvents } from '../../server/webhooks/webhook-payload.js';
import type { StoredEvent } from '../../server/eventstore/types.js';
import { BUILT_IN_ROLES } from '../../shared/permissions.js';

const at = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-02T10:00:00.000Z');

const site = (over: Partial<SiteState> = {}): SiteState => ({
  id: 's1',
  name: 'Corner shop',
  code: 'CS',
  address: '',
  timeZone: 'UTC',
  defaultLocationId: 'back',
  archivedAt: null,
  version: 1,
  createdAt: at,
  updatedAt: at,
  ...over,
});
const location = (id: string, over: Partial<LocationState> = {}): LocationState => ({
  id,
  siteId: 's1',
  parentId: null,
  name: id[0]!.toUpperCase() + id.slice(1),
  code: id.toUpperCase(),
  barcode: null,
  archivedAt: null,
  version: 1,
  createdAt: at,
  updatedAt: at,
  ...over,
});

/** The message of what `run` throws, with its type. */
function refusal(run: () => unknown): { type: string; message: string } {
  try {
    run();
  } catch (error) {
    return { type: (error as Error).constructor.name, message: (error as Error).message };
  }
  throw new Error('not refused');
}

describe('the fold of site and location events', () => {
  it("folds the migration's two creations into Main store, its location its default", () => {
    const created = evolveSite(
      null,
      {
        type: 'SiteCreated',
        data: { siteId: MAIN_SITE_ID, name: 'Main store', code: 'MAIN', address: '', timeZone: 'UTC' },
      },
      { version: 1, at },
    )!;
    const locationCreated: Extract<LocationEvent, { type: 'LocationCreated' }> = {
      type: 'LocationCreated',
      data: {
        locationId: MAIN_LOCATION_ID,
        siteId: MAIN_SITE_ID,
        parentId: null,
        name: 'Main location',
        code: 'MAIN',
        barcode: null,
      },
    };
    const main = siteWithLocation(created, locationCreated);
    expect(main).toMatchObject({ defaultLocationId: MAIN_LOCATION_ID, version: 1, createdAt: at, updatedAt: at });
    // A second location leaves the default where it is.
    const second = { ...locationCreated, data: { ...locationCreated.data, locationId: 'other' } };
    expect(siteWithLocation(main, second).defaultLocationId).toBe(MAIN_LOCATION_ID);
  });

  it('folds what the decisions decide into the state the next decision takes', () => {
    let state: SiteState | null = null;
    const apply = (events: SiteEvent[], when: Date) => {
      for (const event of events) state = evolveSite(state, event, { version: (state?.version ?? 0) + 1, at: when });
    };
    apply(createSite({ siteId: 's1', name: ' Corner shop ', code: 'CS', timeZone: 'europe/paris' }), at);
    expect(state).toMatchObject({ name: 'Corner shop', timeZone: 'Europe/Paris', version: 1, archivedAt: null });
    apply(updateSite({ name: 'Corner', address: '2 Rue' }, state), later);
    expect(state).toMatchObject({ name: 'Corner', address: '2 Rue', version: 2, updatedAt: later });
    apply(archiveSite(state, NO_STOCK, 2), later);
    expect(state!.archivedAt).toEqual(later);
    // Archiving what is archived, or restoring what is not, changes nothing.
    expect(archiveSite(state, NO_STOCK, 2)).toEqual([]);
    expect(restoreSite(site())).toEqual([]);

    let loc: LocationState | null = null;
    const fold = (events: LocationEvent[]) => {
      for (const event of events) loc = evolveLocation(loc, event, { version: (loc?.version ?? 0) + 1, at });
    };
    fold(
      createLocation(
        { locationId: 'bin', siteId: 's1', parentId: 'shelf', name: 'Bin', code: 'B1' },
        site(),
        location('shelf'),
      ),
    );
    fold(moveLocation(null, loc, site(), null, []));
    fold(updateLocation({ barcode: ' LOC-1 ' }, loc));
    expect(loc).toMatchObject({ parentId: null, barcode: 'LOC-1', version: 3 });
    expect(updateLocation({ name: 'Bin', code: 'B1' }, loc)).toEqual([]);
  });
});

describe('site decisions', () => {
  it('takes IANA time zones only, in their canonical spelling', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['+02:00', 'GMT+2', 'Mars/Olympus', '', 'Europe/Paris; drop table']) {
      expect(canonicalTimeZone(bad), bad).toBeNull();
    }
    expect(refusal(() => createSite({ siteId: 's', name: 'X', code: 'X', timeZone: 'Mars/Olympus' }))).toEqual({
      type: 'ValidationError',
      message: 'Mars/Olympus is not a time zone (for example Europe/Paris)',
    });
  });

  it('moves the default only to an active location of the same site', () => {
    expect(updateSite({ defaultLocationId: 'front' }, site(), location('front'))).toEqual([
      { type: 'SiteDefaultLocationSet', data: { locationId: 'front' } },
    ]);
    expect(() => updateSite({ defaultLocationId: 'x' }, site(), location('x', { siteId: 's2' }))).toThrow(
      ValidationError,
    );
    expect(() => updateSite({ defaultLocationId: 'x' }, site(), null)).toThrow(ValidationError);
    expect(() => updateSite({ defaultLocationId: 'x' }, site(), location('x', { archivedAt: at }))).toThrow(
      ConflictError,
    );
    expect(() => updateSite({ name: 'x' }, null)).toThrow(NotFoundError);
  });

  it('refuses archiving a site with stock, saying how much and where, and the last active site', () => {
    const stock = { units: 1, items: 1, below: ['Back room'] };
    expect(refusal(() => archiveSite(site(), stock, 3))).toEqual({
      type: 'ConflictError',
      message: 'Corner shop still holds 1 unit of 1 item (at Back room): move them first',
    });
    expect(refusal(() => archiveSite(site(), NO_STOCK, 1)).message).toBe(
      'Corner shop is the only active site: the store needs one',
    );
    expect(archiveSite(site(), NO_STOCK, 2)).toEqual([{ type: 'SiteArchived', data: {} }]);
  });
});

describe('location decisions', () => {
  const tree = { back: location('back'), shelf: location('shelf', { parentId: 'back' }) };

  it('refuses a parent that is unknown, at another site or archived, and an archived site', () => {
    const create = (parent: LocationState | null, parentId: string | null = parent?.id ?? 'missing', s = site()) =>
      refusal(() => createLocation({ locationId: 'n', siteId: 's1', parentId, name: 'New', code: 'NEW' }, s, parent));
    expect(create(null)).toEqual({ type: 'ValidationError', message: 'parent_id: Location not found' });
    expect(create(location('far', { siteId: 's2' })).message).toBe(
      'parent_id: Far is at another site, not Corner shop',
    );
    expect(create(location('old', { archivedAt: at }))).toEqual({
      type: 'ConflictError',
      message: 'Old is archived: it takes no locations',
    });
    expect(create(null, null, site({ archivedAt: at })).message).toBe('Corner shop is archived: restore it first');
    expect(
      createLocation({ locationId: 'n', siteId: 's1', parentId: null, name: 'New', code: 'NEW' }, site(), null),
    ).toHaveLength(1);
  });

  it('never moves a location into itself or below itself', () => {
    expect(refusal(() => moveLocation('shelf', tree.back, site(), tree.shelf, ['shelf', 'back']))).toEqual({
      type: 'ValidationError',
      message: 'parent_id: Shelf is inside Back: a location cannot go inside itself',
    });
    expect(() => moveLocation('back', tree.back, site(), tree.back, ['back'])).toThrow(ValidationError);
    expect(moveLocation('back', tree.shelf, site(), tree.back, ['back'])).toEqual([]);
    expect(moveLocation(null, tree.shelf, site(), null, [])).toEqual([
      { type: 'LocationMoved', data: { fromParentId: 'back', toParentId: null } },
    ]);
  });

  it('refuses archiving while stock is there (saying how much and where), the default, or active locations inside', () => {
    const facts = { site: site(), stock: NO_STOCK, activeChildren: [] as string[] };
    const stock = { units: 14, items: 3, below: ['Bin 4', 'Shelf 2'] };
    expect(refusal(() => archiveLocation(tree.shelf, { ...facts, stock })).message).toBe(
      'Shelf still holds 14 units of 3 items (at Bin 4, Shelf 2): move them first',
    );
    expect(refusal(() => archiveLocation(tree.shelf, { ...facts, stock: { ...stock, below: [] } })).message).toBe(
      'Shelf still holds 14 units of 3 items: move them first',
    );
    expect(refusal(() => archiveLocation(tree.back, facts)).message).toBe(
      'Back is where stock goes at Corner shop by default: choose another default location first',
    );
    // At an archived site too: restored, it would send its stock to an archived location.
    expect(() => archiveLocation(tree.back, { ...facts, site: site({ archivedAt: at }) })).toThrow(ConflictError);
    expect(archiveLocation(tree.back, { ...facts, site: site({ defaultLocationId: 'front' }) })).toEqual([
      { type: 'LocationArchived', data: {} },
    ]);
    expect(refusal(() => archiveLocation(tree.shelf, { ...facts, activeChildren: ['A', 'B', 'C', 'D'] })).message).toBe(
      'Shelf still has 4 locations inside (A, B, C, …): archive or move them first',
    );
    expect(() => archiveLocation(null, null)).toThrow(NotFoundError);
  });

  it('restores only under an active parent at an active site', () => {
    const archived = location('bin', { parentId: 'shelf', archivedAt: at });
    expect(refusal(() => restoreLocation(archived, site(), location('shelf', { archivedAt: at }))).message).toBe(
      'Shelf is archived: restore it first',
    );
    expect(restoreLocation(archived, site(), tree.shelf)).toEqual([{ type: 'LocationRestored', data: {} }]);
    expect(restoreLocation(tree.shelf, site(), tree.back)).toEqual([]);
  });
});

describe('site and location changes elsewhere', () => {
  it('are worded for the log, naming the places as they were', () => {
    const words = (type: string, data: unknown, subject: string, names: Record<string, string> = {}) =>
      sentenceText(describeChange({ type, data, subject, names }, 'Mona'));
    expect(
      words('LocationCreated', { parentId: 'back', siteId: 's1', code: 'S2' }, 'Shelf 2', { back: 'Back room' }),
    ).toBe('Created location Shelf 2 (S2) in Back room, by Mona');
    expect(words('LocationMoved', { fromParentId: 'back', toParentId: null }, 'Shelf 2', { back: 'Back room' })).toBe(
      'Moved location Shelf 2 from Back room to the top level, by Mona',
    );
    expect(words('SiteUpdated', { changes: { timeZone: { from: 'UTC', to: 'Europe/Paris' } } }, 'Corner shop')).toBe(
      'Edited site Corner shop: Time zone UTC → Europe/Paris, by Mona',
    );
    expect(words('LocationArchived', {}, 'Bin 4')).toBe('Archived location Bin 4, by Mona');
  });

  it('reach staff and managers live, not guests', () => {
    expect(audienceOfStreamType('site')).toBe(Audience.places);
    expect(audienceOfStreamType('location')).toBe(Audience.places);
    expect(audienceMask(BUILT_IN_ROLES.staff.permissions) & Audience.places).toBeTruthy();
    expect(audienceMask(BUILT_IN_ROLES.guest.permissions, { guest: true }) & Audience.places).toBe(0);
    // A guest still sees stock.
    expect(audienceMask(BUILT_IN_ROLES.guest.permissions, { guest: true }) & Audience.inventory).toBeTruthy();
  });

  it('are not delivered to webhooks, even to an endpoint that takes every event', async () => {
    const event = (type: string, streamId: string): StoredEvent => ({
      position: 1,
      txId: '1',
      streamId,
      streamType: streamId.split('-')[0]!,
      streamVersion: 1,
      eventId: `e-${type}`,
      type,
      data: {},
      metadata: { actor: { uid: 'u', name: 'Mona' }, correlationId: 'c' },
      createdAt: at,
    });
    const events = [
      event('SiteCreated', 'site-s1'),
      event('LocationMoved', 'location-l1'),
      event('ItemDeleted', 'item-i1'),
    ];
    const wanted = await wantedEvents(null as never, events, { eventTypes: ['*'], categoryIds: [] });
    expect(wanted.map((e) => e.type)).toEqual(['ItemDeleted']);
  });
});
