// Export CSV on the Inventory and Category pages: the server streams the items a screen
// shows (or all of them) in the columns the CSV import reads; the browser saves the file.
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/save-file';
import type { ItemSort, SortOrder } from './api';

export interface ItemsCsvFilter {
  /** The category page's items only, searched and sorted as that page is. */
  categoryId?: string;
  q?: string;
  sort?: ItemSort;
  order?: SortOrder;
}

export function itemsCsvPath(filter: ItemsCsvFilter): string {
  const params = new URLSearchParams();
  if (filter.categoryId) params.set('categoryId', filter.categoryId);
  if (filter.q?.trim()) params.set('q', filter.q.trim());
  if (filter.sort) params.set('sort', filter.sort);
  if (filter.order) params.set('order', filter.order);
  const query = params.toString();
  return `/inventory/export.csv${query ? `?${query}` : ''}`;
}

export function itemsCsvFileName(now = new Date()): string {
  return `inventory-${now.toISOString().slice(0, 10)}.csv`;
}

export async function downloadItemsCsv(filter: ItemsCsvFilter): Promise<void> {
  saveBlob(await api.blob(itemsCsvPath(filter)), itemsCsvFileName());
}
