// Stocktake decisions: pure functions from (command, session state, now) to events. The
// service reads the state (the session, its lines, their counts with the stock of each
// count's moment) and passes the time in; nothing here reads a clock or the database.
import {
  COUNT_CLOCK_SKEW_MS,
  type ApprovedLine,
  type PersonRef,
  type StocktakeEvent,
  type StocktakeScope,
} from '../../shared/stocktake.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { readLine, type CountAt } from './line-status.js';

export interface SessionState {
  id: string;
  name: string;
  status: 'open' | 'closed';
  startedAt: Date;
  /** Items of the session: approved or not. */
  lines: Map<string, { approved: boolean }>;
}

export function startStocktake(command: {
  stocktakeId: string;
  name: string;
  scope: StocktakeScope;
  categoryId: string | null;
  categoryIds?: string[];
  itemIds: string[];
}): StocktakeEvent[] {
  const name = command.name.trim();
  if (!name) throw new ValidationError('name must not be empty');
  if (name.length > 100) throw new ValidationError('name must be at most 100 characters');
  if (command.itemIds.length === 0) throw new UnprocessableError('There are no items to count');
  return [{ type: 'StocktakeStarted', data: { ...command, name, itemIds: [...new Set(command.itemIds)] } }];
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
  command: { itemId: string; counted: number; countedAt: Date },
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
  const line = session.lines.get(command.itemId);
  if (!line) throw new UnprocessableError('This item is not part of this stocktake');
  if (line.approved) throw new ConflictError("This item's count was already approved");
  return [
    {
      type: 'StockCounted',
      data: { itemId: command.itemId, counted: command.counted, countedAt: command.countedAt.toISOString() },
    },
  ];
}

/** A count as an approval sees it: with who counted it (the approval credits them, not the approver). */
export interface CountToPost extends CountAt {
  counter: PersonRef;
}

export interface LineToApprove {
  itemId: string;
  name: string;
  counts: CountToPost[];
  /** Chosen by the manager for a line whose counts disagree. */
  countId?: string;
}

/** The line's count to post, or why it cannot be posted yet. */
function chosenCount(line: LineToApprove): CountToPost {
  if (line.countId) {
    const chosen = line.counts.find((c) => c.id === line.countId);
    if (!chosen) throw new UnprocessableError(`countId is not a count of ${line.name}`);
    return chosen;
  }
  const reading = readLine(line.counts);
  if (reading.kind === 'uncounted') throw new ConflictError(`${line.name} has not been counted yet`);
  if (reading.kind === 'conflict')
    throw new ConflictError(`${line.name} was counted twice with different numbers: choose which count to keep`);
  return reading.count;
}

/** A line as an approval posts it: the numbers the service posts (never put in the session's events). */
export interface PostedLine {
  itemId: string;
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
    if (session.lines.get(line.itemId)?.approved) throw new ConflictError(`${line.name} was already approved`);
    const count = chosenCount(line);
    if (count.expected === null) throw new ConflictError(`${line.name} no longer exists`);
    return {
      itemId: line.itemId,
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
 * item carries the difference (`adjustmentVersions`: the item stream's version of it, for
 * lines that moved stock). Expected quantities and differences stay out (see ApprovedLine).
 */
export function linesApproved(posted: PostedLine[], adjustmentVersions: ReadonlyMap<string, number>): StocktakeEvent[] {
  if (posted.length === 0) return [];
  const lines = posted.map(({ itemId, countId, counted, countedAt, countedBy, delta }): ApprovedLine => {
    const version = adjustmentVersions.get(itemId);
    if (delta !== 0 && version === undefined) throw new Error(`no adjustment posted for ${itemId}`);
    return { itemId, countId, countedBy, counted, countedAt, adjustmentVersion: delta === 0 ? null : version! };
  });
  return [{ type: 'StocktakeLinesApproved', data: { lines } }];
}

/** Approve all: every counted line not yet approved; refused while counts disagree. */
export function linesForApproveAll(lines: LineToApprove[], session: SessionState | null): LineToApprove[] {
  open(session);
  const pending = lines.filter((l) => !session!.lines.get(l.itemId)?.approved && l.counts.length > 0);
  const conflicts = pending.filter((l) => readLine(l.counts).kind === 'conflict');
  if (conflicts.length) {
    const names = conflicts.map((l) => l.name).join(', ');
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
