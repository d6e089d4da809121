// The `sites` and `locations` rows, mapped in one place: to the API's shapes (shared/sites.ts)
// and to the state the decisions take (the same fold's shape, with dates).
import type { Location, Site } from '../../shared/sites.js';
import type { LocationState, SiteState } from './decide.js';

export interface SiteRow {
  id: string;
  name: string;
  code: string;
  address: string;
  time_zone: string;
  default_location_id: string | null;
  archived_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface LocationRow {
  id: string;
  site_id: string;
  parent_id: string | null;
  name: string;
  code: string;
  barcode: string | null;
  archived_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const iso = (value: Date | string | null) => (value === null ? null : date(value).toISOString());

export const toSiteState = (row: SiteRow): SiteState => ({
  id: row.id,
  name: row.name,
  code: row.code,
  address: row.address,
  timeZone: row.time_zone,
  defaultLocationId: row.default_location_id,
  archivedAt: row.archived_at === null ? null : date(row.archived_at),
  version: Number(row.version),
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
});

export const toLocationState = (row: LocationRow): LocationState => ({
  id: row.id,
  siteId: row.site_id,
  parentId: row.parent_id,
  name: row.name,
  code: row.code,
  barcode: row.barcode,
  archivedAt: row.archived_at === null ? null : date(row.archived_at),
  version: Number(row.version),
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
});

export const toSite = (row: SiteRow): Site => ({
  id: row.id,
  name: row.name,
  code: row.code,
  address: row.address,
  timeZone: row.time_zone,
  defaultLocationId: row.default_location_id,
  archivedAt: iso(row.archived_at),
  version: Number(row.version),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const toLocation = (row: LocationRow): Location => ({
  id: row.id,
  siteId: row.site_id,
  parentId: row.parent_id,
  name: row.name,
  code: row.code,
  barcode: row.barcode,
  archivedAt: iso(row.archived_at),
  version: Number(row.version),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export const siteColumns =
  'id::text as id, name, code, address, time_zone, default_location_id::text as default_location_id, archived_at, version, created_at, updated_at';
export const locationColumns =
  'id::text as id, site_id::text as site_id, parent_id::text as parent_id, name, code, barcode, archived_at, version, created_at, updated_at';
