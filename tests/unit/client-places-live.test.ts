// The Sites and locations page's live data: feed events folded in by the shared fold, in
// stream order; a gap or an unknown place reads the lists again; a site's first location
// becomes its default on screen as on the server; a write's answer never undoes a newer event.
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../shared/realtime.js';
import type { Location, Site } from '../../shared/sites.js';
import { applyAnswer, reducePlaces, type PlacesData } from '../../client/features/places/places.machine.js';
import { pathText, subtreeIds, treeRows } from '../../client/features/places/place-tree.js';

const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const site: Site = {
  id: 's1',
  name: 'Corner shop',
  code: 'CS',
  address: '',
  timeZone: 'UTC',
  defaultLocationId: null,
  archivedAt: null,
  version: 1,
  createdAt: t0,
  updatedAt: t0,
};
const location = (id: string, parentId: string | null, over: Partial<Location> = {}): Location => ({
  id,
  siteId: 's1',
  parentId,
  name: id,
  code: id.toUpperCase(),
  barcode: null,
  archivedAt: null,
  version: 1,
  createdAt: t0,
  updatedAt: t0,
  ...over,
});
const feed = (streamType: string, id: string, version: number, type: string, data: unknown): FeedEvent => ({
  type,
  stream: `${streamType}-${id}`,
  streamType,
  version,
  data,
  actor: { uid: 'u', name: 'Mona' },
  time: t1,
});

function apply(data: PlacesData, event: FeedEvent) {
  let effect = '';
  const next = produce(data, (draft) => {
    effect = reducePlaces(draft, event);
  });
  return { next, effect };
}

describe('the Sites and locations live data', () => {
  it("folds a new location in, and makes a site's first location its default", () => {
    const { next, effect } = apply(
      { sites: [site], locations: [] },
      feed('location', 'back', 1, 'LocationCreated', {
        locationId: 'back',
        siteId: 's1',
        parentId: null,
        name: 'Back room',
        code: 'BACK',
        barcode: null,
      }),
    );
    expect(effect).toBe('applied');
    expect(next.locations[0]).toMatchObject({ id: 'back', name: 'Back room', version: 1, createdAt: t1 });
    expect(next.sites[0]!.defaultLocationId).toBe('back');
    expect(next.sites[0]!.version).toBe(1);
  });

  it('applies edits, moves and archives in order, and reads again after a gap', () => {
    const data = { sites: [site], locations: [location('back', null), location('bin', 'back')] };
    const moved = apply(data, feed('location', 'bin', 2, 'LocationMoved', { fromParentId: 'back', toParentId: null }));
    expect(moved.next.locations[1]).toMatchObject({ parentId: null, version: 2, updatedAt: t1 });
    const archived = apply(data, feed('site', 's1', 2, 'SiteArchived', {}));
    expect(archived.next.sites[0]!.archivedAt).toBe(t1);
    expect(apply(data, feed('location', 'bin', 3, 'LocationArchived', {})).effect).toBe('refetch');
    expect(apply(data, feed('location', 'nobody', 2, 'LocationArchived', {})).effect).toBe('refetch');
    // Seen already (the page's own write answered first).
    expect(apply(data, feed('location', 'bin', 1, 'LocationCreated', {})).effect).toBe('ignored');
    expect(apply(data, feed('item', 'i1', 2, 'StockAdjusted', {})).effect).toBe('ignored');
  });

  it("takes a write's answer unless the list already holds a newer version", () => {
    const data = { sites: [site], locations: [location('back', null, { version: 3, name: 'Newer' })] };
    const older = produce(data, (d) => void applyAnswer(d, location('back', null, { version: 2, name: 'Older' })));
    expect(older.locations[0]!.name).toBe('Newer');
    const newer = produce(data, (d) => void applyAnswer(d, location('back', null, { version: 4, name: 'Newest' })));
    expect(newer.locations[0]!.name).toBe('Newest');
  });

  it('shows the tree depth first, siblings by name, and knows what is inside a location', () => {
    const all = [
      location('shelf', 'back', { name: 'Shelf 2' }),
      location('back', null, { name: 'Back room' }),
      location('bin', 'shelf', { name: 'Bin 14' }),
      location('front', null, { name: 'Front', archivedAt: t0 }),
    ];
    expect(treeRows(all, 's1').map((r) => [r.location.name, r.depth])).toEqual([
      ['Back room', 0],
      ['Shelf 2', 1],
      ['Bin 14', 2],
    ]);
    expect(treeRows(all, 's1', true).map((r) => r.location.name)).toContain('Front');
    expect([...subtreeIds(all, 'shelf')].sort()).toEqual(['bin', 'shelf']);
    expect(pathText(all, 'bin')).toBe('Back room › Shelf 2 › Bin 14');
  });
});
