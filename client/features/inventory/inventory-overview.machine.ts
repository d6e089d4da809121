// The Inventory page's live data: every category with its item count, kept current by
// pushed events (see live-reducers.ts), and the store's Default Low-Stock Threshold that
// the Add Item wizard starts new items with.
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { inventoryApi } from './api';
import { overviewConcerns, reduceOverview, type OverviewData } from './live-reducers';

export const inventoryOverviewMachine = createLiveQueryMachine<OverviewData, null>({
  id: 'inventoryOverview',
  load: async () => {
    const [categories, defaultThreshold] = await Promise.all([
      inventoryApi.categories(),
      // Without it the wizard just starts empty: not worth failing the page for.
      inventoryApi.defaultThreshold().catch(() => null),
    ]);
    return { categories, defaultThreshold };
  },
  reduce: (draft, event) => reduceOverview(draft, event),
  concerns: (event) => overviewConcerns(event),
  loadErrorMessage: 'Failed to load inventory data',
});
