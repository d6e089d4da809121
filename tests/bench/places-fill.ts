// The places bench's store: `sites` sites of `locationsPerSite` locations each (aisles at the
// top level, bins under them), and `items` items, each stocked at `levelsPerItem` locations,
// half at one site and half at another, so a site holds a fifth of the items (with the
// defaults: 10 sites, 1,000 locations, 100,000 items, 1,000,000 stock_levels rows) and a
// location about a thousand.
// Every event comes from the app's own decisions (createSite, createLocation, createCategory,
// createItem), an item's stock as the levels of its creation, the form a revert of a delete
// writes; they are appended through the projections' own set-based forms
// (backdated-append.ts), 500 items to a statement, so the fill takes minutes, and a replay
// of the log gives the same tables (tests/integration/places-bench-fill.test.ts).
import { randomUUID } from 'node:crypto';
import { categoryStream, itemStream, type StockLevels } from '../../shared/inventory-events.js';
import {
  evolveLocation,
  evolveSite,
  locationStream,
  siteStream,
  siteWithLocation,
  type LocationEvent,
} from '../../shared/sites.js';
import { createCategory } from '../../server/categories/decide.js';
import { createItem } from '../../server/inventory/decide.js';
import { createLocation, createSite, type LocationState, type SiteState } from '../../server/sites/decide.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import { appendBackdated, type BackdatedEvent } from './backdated-append.js';

const DAY = 86_400_000;
const CATEGORIES = 20;
/** Items per statement: the set-based forms read the batch once per item, so a bigger one costs more per item. */
const BATCH = 500;
const meta = { actor: { uid: 'bench', name: 'Bench' }, correlationId: 'bench-places' };

export interface PlacesFillOptions {
  sites?: number;
  locationsPerSite?: number;
  items?: number;
  /** Even, at most 2 x (locationsPerSite / 2): half at each of two sites. */
  levelsPerItem?: number;
  log?: (s: string) => void;
}

export interface PlacesFill {
  siteIds: string[];
  /** By site, its locations, aisles and bins alike. */
  locationIds: string[][];
  itemIds: string[];
}

const event = (
  stream: { id: string; type: string },
  version: number,
  made: { type: string; data: unknown },
  createdAt: Date,
): BackdatedEvent => ({
  streamId: stream.id,
  streamType: stream.type,
  streamVersion: version,
  type: made.type,
  data: made.data,
  createdAt,
});

/** The sites and their locations: one event each, made by the sites' decisions. */
function places(sites: number, perSite: number, at: Date): { events: BackdatedEvent[]; fill: PlacesFill } {
  const events: BackdatedEvent[] = [];
  const fill: PlacesFill = { siteIds: [], locationIds: [], itemIds: [] };
  const aisles = Math.max(1, Math.round(Math.sqrt(perSite)));
  for (let s = 0; s < sites; s++) {
    const siteId = randomUUID();
    const [created] = createSite({ siteId, name: `Bench store ${s + 1}`, code: `B${s + 1}`, timeZone: 'UTC' });
    events.push(event(siteStream(siteId), 1, created!, at));
    let site: SiteState = evolveSite(null, created!, { version: 1, at })!;
    const here: string[] = [];
    const aisleStates: LocationState[] = [];
    for (let l = 0; l < perSite; l++) {
      const locationId = randomUUID();
      const isAisle = l < aisles;
      const parent = isAisle ? null : aisleStates[l % aisles]!;
      const [made] = createLocation(
        {
          locationId,
          siteId,
          parentId: parent?.id ?? null,
          name: isAisle ? `Aisle ${l + 1}` : `Bin ${l + 1}`,
          code: isAisle ? `A${l + 1}` : `BIN-${l + 1}`,
        },
        site,
        parent,
      );
      const createdLocation = made as Extract<LocationEvent, { type: 'LocationCreated' }>;
      events.push(event(locationStream(locationId), 1, createdLocation, at));
      site = siteWithLocation(site, createdLocation);
      if (isAisle) aisleStates.push(evolveLocation(null, createdLocation, { version: 1, at })!);
      here.push(locationId);
    }
    fill.siteIds.push(siteId);
    fill.locationIds.push(here);
  }
  return { events, fill };
}

/**
 * Item i's levels: half at site i mod S, half at another, at locations spread evenly over
 * each (the m-th item of a site starts at its location m x 37, 37 being prime to the count,
 * so every location gets its share and items of every age).
 */
function levelsOf(i: number, fill: PlacesFill, perItem: number): StockLevels {
  const sites = fill.siteIds.length;
  const home = i % sites;
  const m = Math.floor(i / sites);
  const other = sites > 1 ? (home + 1 + (m % (sites - 1))) % sites : home;
  const levels: StockLevels = {};
  const half = perItem / 2;
  for (const [k, s] of [home, other].entries()) {
    const here = fill.locationIds[s]!;
    const step = Math.floor(here.length / half);
    for (let j = 0; j < half; j++) {
      const id = here[(m * 37 + k * 7 + j * step) % here.length]!;
      levels[id] = (levels[id] ?? 0) + 3 + ((i + j) % 20);
    }
  }
  return levels;
}

export async function fillPlacesStore(store: EventStore, options: PlacesFillOptions = {}): Promise<PlacesFill> {
  const { sites = 10, locationsPerSite = 100, items = 100_000, levelsPerItem = 10, log = () => {} } = options;
  const started = Date.now();
  // Items one millisecond apart, the last a minute ago; the places and categories before them.
  const first = started - 60_000 - items;
  const before = new Date(first - 1_000);
  const { events, fill } = places(sites, locationsPerSite, before);
  await appendBackdated(store, events, meta);
  const categoryIds = Array.from({ length: CATEGORIES }, () => randomUUID());
  await appendBackdated(
    store,
    categoryIds.map((categoryId, c) =>
      event(
        categoryStream(categoryId),
        1,
        createCategory({ categoryId, name: `Places Category ${c}`, description: '' })[0]!,
        before,
      ),
    ),
    meta,
  );
  let batch: BackdatedEvent[] = [];
  const flush = async () => {
    await appendBackdated(store, batch, meta);
    batch = [];
  };
  for (let i = 0; i < items; i++) {
    const itemId = randomUUID();
    const levels = levelsOf(i, fill, levelsPerItem);
    const fields = {
      name: `Shelf item ${i}`,
      description: `Places bench item ${i}`,
      sku: `PLACE-${i}`,
      categoryId: categoryIds[i % CATEGORIES]!,
      quantity: Object.values(levels).reduce((sum, units) => sum + units, 0),
      price: 1 + (i % 50),
      threshold: 5,
      imageUrl: null,
      expiryDate: null,
      barcode: null,
    };
    const at = new Date(first + i);
    // A statement keeps to one UTC day (backdated-append.ts).
    if (
      batch.length >= BATCH ||
      (batch.length && Math.floor(batch.at(-1)!.createdAt.getTime() / DAY) !== Math.floor(at.getTime() / DAY))
    )
      await flush();
    createItem({ itemId, fields, levels }, null).forEach((made, k) =>
      batch.push(event(itemStream(itemId), k + 1, made, at)),
    );
    fill.itemIds.push(itemId);
    if ((i + 1) % 20_000 === 0)
      log(`  places fill: ${(i + 1).toLocaleString('en-US')} items (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await flush();
  return fill;
}
