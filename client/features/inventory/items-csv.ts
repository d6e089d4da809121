// Export CSV on the Inventory and Category pages: the server streams the items a screen
// shows (or all of them) in the columns the CSV import reads, in the format asked for
// (client/lib/csv-export-format.ts); the browser saves the file. By location (asked for, or
// a list filtered by a site or location): a row per item and location, with Site and
// Location columns and the units there.
import type { CsvEncoding, CsvFormat } from '../../../shared/csv-format';
import { STANDARD_CSV } from '../../../shared/csv-format';
import { api } from '../../lib/api-client';
import { encodingOfDownload, withCsvFormat } from '../../lib/csv-export-format';
import { saveBlob } from '../../lib/save-file';
import type { ItemSort, SortOrder } from './api';

export interface ItemsCsvFilter {
  /** The category page's items only, searched and sorted as that page is. */
  categoryId?: string;
  q?: string;
  sort?: ItemSort;
  order?: SortOrder;
  /** A row per item and location. */
  byLocation?: boolean;
  /** The items placed at this site or location (the export is then by location). */
  siteId?: string;
  locationId?: string;
}

/** Whether the file has a row per item and location. */
export const csvByLocation = (filter: ItemsCsvFilter): boolean =>
  Boolean(filter.byLocation || filter.siteId || filter.locationId);

export function itemsCsvPath(filter: ItemsCsvFilter, format: CsvFormat = STANDARD_CSV): string {
  const params = new URLSearchParams();
  if (filter.categoryId) params.set('categoryId', filter.categoryId);
  if (filter.q?.trim()) params.set('q', filter.q.trim());
  if (filter.sort) params.set('sort', filter.sort);
  if (filter.order) params.set('order', filter.order);
  if (filter.siteId) params.set('siteId', filter.siteId);
  if (filter.locationId) params.set('locationId', filter.locationId);
  if (filter.byLocation && !filter.siteId && !filter.locationId) params.set('byLocation', 'true');
  const query = params.toString();
  return withCsvFormat(`/inventory/export.csv${query ? `?${query}` : ''}`, format);
}

export function itemsCsvFileName(now = new Date(), byLocation = false): string {
  return `inventory-${byLocation ? 'by-location-' : ''}${now.toISOString().slice(0, 10)}.csv`;
}

/** Saves the file; answers its real encoding (Windows-1252 asked for may come back as UTF-8 with a BOM). */
export async function downloadItemsCsv(filter: ItemsCsvFilter, format: CsvFormat = STANDARD_CSV): Promise<CsvEncoding> {
  const blob = await api.blob(itemsCsvPath(filter, format));
  saveBlob(blob, itemsCsvFileName(new Date(), csvByLocation(filter)));
  return encodingOfDownload(blob, format.encoding);
}
