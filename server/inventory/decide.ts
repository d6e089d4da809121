// Item decisions: pure functions from (command, current state) to events. They throw typed
// domain errors; ids, the current state, the locations they name (stock-places.ts) and the
// time (`now`) come in, nothing is read from the outside. Stock is kept per location: a
// decision that puts or takes stock is given the location (`place`), and refuses what would
// leave that location below 0. Without a place (callers from before places, tests) stock is
// at MAIN_LOCATION_ID and the events name no location, as events from before places do.
import { ADJUST_MAX_AGE_MS, isLowStock, type AdjustReason } from '../../shared/inventory.js';
import type { Changes, InventoryEvent, ItemFields, StockLevels } from '../../shared/inventory-events.js';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { siteCrossings, type SiteOfLocation } from '../../shared/site-low-stock.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { checkField, checkFields } from './item-rules.js';
import { evolveItem } from '../../shared/inventory-fold.js';
import type { ItemState } from './item-state.js';
import {
  checkedAt,
  insufficientAt,
  placeNamed,
  placeOf,
  requireOpen,
  type Places,
  type SiteCheck,
  type StockPlace,
} from './stock-places.js';

export interface CreateItem {
  itemId: string;
  fields: ItemFields;
  /** Where its opening quantity goes (the request's location_id; absent: the site's default location). */
  locationId?: string;
  /** Its stock over several locations (a revert of its delete): wins over the place. */
  levels?: StockLevels;
  /** The caller's site, whose default location takes the stock when the command names none. */
  siteId?: string;
  /** May the caller put stock at this site (roles per site)? Throws the refusal. */
  atSite?: SiteCheck;
}
export interface UpdateItem {
  changes: Partial<ItemFields>;
  /** The editor's site: a changed quantity is a count at its default location. */
  siteId?: string;
  /** May the caller count stock at this site (roles per site)? Throws the refusal. */
  atSite?: SiteCheck;
}
export interface AdjustStock {
  delta: number;
  reason: AdjustReason;
  note?: string | null;
  /**
   * When it was made, if before it is recorded: as sent (the device's clock) until
   * recordAdjustment checks it; null: when recorded.
   */
  occurredAt?: Date | null;
  /** The location the request named; absent: the default location of `siteId`. */
  locationId?: string;
  /** The caller's site (places-sql.ts siteOfCaller); absent: no places are known (see the top). */
  siteId?: string;
  /** May the caller update stock at the location's site (roles per site)? Throws the refusal. */
  atSite?: SiteCheck;
}
export interface MoveStock {
  fromLocationId: string;
  toLocationId: string;
  quantity: number;
  note?: string | null;
  /** May the caller update stock at the site of both ends? Throws the refusal. */
  atSite?: SiteCheck;
}
/** What the stock handler (adjust-stock.ts) decides: adjustments and moves, of one item each. */
export type StockCommand = AdjustStock | MoveStock;

export const isMove = (command: StockCommand): command is MoveStock => 'fromLocationId' in command;

/** The location that isn't named (no place given): the one all stock was at before places. */
const MAIN: Pick<StockPlace, 'id' | 'name'> = { id: MAIN_LOCATION_ID, name: 'the main location' };

type Level = { quantity: number; threshold: number } | null;

/** The low-stock crossing, as its own event, so alerts come straight from the stream. */
function lowStockTransition(before: Level, after: Level): InventoryEvent[] {
  const wasLow = before ? isLowStock(before) : false;
  const isLow = after ? isLowStock(after) : false;
  if (!wasLow && isLow)
    return [{ type: 'ItemWentLow', data: { quantity: after!.quantity, threshold: after!.threshold } }];
  if (wasLow && !isLow && after) {
    return [{ type: 'ItemRecovered', data: { quantity: after.quantity, threshold: after.threshold } }];
  }
  return [];
}

/**
 * Where the item's locations are: as its row was read with them, else the location a command
 * names (`place`); the main location is always at the main site. Unknown otherwise (a state
 * folded from events alone): then no crossing per site is decided.
 */
export function siteOfLocation(state: ItemState | null, place?: Pick<StockPlace, 'id' | 'siteId'>): SiteOfLocation {
  return (locationId) =>
    state?.levelSites?.[locationId] ??
    (place && place.id === locationId ? place.siteId : undefined) ??
    (locationId === MAIN_LOCATION_ID ? MAIN_SITE_ID : undefined);
}

/**
 * The events, followed by the low-stock crossings they cause, if any: of the item's total,
 * then per site for an item watched per site (shared/site-low-stock.ts). The state they leave
 * is folded by the same fold that every reader of the stream uses.
 */
export function withCrossing(
  before: ItemState | null,
  events: InventoryEvent[],
  place?: Pick<StockPlace, 'id' | 'siteId'>,
): InventoryEvent[] {
  // Decisions read no clock: the time of the state after does not matter here.
  let after = before;
  for (const [k, event] of events.entries())
    after = evolveItem(after, event, { version: (before?.version ?? 0) + k + 1, at: null });
  return [
    ...events,
    ...lowStockTransition(before, after),
    ...siteCrossings(before, after, siteOfLocation(before, place)),
  ];
}

function live(state: ItemState | null): ItemState {
  if (!state || state.deleted) throw new NotFoundError('Item not found');
  return state;
}

export function createItem(command: CreateItem, state: ItemState | null, place?: StockPlace): InventoryEvent[] {
  if (state) throw new ConflictError('Item already exists');
  if (place && !command.levels) checkedAt(place, command.atSite);
  const fields = checkFields(command.fields);
  const where = command.levels ? { levels: command.levels } : place ? { locationId: requireOpen(place).id } : {};
  return withCrossing(null, [{ type: 'ItemCreated', data: { itemId: command.itemId, ...fields, ...where } }], place);
}

/**
 * The moment an adjustment sent later was made (`occurredAt` of the body), checked against the
 * server's clock: refused when older than a week; null when it is not before `now` (then it
 * happened when recorded, as any adjustment), also when a device clock runs ahead: a sale
 * must never be refused for a phone's wrong clock, it only loses its earlier moment. Only
 * stocktakes read it; the stock itself is the sum of deltas whatever their moments.
 */
export function adjustmentMoment(at: Date | undefined, now: Date): Date | null {
  if (at === undefined) return null;
  if (Number.isNaN(at.getTime())) throw new ValidationError('occurredAt must be a date-time');
  if (at.getTime() < now.getTime() - ADJUST_MAX_AGE_MS)
    throw new UnprocessableError('occurredAt is more than 7 days ago');
  return at.getTime() < now.getTime() ? at : null;
}

/**
 * A stock adjustment recorded at `now` (the app's clock). One made earlier and sent later (its
 * `occurredAt`, by the device's clock) keeps that moment if it checks out (adjustmentMoment).
 */
export function recordAdjustment(
  command: AdjustStock,
  current: ItemState | null,
  now: Date,
  places?: Places,
): InventoryEvent[] {
  const state = live(current);
  const place =
    places && command.siteId !== undefined
      ? checkedAt(placeOf(places, command.locationId, command.siteId, 'locationId'), command.atSite)
      : undefined;
  return adjustStock({ ...command, occurredAt: adjustmentMoment(command.occurredAt ?? undefined, now) }, state, place);
}

/**
 * Stock taken or put at one location. Below 0 there is refused; an adjustment that named no
 * location and would take the item's total below 0 gets the refusal it always got.
 */
export function adjustStock(command: AdjustStock, current: ItemState | null, place?: StockPlace): InventoryEvent[] {
  const state = live(current);
  if (!Number.isInteger(command.delta) || command.delta === 0)
    throw new ValidationError('delta must be a non-zero whole number');
  const at = place ? requireOpen(place) : MAIN;
  const quantity = state.quantity + command.delta;
  const there = state.levels[at.id] ?? 0;
  if (there + command.delta < 0) {
    if (command.locationId === undefined && quantity < 0)
      throw new ConflictError('Insufficient stock', { quantity: state.quantity });
    throw insufficientAt(at, there, state.quantity);
  }
  const occurredAt = command.occurredAt ? { occurredAt: command.occurredAt.toISOString() } : {};
  const where = place ? { locationId: place.id } : {};
  return withCrossing(
    state,
    [
      {
        type: 'StockAdjusted',
        data: {
          delta: command.delta,
          reason: command.reason,
          note: command.note ?? null,
          quantity,
          ...where,
          ...occurredAt,
        },
      },
    ],
    place,
  );
}

/** Stock taken from one location of a site to another of the same site: its total does not change. */
export function moveStock(
  command: MoveStock,
  current: ItemState | null,
  from: StockPlace,
  to: StockPlace,
): InventoryEvent[] {
  const state = live(current);
  if (!Number.isInteger(command.quantity) || command.quantity <= 0)
    throw new ValidationError('quantity must be a positive whole number', 'quantity');
  if (from.id === to.id) throw new ValidationError('A move needs two different locations', 'toLocationId');
  if (from.siteId !== to.siteId)
    throw new UnprocessableError('A move stays within a site; use a transfer between sites', 'toLocationId');
  requireOpen(from);
  requireOpen(to);
  const there = state.levels[from.id] ?? 0;
  if (there < command.quantity) throw insufficientAt(from, there, state.quantity);
  return [
    {
      type: 'StockMoved',
      data: { fromLocationId: from.id, toLocationId: to.id, quantity: command.quantity, note: command.note ?? null },
    },
  ];
}

/** A move as the stock handler decides it: its two locations looked up in what was loaded with it. */
export function recordMove(command: MoveStock, current: ItemState | null, places: Places): InventoryEvent[] {
  const state = live(current);
  const from = placeNamed(places, command.fromLocationId, 'fromLocationId');
  const to = placeNamed(places, command.toLocationId, 'toLocationId');
  // A user without rights at either end is refused before anything else is said about the move.
  checkedAt(from, command.atSite);
  checkedAt(to, command.atSite);
  return moveStock(command, state, from, to);
}

/** An adjustment or a move, decided on the places loaded with it (adjust-stock.ts). */
export function recordStockChange(
  command: StockCommand,
  current: ItemState | null,
  now: Date,
  places: Places,
): InventoryEvent[] {
  if (isMove(command)) return recordMove(command, current, places);
  // A batch carries its state from one command to the next, and an earlier command may have
  // put stock at a location new to the item (its row was read without it).
  return recordAdjustment(command, current?.levelSites ? withSitesOf(current, places) : current, now, places);
}

/** The state knowing the sites of these places too (see siteOfLocation). */
export function withSitesOf(state: ItemState, places: Places): ItemState {
  const named = Object.values(places.locations);
  if (named.every((p) => state.levelSites?.[p.id] !== undefined)) return state;
  return { ...state, levelSites: { ...Object.fromEntries(named.map((p) => [p.id, p.siteId])), ...state.levelSites } };
}

/**
 * An edit: changed fields become one ItemUpdated with their previous values; a changed
 * quantity is a stock count (StockAdjusted, reason `count`), so stock history stays whole,
 * made at `place` (the default location of the editor's site): the difference is there.
 */
export function updateItem(command: UpdateItem, current: ItemState | null, place?: StockPlace): InventoryEvent[] {
  const state = live(current);
  const changes: Changes<Omit<ItemFields, 'quantity'>> = {};
  for (const [key, raw] of Object.entries(command.changes) as [keyof ItemFields, ItemFields[keyof ItemFields]][]) {
    if (raw === undefined || key === 'quantity') continue;
    const value = checkField(key, raw);
    if (value !== state[key]) (changes as any)[key] = { from: state[key], to: value };
  }
  const events: InventoryEvent[] = [];
  if (Object.keys(changes).length > 0) events.push({ type: 'ItemUpdated', data: { changes } });
  if (command.changes.quantity !== undefined) {
    const counted = checkField('quantity', command.changes.quantity);
    if (counted !== state.quantity) {
      const delta = counted - state.quantity;
      const at = place ? requireOpen(checkedAt(place, command.atSite)) : MAIN;
      const there = state.levels[at.id] ?? 0;
      if (there + delta < 0) throw insufficientAt(at, there, state.quantity);
      events.push({
        type: 'StockAdjusted',
        data: { delta, reason: 'count', note: null, quantity: counted, ...(place ? { locationId: place.id } : {}) },
      });
    }
  }
  return withCrossing(state, events, place);
}

export interface SetSiteThreshold {
  siteId: string;
  /** null: the site uses the item's threshold again. */
  threshold: number | null;
}

/** The site a threshold is set at, as loaded with the command (null: no such site). */
export interface ThresholdSite {
  id: string;
  name: string;
  archived: boolean;
}

/**
 * The item's own low-stock threshold at a site, or clearing it: the same value again changes
 * nothing; an archived site takes no new threshold (clearing one is allowed). The crossings it
 * causes at the site, and at others when the item starts or stops being watched per site,
 * come with it.
 */
export function setSiteThreshold(
  command: SetSiteThreshold,
  current: ItemState | null,
  site: ThresholdSite | null,
): InventoryEvent[] {
  const state = live(current);
  if (!site) throw new NotFoundError('Site not found');
  const threshold = command.threshold === null ? null : checkField('threshold', command.threshold);
  const siteId = site.id.toLowerCase();
  const was = state.siteThresholds?.[siteId] ?? null;
  if (was === threshold) return [];
  if (site.archived && threshold !== null)
    throw new ConflictError(`${site.name} is archived: restore it to set a threshold there`);
  return withCrossing(state, [{ type: 'SiteThresholdSet', data: { siteId, threshold } }]);
}

export function deleteItem(current: ItemState | null): InventoryEvent[] {
  const state = live(current);
  // A transfer still has units of it on their way: they would arrive for an item that is gone.
  if (state.inTransit > 0)
    throw new ConflictError(
      `${state.name} has ${state.inTransit} ${state.inTransit === 1 ? 'unit' : 'units'} in transit: receive or write them off first`,
      { inTransit: state.inTransit },
    );
  return [{ type: 'ItemDeleted', data: { name: state.name, sku: state.sku } }];
}
