// The store's sites, for the site picker and the item page (names, default locations): read
// once, and again when a site changes on the live feed (sites change rarely; a read is
// simpler than a fold here).
import type { Site } from '../../../shared/sites';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { inventoryApi } from './api';

export interface SitesData {
  sites: Site[];
}

export const sitesMachine = createLiveQueryMachine<SitesData, null>({
  id: 'sites',
  load: async () => ({ sites: await inventoryApi.sites() }),
  reduce: (_draft, event) => (event.streamType === 'site' ? 'refetch' : 'ignored'),
  concerns: (event) => event.streamType === 'site',
  loadErrorMessage: 'Failed to load sites',
});
