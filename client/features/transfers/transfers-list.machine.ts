// The Transfers page's live data: the transfers of the chosen status and site, newest first,
// and the sites (for the filter and the form's choices). Any transfer's step on the feed
// reads the list again (coalesced): a list row's counts come from all its lines.
import type { FeedEvent } from '../../../shared/realtime';
import type { Site } from '../../../shared/sites';
import type { TransferSummary } from '../../../shared/transfers';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { transfersApi, type TransferFilter } from './api';

export interface TransfersData {
  transfers: TransferSummary[];
  sites: Site[];
}

const concerns = (event: FeedEvent) => event.streamType === 'transfer' || event.streamType === 'site';

export const transfersListMachine = createLiveQueryMachine<TransfersData, TransferFilter>({
  id: 'transfersList',
  load: async (filter) => {
    const [transfers, sites] = await Promise.all([transfersApi.list(filter), transfersApi.sites()]);
    return { transfers, sites };
  },
  reduce: (_draft, event): FeedEffect => (concerns(event) ? 'refetch' : 'ignored'),
  concerns,
  loadErrorMessage: 'Failed to load transfers',
  refetchDelayMs: 300,
});
