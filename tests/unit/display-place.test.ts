// The wall display's place, kept in its URL, and the places its picker offers: the whole
// store, each active site by name followed by its active locations as a tree, and nothing to
// choose in a store of one site with one location.
import { describe, expect, it } from 'vitest';
import type { Location, Site } from '../../shared/sites.js';
import {
  placeChoices,
  placeOfSearch,
  placeOfValue,
  placeValue,
  searchWithPlace,
} from '../../client/features/display/display-place.js';

const site = (id: string, name: string, archived = false): Site => ({
  id,
  name,
  code: id.toUpperCase(),
  address: '',
  timeZone: 'UTC',
  defaultLocationId: null,
  archivedAt: archived ? '2030-01-01T00:00:00.000Z' : null,
  version: 1,
  createdAt: null,
  updatedAt: null,
});
const location = (
  id: string,
  siteId: string,
  name: string,
  parentId: string | null = null,
  archived = false,
): Location => ({
  id,
  siteId,
  parentId,
  name,
  code: id.toUpperCase(),
  barcode: null,
  archivedAt: archived ? '2030-01-01T00:00:00.000Z' : null,
  version: 1,
  createdAt: null,
  updatedAt: null,
});

describe('the place a wall display shows', () => {
  it('reads it from the URL and writes it back, keeping the other settings', () => {
    expect(placeOfSearch('?rotate=5')).toBeNull();
    expect(placeOfSearch('?siteId=s2&rotate=5')).toEqual({ siteId: 's2' });
    expect(placeOfSearch('?locationId=l1')).toEqual({ locationId: 'l1' });
    expect(searchWithPlace('?rotate=5&siteId=s2', { locationId: 'l1' })).toBe('?rotate=5&locationId=l1');
    expect(searchWithPlace('?siteId=s2', null)).toBe('');
    for (const place of [null, { siteId: 's2' }, { locationId: 'l1' }])
      expect(placeOfValue(placeValue(place))).toEqual(place);
  });

  it('offers active sites by name, each with its active locations as a tree', () => {
    const sites = [site('s2', 'Shop 2'), site('main', 'Main store'), site('old', 'Old depot', true)];
    const locations = [
      location('ml', 'main', 'Main location'),
      location('ch', 's2', 'Chiller'),
      location('bk', 's2', 'Back room'),
      location('sh', 's2', 'Shelf 1', 'bk'),
      location('gone', 's2', 'Gone', null, true),
      location('od', 'old', 'Old dock'),
    ];
    expect(placeChoices(sites, locations)).toEqual([
      { value: 'site:main', label: 'Main store', depth: 0 },
      { value: 'location:ml', label: 'Main location', depth: 1 },
      { value: 'site:s2', label: 'Shop 2', depth: 0 },
      { value: 'location:bk', label: 'Back room', depth: 1 },
      { value: 'location:sh', label: 'Shelf 1', depth: 2 },
      { value: 'location:ch', label: 'Chiller', depth: 1 },
    ]);
  });

  it('offers nothing where every choice would be the whole store', () => {
    expect(placeChoices([site('main', 'Main store')], [location('ml', 'main', 'Main location')])).toEqual([]);
    expect(
      placeChoices(
        [site('main', 'Main store'), site('old', 'Old depot', true)],
        [location('ml', 'main', 'Main location'), location('od', 'old', 'Old dock')],
      ),
    ).toEqual([]);
    // One site with two locations: each location is a choice.
    expect(
      placeChoices(
        [site('main', 'Main store')],
        [location('ml', 'main', 'Main location'), location('bk', 'main', 'Back room')],
      ).map((c) => c.label),
    ).toEqual(['Main store', 'Back room', 'Main location']);
  });
});
