// Stock at places on the screens, without a browser: the Inventory page's place filter in the
// URL (with the remembered site), the site's locations as a tree, the list at a site or
// location kept live (quantity here moved by adjustments and moves at the filter, an item
// arriving or an unknown event read again), the item page's table folded live, where Adjust
// goes, the Move dialog's rules and machine (a refusal lands at its input), and the scanner
// putting away at a scanned shelf label.
import { produce } from 'immer';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Item, ItemLocations } from '../../shared/inventory.js';
import { MAIN_LOCATION_ID } from '../../shared/places.js';
import type { FeedEvent } from '../../shared/realtime.js';
import type { FoundLocation, Location, Site } from '../../shared/sites.js';
import { ApiError } from '../../client/lib/api-client.js';
import { placePathText, stockBySite } from '../../client/lib/item-places.js';
import { adjustChoice } from '../../client/features/inventory/adjust-location.js';
import { applyToPlaces } from '../../client/features/inventory/item-places-live.js';
import { checkMove, initialFrom, moveRefusal } from '../../client/features/inventory/move-stock.js';
import { moveStockMachine } from '../../client/features/inventory/move-stock.machine.js';
import { locationOptions, placeFilterOf, withPlaceFilter } from '../../client/features/inventory/place-filter.js';
import { reducePlacedItems, type PlacedItemsData } from '../../client/features/inventory/placed-items-live.js';
import { scannerMachine } from '../../client/features/scanner/scanner.machine.js';
import type { AdjustOutcome, LookupResult, QuickAdjustment } from '../../client/features/scanner/api.js';

const SITE = '00000000-0000-4000-8000-000000000001';
const OTHER_SITE = '00000000-0000-4000-8000-0000000000b1';
const BACK = '00000000-0000-4000-8000-0000000000a1';
const SHELF = '00000000-0000-4000-8000-0000000000a2';
const DOCK = '00000000-0000-4000-8000-0000000000b2';
const t0 = '2030-01-01T00:00:00.000Z';

const location = (id: string, name: string, over: Partial<Location> = {}): Location => ({
  id,
  siteId: SITE,
  parentId: null,
  name,
  code: name.toUpperCase(),
  barcode: null,
  archivedAt: null,
  version: 1,
  createdAt: t0,
  updatedAt: t0,
  ...over,
});
const site = (id: string, name: string, defaultLocationId: string | null): Site => ({
  id,
  name,
  code: name.slice(0, 2).toUpperCase(),
  address: '',
  timeZone: 'UTC',
  defaultLocationId,
  archivedAt: null,
  version: 1,
  createdAt: t0,
  updatedAt: t0,
});
const item = (over: Partial<Item> = {}): Item => ({
  id: 'i1',
  name: 'Lamp Oil',
  description: '',
  sku: 'LO-1',
  category: 'Camping',
  categoryId: 'c1',
  category_id: 'c1',
  quantity: 14,
  price: 4,
  threshold: 1,
  imageUrl: null,
  image_url: null,
  expiryDate: null,
  barcode: null,
  createdAt: t0,
  updatedAt: t0,
  version: 2,
  ...over,
});
const feed = (stream: string, type: string, version: number, data: unknown): FeedEvent => ({
  stream,
  streamType: stream.split('-')[0]!,
  type,
  version,
  data,
  actor: { uid: 'u2', name: 'Other' },
  time: '2030-01-02T00:00:00.000Z',
});
const adjusted = (version: number, delta: number, quantity: number, locationId?: string) =>
  feed('item-i1', 'StockAdjusted', version, { delta, reason: 'sale', note: null, quantity, locationId });
const moved = (version: number, from: string, to: string, quantity: number) =>
  feed('item-i1', 'StockMoved', version, { fromLocationId: from, toLocationId: to, quantity });
const placed = (rows: Array<[string, string, string, string, number]>, inTransit = 0): ItemLocations => ({
  itemId: 'i1',
  total: rows.reduce((sum, r) => sum + r[4], 0),
  inTransit,
  locations: rows.map(([siteId, siteName, locationId, locationName, quantity]) => ({
    siteId,
    siteName,
    locationId,
    locationName,
    locationCode: locationName.toUpperCase(),
    locationPath: [locationName],
    archived: false,
    quantity,
  })),
});

describe('the place filter in the URL', () => {
  it('reads the site and location, takes the remembered site when the URL names none, and writes them back', () => {
    expect(placeFilterOf(new URLSearchParams(`siteId=${SITE}&locationId=${BACK}`), null)).toEqual({
      siteId: SITE,
      locationId: BACK,
    });
    expect(placeFilterOf(new URLSearchParams(''), OTHER_SITE)).toEqual({ siteId: OTHER_SITE, locationId: null });
    // An explicit empty site is All sites, whatever is remembered; junk names nothing.
    expect(placeFilterOf(new URLSearchParams('siteId='), OTHER_SITE)).toBeNull();
    expect(placeFilterOf(new URLSearchParams('siteId=nope&locationId=x'), null)).toBeNull();
    const written = withPlaceFilter(new URLSearchParams(`asOf=x&locationId=${BACK}`), {
      siteId: SITE,
      locationId: null,
    });
    expect(written.toString()).toBe(`asOf=x&siteId=${SITE}`);
    expect(withPlaceFilter(written, null).toString()).toBe('asOf=x');
  });

  it("offers a site's active locations depth first with their paths", () => {
    const list = [
      location(SHELF, 'Shelf 2', { parentId: BACK }),
      location(BACK, 'Back room'),
      location('a3', 'Archived', { archivedAt: t0 }),
      location(DOCK, 'Dock', { siteId: OTHER_SITE }),
      location('a4', 'Annex'),
    ];
    expect(locationOptions(list, SITE).map((o) => o.label)).toEqual(['Annex', 'Back room', 'Back room › Shelf 2']);
  });
});

describe('the list at a site or location, live', () => {
  const data = (items: Item[]): PlacedItemsData => ({
    filterKey: `${SITE}/`,
    items,
    nextCursor: null,
    locations: [location(MAIN_LOCATION_ID, 'Main location'), location(BACK, 'Back room'), location(SHELF, 'Shelf A')],
  });
  const reduce = (before: PlacedItemsData, event: FeedEvent, locationId: string | null = null) => {
    let effect = '';
    const after = produce(before, (draft) => {
      effect = reducePlacedItems(draft, event, { siteId: SITE, locationId });
    });
    return { effect, after };
  };

  it('moves quantity here and the total by adjustments at the site, and not by one at another site', () => {
    const start = data([item({ quantityHere: 14 })]);
    let { effect, after } = reduce(start, adjusted(3, -2, 12, BACK));
    expect(effect).toBe('applied');
    expect(after.items[0]).toMatchObject({ quantityHere: 12, quantity: 12, version: 3 });
    ({ after } = reduce(after, adjusted(4, 5, 17, DOCK)));
    expect(after.items[0]).toMatchObject({ quantityHere: 12, quantity: 17, version: 4 });
    // Already in (a replay after reconnecting): nothing twice.
    ({ effect } = reduce(after, adjusted(4, 5, 17, DOCK)));
    expect(effect).toBe('ignored');
    // An old event with no location was at Main location, which is at this site.
    ({ after } = reduce(start, adjusted(3, 1, 15)));
    expect(after.items[0]!.quantityHere).toBe(15);
  });

  it('counts a move at both ends: nothing at the site, units at a location filter', () => {
    const atSite = reduce(data([item({ quantityHere: 14 })]), moved(3, BACK, SHELF, 4));
    expect(atSite.after.items[0]).toMatchObject({ quantityHere: 14, quantity: 14, version: 3 });
    const atShelf = reduce(data([item({ quantityHere: 0 })]), moved(3, BACK, SHELF, 4), SHELF);
    expect(atShelf.after.items[0]!.quantityHere).toBe(4);
    const atBack = reduce(data([item({ quantityHere: 6 })]), moved(3, BACK, SHELF, 4), BACK);
    expect(atBack.after.items[0]!.quantityHere).toBe(2);
  });

  it('reads again for an item arriving here, a delete, or an event no fold knows; ignores items elsewhere', () => {
    const start = data([]);
    expect(reduce(start, adjusted(3, 2, 2, BACK)).effect).toBe('refetch');
    expect(reduce(start, adjusted(3, 2, 2, DOCK)).effect).toBe('ignored');
    expect(reduce(start, feed('item-i1', 'ItemCreated', 1, { quantity: 0, locationId: BACK })).effect).toBe('refetch');
    const listed = data([item({ quantityHere: 14 })]);
    expect(reduce(listed, feed('item-i1', 'ItemDeleted', 3, { name: 'Lamp Oil', sku: 'LO-1' })).effect).toBe('refetch');
    expect(reduce(listed, feed('item-i1', 'StockTeleported', 3, {})).effect).toBe('refetch');
  });

  it('learns a new location of the site from the feed, so stock put there counts here', () => {
    const created = feed('location-a9', 'LocationCreated', 1, {
      locationId: 'a9',
      siteId: SITE,
      parentId: null,
      name: 'Annex',
      code: 'ANX',
      barcode: null,
    });
    const { after } = reduce(data([item({ quantityHere: 14 })]), created);
    expect(after.locations.map((l) => l.name)).toContain('Annex');
    expect(reduce(after, adjusted(3, 1, 15, 'a9')).after.items[0]!.quantityHere).toBe(15);
  });

  it('counts the locations inside a chosen location, and reads again when one moves in or out of it', () => {
    // Back room › Shelf A › Bin 3.
    const BIN = '00000000-0000-4000-8000-0000000000a3';
    const nested = (): PlacedItemsData => ({
      ...data([item({ quantityHere: 6 })]),
      locations: [
        location(MAIN_LOCATION_ID, 'Main location'),
        location(BACK, 'Back room'),
        location(SHELF, 'Shelf A', { parentId: BACK }),
        location(BIN, 'Bin 3', { parentId: SHELF }),
      ],
    });
    expect(reduce(nested(), adjusted(3, 2, 16, BIN), BACK).after.items[0]!.quantityHere).toBe(8);
    expect(reduce(nested(), adjusted(3, 2, 16, BIN), SHELF).after.items[0]!.quantityHere).toBe(8);
    // A move inside the chosen location changes nothing here; out of it, it takes the units away.
    expect(reduce(nested(), moved(3, BIN, SHELF, 4), BACK).after.items[0]!.quantityHere).toBe(6);
    expect(reduce(nested(), moved(3, BIN, MAIN_LOCATION_ID, 4), SHELF).after.items[0]!.quantityHere).toBe(2);
    // Not above it: the shelf's list does not count the back room's own units.
    expect(reduce(nested(), adjusted(3, 2, 16, BACK), SHELF).after.items[0]!.quantityHere).toBe(6);

    const binMoved = (to: string | null) =>
      feed(`location-${BIN}`, 'LocationMoved', 2, { fromParentId: SHELF, toParentId: to });
    expect(reduce(nested(), binMoved(null), BACK).effect).toBe('refetch');
    const out = reduce(nested(), binMoved(null), MAIN_LOCATION_ID);
    expect(out.effect).toBe('applied');
    expect(out.after.locations.find((l) => l.id === BIN)!.parentId).toBeNull();
    const shelfMoved = feed(`location-${SHELF}`, 'LocationMoved', 2, {
      fromParentId: BACK,
      toParentId: MAIN_LOCATION_ID,
    });
    expect(reduce(nested(), shelfMoved, MAIN_LOCATION_ID).effect).toBe('refetch');
    // The chosen location moving somewhere else keeps what is inside it.
    expect(reduce(nested(), shelfMoved, SHELF).effect).toBe('applied');
  });
});

describe("the item page's table, live", () => {
  const start = placed([
    [SITE, 'Main store', BACK, 'Back room', 6],
    [SITE, 'Main store', MAIN_LOCATION_ID, 'Main location', 10],
    [OTHER_SITE, 'Warehouse', DOCK, 'Dock', 0],
  ]);
  const apply = (event: FeedEvent, version = 2) => {
    let effect = '';
    const after = produce(start, (draft) => {
      effect = applyToPlaces(draft, event, version);
    });
    return { effect, after };
  };

  it('moves units between its rows by the shared fold, once', () => {
    const { effect, after } = apply(moved(3, BACK, DOCK, 4));
    expect(effect).toBe('applied');
    expect(after.locations.map((l) => l.quantity)).toEqual([2, 10, 4]);
    expect(apply(moved(2, BACK, DOCK, 4)).effect).toBe('ignored');
  });

  it('reads again for a location it does not list, or an event no fold knows', () => {
    expect(apply(adjusted(3, 2, 18, SHELF)).effect).toBe('refetch');
    expect(apply(feed('item-i1', 'StockTeleported', 3, {})).effect).toBe('refetch');
  });

  it('groups by site without the locations it left, and says where the stock is', () => {
    expect(stockBySite(start.locations).map((s) => [s.siteName, s.total, s.locations.length])).toEqual([
      ['Main store', 16, 2],
    ]);
    expect(stockBySite(start.locations, true).map((s) => s.siteName)).toEqual(['Main store', 'Warehouse']);
  });

  it('names each location by its path from the site, as the server sends it', () => {
    const [back] = start.locations;
    expect(placePathText({ ...back!, locationPath: ['Back room', 'Shelf 2', 'Bin 14'] })).toBe(
      'Back room › Shelf 2 › Bin 14',
    );
    expect(placePathText(back!)).toBe('Back room');
    expect(placePathText({ ...back!, locationPath: [] })).toBe('Back room');
  });
});

describe('where Adjust stock goes', () => {
  const sites = [site(SITE, 'Main store', MAIN_LOCATION_ID), site(OTHER_SITE, 'Warehouse', DOCK)];
  const siteLocations = [location(MAIN_LOCATION_ID, 'Main location'), location(BACK, 'Back room')];

  it("at the chosen site: its default location first, and the item's other locations there", () => {
    const onlyBack = placed([[SITE, 'Main store', BACK, 'Back room', 6]]);
    expect(adjustChoice(onlyBack, sites, siteLocations, SITE)).toEqual({
      places: [
        { id: MAIN_LOCATION_ID, label: 'Main location', quantity: 0 },
        { id: BACK, label: 'Back room', quantity: 6 },
      ],
      initial: MAIN_LOCATION_ID,
    });
    const onlyDefault = placed([[SITE, 'Main store', MAIN_LOCATION_ID, 'Main location', 3]]);
    expect(adjustChoice(onlyDefault, sites, siteLocations, SITE)).toEqual({
      places: [{ id: MAIN_LOCATION_ID, label: 'Main location', quantity: 3 }],
      initial: MAIN_LOCATION_ID,
    });
  });

  it("with All sites: the item's locations anywhere, where most is first chosen; none: the server's default", () => {
    const spread = placed([
      [SITE, 'Main store', BACK, 'Back room', 2],
      [OTHER_SITE, 'Warehouse', DOCK, 'Dock', 9],
    ]);
    const choice = adjustChoice(spread, sites, [], null);
    expect(choice.places.map((p) => p.label)).toEqual(['Back room (Main store)', 'Dock (Warehouse)']);
    expect(choice.initial).toBe(DOCK);
    expect(adjustChoice(placed([]), sites, [], null)).toEqual({ places: [], initial: null });
  });
});

describe('the Move dialog', () => {
  const places = placed([
    [SITE, 'Main store', BACK, 'Back room', 6],
    [SITE, 'Main store', MAIN_LOCATION_ID, 'Main location', 10],
    [OTHER_SITE, 'Warehouse', DOCK, 'Dock', 20],
  ]);

  it('starts from where most is at the chosen site, and checks the form before sending', () => {
    expect(initialFrom(places, SITE)).toBe(MAIN_LOCATION_ID);
    expect(initialFrom(places, null)).toBe(DOCK);
    expect(checkMove({ fromId: BACK, toId: BACK, quantity: '0', note: '' })).toEqual({
      to: 'Choose another location than the one it leaves',
      quantity: 'Enter a whole number greater than 0',
    });
    expect(checkMove({ fromId: BACK, toId: SHELF, quantity: '3', note: '' })).toEqual({});
  });

  it("puts the server's refusal at the input it is about", () => {
    const names = { from: 'Back room', to: 'Shelf A' };
    const insufficient = new ApiError('Insufficient stock at Back room: 6 there', 409, {
      error: 'Insufficient stock at Back room: 6 there',
      locationId: BACK,
      available: 6,
    });
    expect(moveRefusal(insufficient, names)).toEqual({
      field: 'quantity',
      message: 'Insufficient stock at Back room: 6 there',
    });
    const twoSites = new ApiError('A move stays within a site', 422, { error: 'x', field: 'toLocationId' });
    expect(moveRefusal(twoSites, names).field).toBe('to');
    const archived = new ApiError('Shelf A is archived: restore it to keep stock there', 409, { error: 'x' });
    expect(moveRefusal(archived, names).field).toBe('to');
    expect(moveRefusal(new Error('offline'), names)).toEqual({ field: 'form', message: 'offline' });
  });

  it("reads the leaving site's locations, sends one move, and keeps a refusal at its input", async () => {
    const reads = vi.fn(async (siteId: string) =>
      siteId === SITE ? [location(BACK, 'Back room'), location(SHELF, 'Shelf A')] : [location(DOCK, 'Dock')],
    );
    const moves = vi.fn(async (_input: unknown): Promise<Item> => {
      if (moves.mock.calls.length === 1)
        throw new ApiError('Insufficient stock at Back room: 6 there', 409, { error: 'x', locationId: BACK });
      return item({ version: 3 });
    });
    const actor = createActor(
      moveStockMachine.provide({
        actors: {
          siteLocations: fromPromise(({ input }) => reads(input as string)),
          move: fromPromise(({ input }) => moves(input)),
        },
      }),
      { input: { itemId: 'i1', fromId: BACK, siteId: SITE } },
    ).start();
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }));
    expect(Object.keys(actor.getSnapshot().context.locations)).toEqual([SITE]);

    const names = { from: 'Back room', to: 'Shelf A' };
    actor.send({ type: 'SUBMIT', names });
    expect(actor.getSnapshot().context.errors).toMatchObject({ to: 'Choose where to move to' });
    expect(moves).not.toHaveBeenCalled();

    actor.send({ type: 'TO', locationId: SHELF });
    actor.send({ type: 'QUANTITY', value: '9' });
    actor.send({ type: 'SUBMIT', names });
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }) && moves.mock.calls.length === 1);
    expect(actor.getSnapshot().context.errors).toEqual({ quantity: 'Insufficient stock at Back room: 6 there' });
    expect(moves.mock.calls[0]![0]).toMatchObject({ itemId: 'i1', form: { fromId: BACK, toId: SHELF, quantity: '9' } });

    // Typing again clears the refusal; another site's location reads that site's list and forgets "to".
    actor.send({ type: 'QUANTITY', value: '4' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    actor.send({ type: 'SUBMIT', names });
    await waitFor(actor, (s) => s.matches('done'));
    expect(actor.getSnapshot().context.moved?.version).toBe(3);

    const other = createActor(
      moveStockMachine.provide({ actors: { siteLocations: fromPromise(({ input }) => reads(input as string)) } }),
      { input: { itemId: 'i1', fromId: BACK, siteId: SITE } },
    ).start();
    await waitFor(other, (s) => s.matches({ editing: 'ready' }));
    other.send({ type: 'TO', locationId: SHELF });
    other.send({ type: 'FROM', locationId: DOCK, siteId: OTHER_SITE });
    expect(other.getSnapshot().context.toId).toBe('');
    await waitFor(other, (s) => s.matches({ editing: 'ready' }));
    expect(other.getSnapshot().context.locations[OTHER_SITE]!.map((l) => l.name)).toEqual(['Dock']);
  });
});

describe('the scanner putting away at a shelf label', () => {
  const label: FoundLocation = { ...location(BACK, 'Back room'), path: ['Back room'] };

  it('makes a scanned label its active location, then changes and moves scanned items there', async () => {
    const kept = vi.fn();
    const adjustments = vi.fn(
      async (input: { itemId: string; adjustment: QuickAdjustment; locationId?: string }): Promise<AdjustOutcome> => ({
        item: item({ quantity: 15 }),
        changed: true,
        here: input.adjustment.kind === 'move' ? 7 : 3,
      }),
    );
    const lookups: Record<string, LookupResult> = {
      'LOC-BACK': { kind: 'location', location: label },
      '5901234123457': { kind: 'found', item: item() },
    };
    const machine = scannerMachine.provide({
      actors: {
        lookup: fromPromise(async ({ input }) => lookups[(input as { code: string }).code]!),
        adjust: fromPromise(({ input }) => adjustments(input as never)),
        places: fromPromise(async () =>
          placed([
            [SITE, 'Main store', BACK, 'Back room', 2],
            [SITE, 'Main store', MAIN_LOCATION_ID, 'Main location', 12],
          ]),
        ),
      },
      actions: { keepLocation: (_, { location }) => kept(location), openItem: () => undefined },
    });

    const first = createActor(machine, { input: { start: { kind: 'code', code: 'LOC-BACK' }, origin: 'x' } }).start();
    await waitFor(first, (s) => s.matches('locationSet'));
    const active = first.getSnapshot().context.active;
    expect(active).toEqual({ id: BACK, siteId: SITE, name: 'Back room', path: ['Back room'] });
    expect(kept).toHaveBeenCalledWith(active);

    // The next scan opens a new sheet, given the kept location.
    const next = createActor(machine, {
      input: { start: { kind: 'code', code: '5901234123457' }, origin: 'x', active },
    }).start();
    await waitFor(next, (s) => s.matches({ found: 'ready' }));
    expect(next.getSnapshot().context.here).toBe(2);
    next.send({ type: 'ADJUST', delta: 1 });
    await waitFor(next, (s) => s.matches({ found: 'ready' }) && adjustments.mock.calls.length === 1);
    expect(adjustments.mock.calls[0]![0]).toMatchObject({ itemId: 'i1', locationId: BACK });
    expect(next.getSnapshot().context.here).toBe(3);
    next.send({ type: 'MOVE_HERE', fromLocationId: MAIN_LOCATION_ID, quantity: 5 });
    await waitFor(next, (s) => s.matches({ found: 'ready' }) && adjustments.mock.calls.length === 2);
    expect(adjustments.mock.calls[1]![0]).toMatchObject({
      locationId: BACK,
      adjustment: { kind: 'move', fromLocationId: MAIN_LOCATION_ID, quantity: 5 },
    });
    expect(next.getSnapshot().context.here).toBe(7);

    next.send({ type: 'CLEAR_LOCATION' });
    expect(next.getSnapshot().context.active).toBeNull();
    expect(kept).toHaveBeenLastCalledWith(null);
    // Without a location, Move here is not taken.
    next.send({ type: 'MOVE_HERE', fromLocationId: MAIN_LOCATION_ID, quantity: 1 });
    expect(next.getSnapshot().matches({ found: 'ready' })).toBe(true);
  });
});
