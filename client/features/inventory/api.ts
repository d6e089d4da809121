// Inventory and category calls, through the shared API client (token, idempotency keys,
// retries). Request bodies use the API's snake_case.
import type {
  AdjustStockBody,
  Category,
  CategoryItemsPage,
  CreateItemBody,
  HistoryEntry,
  Item,
  ItemLocations,
  MoveStockBody,
  UpdateItemBody,
} from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';
import type { Settings } from '../../../shared/accounts';
import { api } from '../../lib/api-client';
import { sendOrThrowQueued } from '../../offline/outbox';

export type ItemSort = 'name' | 'price' | 'stock';
export type SortOrder = 'asc' | 'desc';

export interface CategoryItemsQuery {
  q: string;
  sort: ItemSort;
  order: SortOrder;
  page: number;
}

export const PAGE_SIZE = 12;

const enc = encodeURIComponent;

/** The paths the Category page reads (first-screen-data.ts asks the same ones early). */
export const categoryPaths = {
  category: (id: string) => `/categories/${enc(id)}`,
  items: (id: string, query: CategoryItemsQuery, pageSize = PAGE_SIZE) => {
    const params = new URLSearchParams({
      sort: query.sort,
      order: query.order,
      page: String(query.page),
      pageSize: String(pageSize),
    });
    if (query.q.trim()) params.set('q', query.q.trim());
    return `/categories/${enc(id)}/items?${params}`;
  },
};

/** A list's place filter: a site, and within it a location (the URL's ?siteId=&locationId=). */
export interface PlaceFilter {
  siteId: string;
  locationId: string | null;
}

export interface PlacedItemsPage {
  items: Item[];
  nextCursor: string | null;
}

export const inventoryApi = {
  categories: () => api.get<Category[]>('/categories'),
  category: (id: string) => api.get<Category>(categoryPaths.category(id)),
  createCategory: (body: { name: string; description?: string }) => api.post<Category>('/categories', body),
  updateCategory: (id: string, body: { name: string; description: string }, version: number) =>
    api.put<Category>(`/categories/${enc(id)}`, body, { ifMatch: version }),
  deleteCategory: (id: string) => api.delete(`/categories/${enc(id)}`),
  categoryItems: (id: string, query: CategoryItemsQuery, pageSize = PAGE_SIZE) =>
    api.get<CategoryItemsPage>(categoryPaths.items(id, query, pageSize)),
  item: (id: string) => api.get<Item>(`/inventory/${enc(id)}`),
  history: (id: string) => api.get<HistoryEntry[]>(`/inventory/${enc(id)}/history`),
  search: (q: string) => api.get<Item[]>(`/inventory/search?q=${enc(q)}`),
  createItem: (body: CreateItemBody) => api.post<Item>('/inventory', body),
  // `key`: the write's Idempotency-Key, kept by a caller that offers Undo of it.
  updateItem: (id: string, body: UpdateItemBody, version: number, key?: string) =>
    api.put<Item>(`/inventory/${enc(id)}`, body, { ifMatch: version, idempotencyKey: key }),
  deleteItem: (id: string, version?: number, key?: string) =>
    api.delete(
      `/inventory/${enc(id)}`,
      version === undefined ? { idempotencyKey: key } : { ifMatch: version, idempotencyKey: key },
    ),
  adjust: (id: string, body: AdjustStockBody, key?: string) =>
    api.post<Item>(`/inventory/${enc(id)}/adjust`, body, { idempotencyKey: key }),
  // A single user change that must survive no network: sent now, or kept in the
  // outbox (rejects with QueuedOffline; wrap in orQueued) and replayed when back online.
  adjustOrQueue: (id: string, body: AdjustStockBody, label: string, key?: string) =>
    sendOrThrowQueued<Item>({
      kind: 'adjust',
      method: 'POST',
      path: `/inventory/${enc(id)}/adjust`,
      body,
      idempotencyKey: key,
      label,
      itemId: id,
      currentPath: `/inventory/${enc(id)}`,
    }),
  updateItemOrQueue: (id: string, body: UpdateItemBody, version: number, label: string, key?: string) =>
    sendOrThrowQueued<Item>({
      kind: 'edit',
      method: 'PUT',
      path: `/inventory/${enc(id)}`,
      body,
      idempotencyKey: key,
      baseVersion: version,
      label,
      itemId: id,
      currentPath: `/inventory/${enc(id)}`,
    }),
  sites: () => api.get<Site[]>('/sites'),
  siteLocations: (siteId: string) => api.get<Location[]>(`/locations?siteId=${enc(siteId)}`),
  /** Where an item's stock is, by site and location, and what is in transit. */
  itemLocations: (id: string) => api.get<ItemLocations>(`/inventory/${enc(id)}/locations`),
  move: (body: MoveStockBody, key?: string) => api.post<Item>('/moves', body, { idempotencyKey: key }),
  /** The items placed at a site or location, newest first, each with its quantityHere. */
  placedItems: async (filter: PlaceFilter, limit: number): Promise<PlacedItemsPage> => {
    const params = new URLSearchParams({ limit: String(limit), siteId: filter.siteId });
    if (filter.locationId) params.set('locationId', filter.locationId);
    const res = await api.request<Item[]>('GET', `/inventory?${params}`);
    return { items: res.data, nextCursor: res.headers.get('x-next-cursor') };
  },
  /** The store's Default Low-Stock Threshold, which new items start with (Settings). */
  defaultThreshold: async () => (await api.get<Settings>('/settings')).lowStockThreshold,
};
