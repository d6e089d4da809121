// The Inventory page's live data: every category with its item count, kept current by
// pushed events (see live-reducers.ts).
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { inventoryApi } from './api';
import { overviewConcerns, reduceOverview, type OverviewData } from './live-reducers';

export const inventoryOverviewMachine = createLiveQueryMachine<OverviewData, null>({
  id: 'inventoryOverview',
  load: async () => ({ categories: await inventoryApi.categories() }),
  reduce: (draft, event) => reduceOverview(draft, event),
  concerns: (event) => overviewConcerns(event),
  loadErrorMessage: 'Failed to load inventory data',
});
