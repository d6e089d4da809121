// The session page's live data: the session (progress, lines, counts, variance), refetched
// when its stream moves on the feed (another phone counted, a manager approved), with the
// page's writes: counts (sent now or kept in the outbox) and approvals (answered with the
// session as it then stands).
import type { StocktakeSession } from '../../../shared/stocktake';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { groupToast, toast } from '../../lib/toasts';
import { stocktakeApi } from './api';
import { submitCount, type CountOutcome } from './submit-count';

export interface SessionParams {
  id: string;
}

/** Writes name a line: an item at a location (a count there, or its approval). */
export type SessionWrite =
  | { kind: 'count'; itemId: string; locationId: string; name: string; counted: number }
  | { kind: 'approve-line'; itemId: string; locationId: string; name: string; countId?: string }
  | { kind: 'approve-all' };

/**
 * Counts kept offline show on their rows ("Waiting to send"); the toast only says it once,
 * and counts kept in a row sum up on it ("3 counts waiting to send") instead of a toast each.
 */
export function queuedCountsMessage(names: string[]): string {
  if (names.length === 1) return `No connection: the count of ${names[0]} will be sent when it returns`;
  return `${names.length} counts waiting to send: they go when the connection returns`;
}

const concerns = (event: { stream: string }, params: SessionParams) => event.stream === `stocktake-${params.id}`;

export const sessionMachine = createLiveQueryMachine<StocktakeSession, SessionParams, SessionWrite>({
  id: 'stocktakeSession',
  load: ({ id }) => stocktakeApi.session(id),
  reduce: (_draft, event, params): FeedEffect => (concerns(event, params) ? 'refetch' : 'ignored'),
  concerns,
  runWrite: (write, { id }) => {
    switch (write.kind) {
      case 'count':
        return submitCount(id, write, write.counted);
      case 'approve-line':
        return stocktakeApi.approveLine(id, write, write.countId);
      case 'approve-all':
        return stocktakeApi.approveAll(id);
    }
  },
  applyWrite: (draft, write, result) => {
    if (write.kind !== 'count') {
      Object.assign(draft, result as StocktakeSession);
      return 'applied';
    }
    // A count kept for later shows as pending (from the outbox); a sent one comes back with the session.
    return (result as CountOutcome).queued ? 'ignored' : 'refetch';
  },
  onWriteDone: (write, result) => {
    if (write.kind === 'count' && (result as CountOutcome).queued)
      groupToast({ group: 'stocktake-queued-counts', entry: write.name, render: queuedCountsMessage });
    if (write.kind === 'approve-all') toast.success('Stocktake approved: stock levels updated');
  },
  onWriteFailed: (write, message) => {
    const what =
      write.kind === 'count'
        ? `save the count of ${write.name}`
        : write.kind === 'approve-line'
          ? `approve ${write.name}`
          : 'approve the stocktake';
    toast.error(`Could not ${what}: ${message}`);
  },
  loadErrorMessage: 'Failed to load the stocktake',
  refetchDelayMs: 200,
});
