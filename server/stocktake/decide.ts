// Stocktake decisions: pure functions from (command, session state, now) to events. The
// service reads the state (the session, its lines, their counts with the stock of each
// count's moment) and passes the time in; nothing here reads a clock or the database.
// A line is an item at a location: counts and approvals name both, so a count at one
// location never posts to another.
import {
  COUNT_CLOCK_SKEW_MS,
  lineKey,
  type ApprovedLine,
  type PersonRef,
  type StocktakeEvent,
  type StocktakeScope,
} from '../../shared/stocktake.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { readLine, type CountAt } from './line-status.js';

export interface SessionLine {
  itemId: string;
  locationId: string;
  approved: boolean;
}

export interface SessionState {
  id: string;
  name: string;
  status: 'open' | 'closed';
  startedAt: Date;
  siteId: string;
  /** The locations counts may name. */
  locationIds: ReadonlySet<string>;
  /** Where a count that names no location goes. */
  homeLocationId: string;
  /** The session's lines by lineKey: approved or not. */
  lines: Map<string, SessionLine>;
}

/** Where a session counts, as the service resolved it from the request. */
export interface StartPlace {
  siteId: string;
  /** null: the whole site. */
  locationId: string | null;
  /** The place's active locations: the site's, or the location and those inside it. */
  locationIds: string[];
  homeLocationId: string;
}

/**
 * A session's start. `stockAt` says, for each item, the locations of the place where it has
 * stock rows (a location it was ever at, 0 included): it is counted at each of them, and
 * at the home location when it has none there.
 */
export function startStocktake(command: {
  stocktakeId: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
  categoryIds?: string[];
  itemIds: string[];
  place: StartPlace;
  stockAt: ReadonlyMap<string, readonly string[]>;
}): StocktakeEvent[] {
  const { place, stockAt, ...rest } = command;
  const name = command.name.trim();
  if (!name) throw new ValidationError('name must not be empty');
  if (name.length > 100) throw new ValidationError('name must be at most 100 characters');
  if (command.itemIds.length === 0) throw new UnprocessableError('There are no items to count');
  const itemIds = [...new Set(command.itemIds)];
  const index = new Map(place.locationIds.map((id, i) => [id, i]));
  const lineLocations = itemIds.map((id) =>
    (stockAt.get(id) ?? []).flatMap((at) => (index.has(at) ? [index.get(at)!] : [])),
  );
  // Every item at the home location alone (a place of one location): nothing to say per item.
  const homeOnly = lineLocations.every(
    (at) => at.length === 0 || (at.length === 1 && at[0] === index.get(place.homeLocationId)),
  );
  return [
    {
      type: 'StocktakeStarted',
      data: { ...rest, name, itemIds, ...place, ...(homeOnly ? {} : { lineLocations }) },
    },
  ];
}

function open(session: SessionState | null): SessionState {
  if (!session) throw new NotFoundError('Stocktake not found');
  if (session.status === 'closed') throw new ConflictError('This stocktake is closed');
  return session;
}

/**
 * A count: of an item of the session whose line is not approved yet, counted at a moment
 * the session was open (a phone clock a little ahead or behind is allowed for).
 */
export function countStock(
  command: { itemId: string; locationId?: string; counted: number; countedAt: Date },
  current: SessionState | null,
  now: Date,
): StocktakeEvent[] {
  const session = open(current);
  if (!Number.isInteger(command.counted) || command.counted < 0)
    throw new ValidationError('counted must be a whole number of 0 or more');
  const at = command.countedAt.getTime();
  if (Number.isNaN(at)) throw new ValidationError('countedAt must be a date-time');
  if (at > now.getTime() + COUNT_CLOCK_SKEW_MS)
    throw new UnprocessableError('countedAt is in the future: check the device clock');
  if (at < session.startedAt.getTime() - COUNT_CLOCK_SKEW_MS)
    throw new UnprocessableError('countedAt is before this stocktake started');
  const locationId = (command.locationId ?? session.homeLocationId).toLowerCase();
  if (!session.locationIds.has(locationId))
    throw new UnprocessableError('This location is not part of this stocktake', 'locationId');
  if (![...session.lines.values()].some((l) => l.itemId === command.itemId))
    throw new UnprocessableError('This item is not part of this stocktake');
  // Found at a location of the place it has no line at: the count opens that line.
  if (session.lines.get(lineKey({ itemId: command.itemId, locationId }))?.approved)
    throw new ConflictError("This item's count was already approved");
  return [
    {
      type: 'StockCounted',
      data: {
        itemId: command.itemId,
        locationId,
        counted: command.counted,
        countedAt: command.countedAt.toISOString(),
      },
    },
  ];
}

/** A count as an approval sees it: with who counted it (the approval credits them, not the approver). */
export interface CountToPost extends CountAt {
  counter: PersonRef;
}

export interface LineToApprove {
  itemId: string;
  locationId: string;
  /** The item's name, and the location's (for messages about a session of several locations). */
  name: string;
  locationName: string;
  counts: CountToPost[];
  /** Chosen by the manager for a line whose counts disagree. */
  countId?: string;
}

/** How messages name a line: the item, and where when the session counts at several locations. */
export function lineName(line: Pick<LineToApprove, 'name' | 'locationName'>, session: SessionState): string {
  return session.locationIds.size > 1 ? `${line.name} at ${line.locationName}` : line.name;
}

/** The line's count to post, or why it cannot be posted yet. */
function chosenCount(line: LineToApprove, name: string): CountToPost {
  if (line.countId) {
    const chosen = line.counts.find((c) => c.id === line.countId);
    if (!chosen) throw new UnprocessableError(`countId is not a count of ${name}`);
    return chosen;
  }
  const reading = readLine(line.counts);
  if (reading.kind === 'uncounted') throw new ConflictError(`${name} has not been counted yet`);
  if (reading.kind === 'conflict')
    throw new ConflictError(`${name} was counted twice with different numbers: choose which count to keep`);
  return reading.count;
}

/** A line as an approval posts it: the numbers the service posts (never put in the session's events). */
export interface PostedLine {
  itemId: string;
  /** Where the count was made: the adjustment is made there and nowhere else. */
  locationId: string;
  countId: string;
  counted: number;
  countedAt: string;
  /** Who counted it: the adjustment and the session's event name them beside the approver. */
  countedBy: PersonRef;
  expected: number;
  /** counted - expected: the `count` adjustment to post (none when 0). */
  delta: number;
}

/**
 * Approves lines: each posts `counted - quantity at the moment of counting`. The adjustments
 * themselves are the inventory's decision (the service runs adjustStock for each delta).
 */
export function approveLines(lines: LineToApprove[], current: SessionState | null): PostedLine[] {
  const session = open(current);
  return lines.map((line): PostedLine => {
    const name = lineName(line, session);
    if (session.lines.get(lineKey(line))?.approved) throw new ConflictError(`${name} was already approved`);
    const count = chosenCount(line, name);
    if (count.expected === null) throw new ConflictError(`${line.name} no longer exists`);
    return {
      itemId: line.itemId,
      locationId: line.locationId,
      countId: count.id,
      counted: count.counted,
      countedAt: count.countedAt.toISOString(),
      countedBy: count.counter,
      expected: count.expected,
      delta: count.counted - count.expected,
    };
  });
}

/**
 * The session's event for posted lines: which count each posted and which adjustment of the
 * item carries the difference (`adjustmentVersions`, by lineKey: the item stream's version of
 * it, for lines that moved stock). Expected quantities and differences stay out (see ApprovedLine).
 */
export function linesApproved(posted: PostedLine[], adjustmentVersions: ReadonlyMap<string, number>): StocktakeEvent[] {
  if (posted.length === 0) return [];
  const lines = posted.map((line): ApprovedLine => {
    const { itemId, locationId, countId, counted, countedAt, countedBy, delta } = line;
    const version = adjustmentVersions.get(lineKey(line));
    if (delta !== 0 && version === undefined) throw new Error(`no adjustment posted for ${lineKey(line)}`);
    return {
      itemId,
      locationId,
      countId,
      countedBy,
      counted,
      countedAt,
      adjustmentVersion: delta === 0 ? null : version!,
    };
  });
  return [{ type: 'StocktakeLinesApproved', data: { lines } }];
}

/** Approve all: every counted line not yet approved; refused while counts disagree. */
export function linesForApproveAll(lines: LineToApprove[], session: SessionState | null): LineToApprove[] {
  open(session);
  const pending = lines.filter((l) => !session!.lines.get(lineKey(l))?.approved && l.counts.length > 0);
  const conflicts = pending.filter((l) => readLine(l.counts).kind === 'conflict');
  if (conflicts.length) {
    const names = conflicts.map((l) => lineName(l, session!)).join(', ');
    throw new ConflictError(`Counted twice with different numbers: ${names}. Approve those lines one by one first.`);
  }
  // An item deleted since it was counted has nothing to post to.
  return pending.filter((l) => {
    const reading = readLine(l.counts);
    return reading.kind === 'counted' && reading.count.expected !== null;
  });
}

export function closeStocktake(session: SessionState | null, approvedLines: number): StocktakeEvent[] {
  open(session);
  return [{ type: 'StocktakeClosed', data: { approvedLines } }];
}
