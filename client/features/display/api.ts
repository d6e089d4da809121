// The wall display's calls: everything it shows, computed by the server (of the whole store,
// or of one place), and the sites and locations its place picker offers.
import type { DisplaySnapshot } from '../../../shared/dashboard';
import type { Location, Site } from '../../../shared/sites';
import { api } from '../../lib/api-client';
import { searchWithPlace, type DisplayPlaceQuery } from './display-place';

export const displayApi = {
  snapshot: (place: DisplayPlaceQuery = null) =>
    api.get<DisplaySnapshot>(`/dashboard/display${searchWithPlace('', place)}`),
  sites: () => api.get<Site[]>('/sites'),
  locations: () => api.get<Location[]>('/locations'),
};
