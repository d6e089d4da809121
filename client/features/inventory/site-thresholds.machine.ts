// An item's stock and low-stock threshold at each site, for its thresholds card: loaded from
// GET /api/inventory/{id}/site-thresholds, fetched again when anything happens to the item
// (its units at a site, its threshold, a threshold of its own at a site) or to a site, and
// the card's writes (set or clear one site's threshold) folded back in from their answer.
import type { ItemSiteThresholds } from '../../../shared/site-low-stock';
import type { FeedEvent } from '../../../shared/realtime';
import { createLiveQueryMachine, type FeedEffect } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { siteThresholdsApi } from './site-thresholds-api';

export interface SiteThresholdWrite {
  siteId: string;
  siteName: string;
  /** null: the site uses the item's threshold again. */
  threshold: number | null;
}

const concerns = (event: FeedEvent, itemId: string) =>
  event.stream === `item-${itemId}` || event.streamType === 'site' || event.streamType === 'location';

export const siteThresholdsMachine = createLiveQueryMachine<ItemSiteThresholds, { itemId: string }, SiteThresholdWrite>(
  {
    id: 'siteThresholds',
    load: ({ itemId }) => siteThresholdsApi.forItem(itemId),
    reduce: (_draft, event, { itemId }): FeedEffect => (concerns(event, itemId) ? 'refetch' : 'ignored'),
    concerns: (event, { itemId }) => concerns(event, itemId),
    runWrite: (write, { itemId }) => siteThresholdsApi.set(itemId, write.siteId, write.threshold),
    applyWrite: (draft, _write, result) => {
      Object.assign(draft, result as ItemSiteThresholds);
      return 'applied';
    },
    onWriteFailed: (write, message) => toast.error(`Could not change the threshold at ${write.siteName}: ${message}`),
    loadErrorMessage: 'Failed to load stock by site',
  },
);
