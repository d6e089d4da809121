// The dashboard's live data: the server's summary; each item or category event moves the
// counts it states at once (dashboard-reducers.ts) and the summary is fetched again,
// coalesced, since any event can move a total, a chart or a list.
import type { DashboardSummary } from '../../../shared/dashboard';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { takeEarlyJson } from '../../lib/first-data';
import { DASHBOARD_PATH, dashboardApi } from './api';
import { movesDashboard, reduceDashboard } from './dashboard-reducers';

export const dashboardMachine = createLiveQueryMachine<DashboardSummary, null>({
  id: 'dashboard',
  load: () => dashboardApi.summary(),
  initial: () => (takeEarlyJson([DASHBOARD_PATH])?.[0] as DashboardSummary | undefined) ?? null,
  reduce: (draft, event) => reduceDashboard(draft, event),
  concerns: movesDashboard,
  loadErrorMessage: 'Failed to load the dashboard',
  // Events of one change arrive together; a short wait makes them one request.
  refetchDelayMs: 60,
});
