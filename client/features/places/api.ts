// Sites and locations calls: the lists, and every write the page makes (bodies in the API's
// snake_case). Each write answers the site or location as it left it.
import type { Location, Site } from '../../../shared/sites';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export interface SiteBody {
  name?: string;
  code?: string;
  address?: string;
  time_zone?: string;
  default_location_id?: string;
}

export interface LocationBody {
  name?: string;
  code?: string;
  barcode?: string | null;
}

/** Every write of the page, as data: what the form or the menu asked for. */
export type PlaceWrite =
  | { kind: 'create-site'; body: Required<Pick<SiteBody, 'name' | 'code' | 'time_zone'>> & SiteBody }
  | { kind: 'edit-site'; site: Site; body: SiteBody }
  | { kind: 'archive-site' | 'restore-site'; site: Site }
  | {
      kind: 'create-location';
      body: Required<Pick<LocationBody, 'name' | 'code'>> &
        LocationBody & { site_id: string; parent_id: string | null };
    }
  | { kind: 'edit-location'; location: Location; body: LocationBody }
  | { kind: 'move-location'; location: Location; parentId: string | null }
  | { kind: 'archive-location' | 'restore-location'; location: Location };

const patch = <T>(path: string, body: unknown) => api.request<T>('PATCH', path, { body }).then((r) => r.data);

export const placesApi = {
  sites: () => api.get<Site[]>('/sites'),
  locations: () => api.get<Location[]>('/locations'),
  write(write: PlaceWrite): Promise<Site | Location> {
    switch (write.kind) {
      case 'create-site':
        return api.post<Site>('/sites', write.body);
      case 'edit-site':
        return patch<Site>(`/sites/${enc(write.site.id)}`, { ...write.body, expected_version: write.site.version });
      case 'archive-site':
        return api.post<Site>(`/sites/${enc(write.site.id)}/archive`);
      case 'restore-site':
        return api.post<Site>(`/sites/${enc(write.site.id)}/restore`);
      case 'create-location':
        return api.post<Location>('/locations', write.body);
      case 'edit-location':
        return patch<Location>(`/locations/${enc(write.location.id)}`, {
          ...write.body,
          expected_version: write.location.version,
        });
      case 'move-location':
        return api.post<Location>(`/locations/${enc(write.location.id)}/move`, {
          parent_id: write.parentId,
          expected_version: write.location.version,
        });
      case 'archive-location':
        return api.post<Location>(`/locations/${enc(write.location.id)}/archive`);
      case 'restore-location':
        return api.post<Location>(`/locations/${enc(write.location.id)}/restore`);
    }
  },
};
