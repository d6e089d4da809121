// The session page's live data: the session (progress, lines, counts, variance), refetched
// when its stream moves on the feed (another phone counted, a manager approved), with the
// page's writes: counts (sent now or kept in the outbox) and approvals (answered with the
// session as it then stands).
import type { StocktakeSession } from '../../../shared/stocktake';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { stocktakeApi } from './api';
import { submitCount, type CountOutcome } from './submit-count';

export interface SessionParams {
  id: string;
}

export type SessionWrite =
  | { kind: 'count'; itemId: string; name: string; counted: number }
  | { kind: 'approve-line'; itemId: string; name: string; countId?: string }
  | { kind: 'approve-all' };

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
        return stocktakeApi.approveLine(id, write.itemId, write.countId);
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
    if (write.kind === 'count' && (result as CountOutcome).queued) toast.info(`No connection: the count of ${write.name} will be sent when it returns`);
    if (write.kind === 'approve-all') toast.success('Stocktake approved: stock levels updated');
  },
  onWriteFailed: (write, message) => {
    const what = write.kind === 'count' ? `save the count of ${write.name}` : write.kind === 'approve-line' ? `approve ${write.name}` : 'approve the stocktake';
    toast.error(`Could not ${what}: ${message}`);
  },
  loadErrorMessage: 'Failed to load the stocktake',
  refetchDelayMs: 200,
});
