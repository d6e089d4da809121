// Stocktake calls through the shared API client (token, idempotency keys, retries). Counts
// go through submit-count.ts instead: they must survive having no signal.
import type { Category, Item } from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';
import type { StartStocktakeBody, StocktakeSession, StocktakeSummary } from '../../../shared/stocktake';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export const stocktakeApi = {
  list: async () => (await api.get<{ stocktakes: StocktakeSummary[] }>('/stocktakes')).stocktakes,
  session: (id: string) => api.get<StocktakeSession>(`/stocktakes/${enc(id)}`),
  start: (body: StartStocktakeBody) => api.post<StocktakeSession>('/stocktakes', body),
  /** One line: the item at the location (`countId` keeps one of two counts that disagree). */
  approveLine: (id: string, line: { itemId: string; locationId: string }, countId?: string) =>
    api.post<StocktakeSession>(`/stocktakes/${enc(id)}/lines/${enc(line.itemId)}/approve`, {
      locationId: line.locationId,
      ...(countId ? { countId } : {}),
    }),
  approveAll: (id: string) => api.post<StocktakeSession>(`/stocktakes/${enc(id)}/approve`, {}),
  categories: () => api.get<Category[]>('/categories'),
  searchItems: (q: string) => api.get<Item[]>(`/inventory/search?q=${enc(q)}`),
  lowStock: () => api.get<Item[]>('/inventory/low-stock'),
  /** The places a count may be at (archived ones included: the dialog leaves them out). */
  sites: () => api.get<Site[]>('/sites'),
  locations: () => api.get<Location[]>('/locations'),
};
