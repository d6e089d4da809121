// The scanner's calls, through the shared API client (token, idempotency keys, retries):
// find what a code names (an item, or a location's shelf label: its barcode, or its code at
// the site this browser works at), and change stock from the quick sheet, at the active
// location when a label made one active.
import type { AdjustReason, Item, ItemLocations } from '../../../shared/inventory';
import type { FoundLocation, Site } from '../../../shared/sites';
import { api, isStatus } from '../../lib/api-client';
import { chosenSite } from '../../lib/chosen-site';
import type { ScannedCode } from './scanned-code';

export type LookupResult =
  { kind: 'found'; item: Item } | { kind: 'location'; location: FoundLocation } | { kind: 'unknown'; code: string };

const enc = encodeURIComponent;

/** A 404 means "no such item"; anything else is a real failure and is thrown. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isStatus(error, 404)) return null;
    throw error;
  }
}

/**
 * The location a label names: its barcode (unique in the store), else its code at the site
 * this browser works at, or, with All sites, at the one active site that has that code.
 */
async function findLocation(code: string): Promise<FoundLocation | null> {
  const byBarcode = await orNull(api.get<FoundLocation>(`/locations/by-code?barcode=${enc(code)}`));
  if (byBarcode) return byBarcode;
  const chosen = chosenSite();
  const siteIds = chosen ? [chosen] : (await api.get<Site[]>('/sites')).filter((s) => !s.archivedAt).map((s) => s.id);
  const found = (
    await Promise.all(
      siteIds.map((siteId) =>
        orNull(api.get<FoundLocation>(`/locations/by-code?siteId=${enc(siteId)}&code=${enc(code)}`)),
      ),
    )
  ).filter((l): l is FoundLocation => l !== null && !l.archivedAt);
  // The same code at two sites names neither: the site picker says which.
  return found.length === 1 ? found[0]! : null;
}

export async function lookUpCode(scanned: ScannedCode): Promise<LookupResult> {
  if (scanned.kind === 'item-url') {
    const item = await orNull(api.get<Item>(`/inventory/${enc(scanned.itemId)}`));
    return item ? { kind: 'found', item } : { kind: 'unknown', code: scanned.text };
  }
  for (const code of [scanned.code, ...scanned.alternates]) {
    const item = await orNull(api.get<Item>(`/inventory/by-barcode/${enc(code)}`));
    if (item) return { kind: 'found', item };
  }
  const location = await findLocation(scanned.code);
  if (location) return { kind: 'location', location };
  return { kind: 'unknown', code: scanned.code };
}

/** The item's units at a location (0 where it never was). */
export async function unitsAt(itemId: string, locationId: string): Promise<number> {
  const places = await api.get<ItemLocations>(`/inventory/${enc(itemId)}/locations`);
  return places.locations.find((l) => l.locationId === locationId)?.quantity ?? 0;
}

/** Where an item is, to move some of it to the active location. */
export const itemPlaces = (itemId: string) => api.get<ItemLocations>(`/inventory/${enc(itemId)}/locations`);

export interface AdjustOutcome {
  item: Item;
  /** False when a count matched the stock already and nothing was written. */
  changed: boolean;
  /** With a location active: the units there after it, and where the item is now. */
  here?: number;
  places?: ItemLocations;
}

/** Where the item is now, and its units at the location. */
async function placedAt(itemId: string, locationId: string): Promise<{ here: number; places: ItemLocations }> {
  const places = await itemPlaces(itemId);
  return { places, here: places.locations.find((l) => l.locationId === locationId)?.quantity ?? 0 };
}

export type QuickAdjustment =
  | { kind: 'delta'; delta: 1 | -1 }
  | { kind: 'count'; counted: number }
  | { kind: 'move'; fromLocationId: string; quantity: number };

/**
 * Applies a quick-sheet adjustment and answers the item as it now is. A count is turned
 * into a delta against the quantity read just now, not the one shown when the sheet
 * opened, so someone else's sale in between is not undone. At an active location, the
 * change is made there (a count counts what is there) and a move brings units there.
 */
export async function applyQuickAdjustment(
  itemId: string,
  adjustment: QuickAdjustment,
  locationId?: string,
): Promise<AdjustOutcome> {
  if (adjustment.kind === 'move') {
    if (!locationId) throw new Error('Scan a location label first');
    const item = await api.post<Item>('/moves', {
      itemId,
      fromLocationId: adjustment.fromLocationId,
      toLocationId: locationId,
      quantity: adjustment.quantity,
    });
    return { item, changed: true, ...(await placedAt(itemId, locationId)) };
  }
  let delta: number;
  let reason: AdjustReason;
  if (adjustment.kind === 'count') {
    const [item, here] = await Promise.all([
      api.get<Item>(`/inventory/${enc(itemId)}`),
      locationId ? unitsAt(itemId, locationId) : Promise.resolve(undefined),
    ]);
    delta = adjustment.counted - (here ?? item.quantity);
    if (delta === 0) return { item, changed: false, ...(here === undefined ? {} : { here }) };
    reason = 'count';
  } else {
    delta = adjustment.delta;
    reason = 'correction'; // as the +/- buttons on item cards
  }
  const item = await api.post<Item>(`/inventory/${enc(itemId)}/adjust`, {
    delta,
    reason,
    ...(locationId ? { locationId } : {}),
  });
  return { item, changed: true, ...(locationId ? await placedAt(itemId, locationId) : {}) };
}
