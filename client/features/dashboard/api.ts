// The dashboard's one call: every figure comes computed from the server's projections.
import type { DashboardSummary } from '../../../shared/dashboard';
import { api } from '../../lib/api-client';

/** The summary's path (first-screen-data.ts asks the same one early). */
export const DASHBOARD_PATH = '/dashboard';

export const dashboardApi = {
  summary: () => api.get<DashboardSummary>(DASHBOARD_PATH),
};
