// Site and location decisions: pure functions from (command, the state and facts it depends
// on) to events. The service reads the facts (stock held, the parent, the tree above it)
// with the rows locked, and passes them in; nothing here reads the database or the clock.
import type { Changes } from '../../shared/inventory-events.js';
import {
  canonicalTimeZone,
  checkPlaceCode,
  type FoldedLocation,
  type FoldedSite,
  type LocationEvent,
  type LocationFields,
  type SiteEvent,
  type SiteFields,
} from '../../shared/sites.js';
import { checkBarcode } from '../../shared/barcode.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';

export type SiteState = FoldedSite<Date>;
export type LocationState = FoldedLocation<Date>;

/** Stock at a place (at it or anywhere below it): what an archive is refused for. */
export interface StockHeld {
  units: number;
  items: number;
  /** Names of the locations holding it, when that is somewhere below the place (the first few). */
  below: string[];
}

export const NO_STOCK: StockHeld = { units: 0, items: 0, below: [] };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Back room still holds 14 units of 3 items (at Shelf 2, Bin 4): move them first" */
export function stockRefusal(placeName: string, stock: StockHeld): string {
  const where = stock.below.length ? ` (at ${stock.below.join(', ')})` : '';
  return `${placeName} still holds ${plural(stock.units, 'unit', 'units')} of ${plural(stock.items, 'item', 'items')}${where}: move them first`;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError('name is required', 'name');
  return trimmed;
}

function checkCode(code: string): string {
  const checked = checkPlaceCode(code);
  if (!checked.ok) throw new ValidationError(checked.error, 'code');
  return checked.code;
}

function checkTimeZone(timeZone: string): string {
  const zone = canonicalTimeZone(timeZone);
  if (!zone)
    throw new ValidationError(
      `${timeZone.trim() || 'Time zone'} is not a time zone (for example Europe/Paris)`,
      'time_zone',
    );
  return zone;
}

/** A label's barcode, checked as item barcodes are; empty or null: none. */
function checkLocationBarcode(barcode: string | null | undefined): string | null {
  if (barcode === null || barcode === undefined || barcode.trim() === '') return null;
  const checked = checkBarcode(barcode);
  if (!checked.ok) throw new ValidationError(checked.error, 'barcode');
  return checked.code;
}

/** The changes of the fields given that differ from the state's. */
function changesOf<F extends object>(state: F, next: Partial<F>): Changes<F> {
  const changes: Changes<F> = {};
  for (const key of Object.keys(next) as (keyof F)[]) {
    const to = next[key];
    if (to !== undefined && to !== state[key]) changes[key] = { from: state[key], to: to as F[typeof key] };
  }
  return changes;
}

// Sites

export interface CreateSite {
  siteId: string;
  name: string;
  code: string;
  address?: string;
  timeZone: string;
}

export function createSite(command: CreateSite): SiteEvent[] {
  return [
    {
      type: 'SiteCreated',
      data: {
        siteId: command.siteId,
        name: checkName(command.name),
        code: checkCode(command.code),
        address: (command.address ?? '').trim(),
        timeZone: checkTimeZone(command.timeZone),
      },
    },
  ];
}

export interface UpdateSite {
  name?: string;
  code?: string;
  address?: string;
  timeZone?: string;
  defaultLocationId?: string;
}

/** `newDefault`: the location named as the new default, as it is now (null: there is none of that id). */
export function updateSite(
  command: UpdateSite,
  state: SiteState | null,
  newDefault: LocationState | null = null,
): SiteEvent[] {
  if (!state) throw new NotFoundError('Site not found');
  const next: Partial<SiteFields> = {};
  if (command.name !== undefined) next.name = checkName(command.name);
  if (command.code !== undefined) next.code = checkCode(command.code);
  if (command.address !== undefined) next.address = command.address.trim();
  if (command.timeZone !== undefined) next.timeZone = checkTimeZone(command.timeZone);
  const events: SiteEvent[] = [];
  const changes = changesOf<SiteFields>(state, next);
  if (Object.keys(changes).length) events.push({ type: 'SiteUpdated', data: { changes } });
  const wanted = command.defaultLocationId;
  if (wanted !== undefined && wanted !== state.defaultLocationId) {
    if (!newDefault || newDefault.siteId !== state.id)
      throw new ValidationError(`default_location_id: no such location at ${state.name}`, 'default_location_id');
    if (newDefault.archivedAt)
      throw new ConflictError(`${newDefault.name} is archived: restore it before making it the default`, {
        field: 'default_location_id',
      });
    events.push({ type: 'SiteDefaultLocationSet', data: { locationId: wanted } });
  }
  return events;
}

/** `activeSites`: how many sites are not archived, this one included. */
export function archiveSite(state: SiteState | null, stock: StockHeld, activeSites: number): SiteEvent[] {
  if (!state) throw new NotFoundError('Site not found');
  if (state.archivedAt) return [];
  if (stock.units > 0) throw new ConflictError(stockRefusal(state.name, stock));
  if (activeSites <= 1) throw new ConflictError(`${state.name} is the only active site: the store needs one`);
  return [{ type: 'SiteArchived', data: {} }];
}

export function restoreSite(state: SiteState | null): SiteEvent[] {
  if (!state) throw new NotFoundError('Site not found');
  return state.archivedAt ? [{ type: 'SiteRestored', data: {} }] : [];
}

// Locations

/** An archived site takes no new locations and no moves, and nothing there comes back. */
function requireActiveSite(site: SiteState | null, field?: string): asserts site is SiteState {
  if (!site) throw new ValidationError(`${field ?? 'site_id'}: Site not found`, field ?? 'site_id');
  if (site.archivedAt) throw new ConflictError(`${site.name} is archived: restore it first`);
}

/**
 * A parent a location may go under: one of the same site, not archived. `parentId` names the
 * parent asked for; `parent` is what was found of that id (null: nothing).
 */
function checkParent(parentId: string, parent: LocationState | null, site: SiteState): LocationState {
  if (!parent) throw new ValidationError('parent_id: Location not found', 'parent_id');
  if (parent.siteId !== site.id)
    throw new ValidationError(`parent_id: ${parent.name} is at another site, not ${site.name}`, 'parent_id');
  if (parent.archivedAt)
    throw new ConflictError(`${parent.name} is archived: it takes no locations`, { field: 'parent_id' });
  return parent;
}

export interface CreateLocation {
  locationId: string;
  siteId: string;
  parentId: string | null;
  name: string;
  code: string;
  barcode?: string | null;
}

export function createLocation(
  command: CreateLocation,
  site: SiteState | null,
  parent: LocationState | null,
): LocationEvent[] {
  requireActiveSite(site);
  if (command.parentId !== null) checkParent(command.parentId, parent, site);
  return [
    {
      type: 'LocationCreated',
      data: {
        locationId: command.locationId,
        siteId: site.id,
        parentId: command.parentId,
        name: checkName(command.name),
        code: checkCode(command.code),
        barcode: checkLocationBarcode(command.barcode),
      },
    },
  ];
}

export interface UpdateLocation {
  name?: string;
  code?: string;
  barcode?: string | null;
}

export function updateLocation(command: UpdateLocation, state: LocationState | null): LocationEvent[] {
  if (!state) throw new NotFoundError('Location not found');
  const next: Partial<LocationFields> = {};
  if (command.name !== undefined) next.name = checkName(command.name);
  if (command.code !== undefined) next.code = checkCode(command.code);
  if (command.barcode !== undefined) next.barcode = checkLocationBarcode(command.barcode);
  const changes = changesOf<LocationFields>(state, next);
  return Object.keys(changes).length ? [{ type: 'LocationUpdated', data: { changes } }] : [];
}

/**
 * Reparents a location within its site. `parent`: the new parent as it is (null for the top
 * level, or when none has that id); `parentAncestors`: the ids from the new parent up to the
 * top, the parent's own first, so a move into the location's own subtree is seen.
 */
export function moveLocation(
  toParentId: string | null,
  state: LocationState | null,
  site: SiteState | null,
  parent: LocationState | null,
  parentAncestors: readonly string[],
): LocationEvent[] {
  if (!state) throw new NotFoundError('Location not found');
  requireActiveSite(site, 'parent_id');
  if (state.archivedAt) throw new ConflictError(`${state.name} is archived: restore it before moving it`);
  if (toParentId === state.parentId) return [];
  if (toParentId !== null) {
    const to = checkParent(toParentId, parent, site);
    if (to.id === state.id || parentAncestors.includes(state.id))
      throw new ValidationError(
        `parent_id: ${to.name} is inside ${state.name}: a location cannot go inside itself`,
        'parent_id',
      );
  }
  return [{ type: 'LocationMoved', data: { fromParentId: state.parentId, toParentId } }];
}

/** What an archive depends on besides the location itself. */
export interface ArchiveFacts {
  site: SiteState;
  stock: StockHeld;
  /** Names of its children that are not archived. */
  activeChildren: string[];
}

export function archiveLocation(state: LocationState | null, facts: ArchiveFacts | null): LocationEvent[] {
  if (!state || !facts) throw new NotFoundError('Location not found');
  if (state.archivedAt) return [];
  if (facts.stock.units > 0) throw new ConflictError(stockRefusal(state.name, facts.stock));
  // Even at an archived site: restored, it would send stock to an archived location.
  if (facts.site.defaultLocationId === state.id)
    throw new ConflictError(
      `${state.name} is where stock goes at ${facts.site.name} by default: choose another default location first`,
    );
  if (facts.activeChildren.length)
    throw new ConflictError(
      `${state.name} still has ${plural(facts.activeChildren.length, 'location', 'locations')} inside (${facts.activeChildren
        .slice(0, 3)
        .join(', ')}${facts.activeChildren.length > 3 ? ', …' : ''}): archive or move them first`,
    );
  return [{ type: 'LocationArchived', data: {} }];
}

/** `parent`: the location's parent as it is (null at the top level). */
export function restoreLocation(
  state: LocationState | null,
  site: SiteState | null,
  parent: LocationState | null,
): LocationEvent[] {
  if (!state) throw new NotFoundError('Location not found');
  if (!state.archivedAt) return [];
  requireActiveSite(site);
  if (parent?.archivedAt) throw new ConflictError(`${parent.name} is archived: restore it first`);
  return [{ type: 'LocationRestored', data: {} }];
}
