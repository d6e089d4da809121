// The dashboard's one call: every figure comes computed from the server's projections.
import type { DashboardSummary } from '../../../shared/dashboard';
import { api } from '../../lib/api-client';

export const dashboardApi = {
  summary: () => api.get<DashboardSummary>('/dashboard'),
};
