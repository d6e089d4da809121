// Activity log calls: a page of GET /api/activity (search, action filter, sort, cursor) and
// the address of the CSV export with the same filters.
import type { ActivityAction, ActivityPage } from '../../../shared/inventory';
import { api } from '../../lib/api-client';

export type ActivitySort = 'timestamp' | 'user' | 'action';
export type SortOrder = 'asc' | 'desc';

export interface ActivityParams {
  q: string;
  action: ActivityAction | 'all';
  sort: ActivitySort;
  order: SortOrder;
}

export const DEFAULT_ACTIVITY_PARAMS: ActivityParams = { q: '', action: 'all', sort: 'timestamp', order: 'desc' };
export const ACTIVITY_PAGE_SIZE = 50;

export function activityQuery(params: ActivityParams): URLSearchParams {
  const query = new URLSearchParams({ sort: params.sort, order: params.order });
  if (params.q.trim()) query.set('q', params.q.trim());
  if (params.action !== 'all') query.set('action', params.action);
  return query;
}

export const activityApi = {
  page: (params: ActivityParams, cursor?: string | null) => {
    const query = activityQuery(params);
    query.set('limit', String(ACTIVITY_PAGE_SIZE));
    if (cursor) query.set('cursor', cursor);
    return api.get<ActivityPage>(`/activity?${query}`);
  },
  csvPath: (params: ActivityParams) => `/api/activity.csv?${activityQuery(params)}`,
};
