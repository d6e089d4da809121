// The /stocktake page's live data: the sessions, newest first, refetched when any session's
// stream moves (started, counted, approved) on the feed.
import type { StocktakeSummary } from '../../../shared/stocktake';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { stocktakeApi } from './api';

const concerns = (event: { streamType: string }) => event.streamType === 'stocktake';

export const stocktakeListMachine = createLiveQueryMachine<{ stocktakes: StocktakeSummary[] }, Record<string, never>>({
  id: 'stocktakeList',
  load: async () => ({ stocktakes: await stocktakeApi.list() }),
  reduce: (_draft, event): FeedEffect => (concerns(event) ? 'refetch' : 'ignored'),
  concerns,
  loadErrorMessage: 'Failed to load stocktakes',
  refetchDelayMs: 300,
});
