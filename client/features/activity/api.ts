// Activity log calls: a page of GET /api/activity (search, action and place filters, sort,
// cursor) and the address of the CSV export with the same filters.
import type { ActivityAction, ActivityPage } from '../../../shared/inventory';
import { api } from '../../lib/api-client';
import type { PlaceChoice } from '../../components/place-selects';

export type ActivitySort = 'timestamp' | 'user' | 'action';
export type SortOrder = 'asc' | 'desc';

export interface ActivityParams {
  q: string;
  action: ActivityAction | 'all';
  /** Entries about a site or one of its locations: their changes, and stock put, taken or moved there. */
  place: PlaceChoice;
  sort: ActivitySort;
  order: SortOrder;
}

export const DEFAULT_ACTIVITY_PARAMS: ActivityParams = {
  q: '',
  action: 'all',
  place: {},
  sort: 'timestamp',
  order: 'desc',
};

/** The place a URL names (?siteId=&locationId=, as the API takes them): a link from a site's card opens its activity. */
export function placeFromSearch(search: URLSearchParams): PlaceChoice {
  const siteId = search.get('siteId') || undefined;
  const locationId = search.get('locationId') || undefined;
  return { ...(siteId ? { siteId } : {}), ...(locationId ? { locationId } : {}) };
}
export const ACTIVITY_PAGE_SIZE = 50;

export function activityQuery(params: ActivityParams): URLSearchParams {
  const query = new URLSearchParams({ sort: params.sort, order: params.order });
  if (params.q.trim()) query.set('q', params.q.trim());
  if (params.action !== 'all') query.set('action', params.action);
  if (params.place.siteId) query.set('siteId', params.place.siteId);
  if (params.place.locationId) query.set('locationId', params.place.locationId);
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
