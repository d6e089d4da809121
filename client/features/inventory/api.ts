// Inventory and category calls of spec section 7 and decisions.md, through the shared API
// client (token, idempotency keys, retries). Request bodies use the spec's snake_case.
import type {
  AdjustStockBody,
  Category,
  CategoryItemsPage,
  CreateItemBody,
  HistoryEntry,
  Item,
  UpdateItemBody,
} from '../../../shared/inventory';
import { api } from '../../lib/api-client';

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

export const inventoryApi = {
  categories: () => api.get<Category[]>('/categories'),
  category: (id: string) => api.get<Category>(`/categories/${enc(id)}`),
  createCategory: (body: { name: string; description?: string }) => api.post<Category>('/categories', body),
  categoryItems: (id: string, query: CategoryItemsQuery) => {
    const params = new URLSearchParams({ sort: query.sort, order: query.order, page: String(query.page), pageSize: String(PAGE_SIZE) });
    if (query.q.trim()) params.set('q', query.q.trim());
    return api.get<CategoryItemsPage>(`/categories/${enc(id)}/items?${params}`);
  },
  item: (id: string) => api.get<Item>(`/inventory/${enc(id)}`),
  history: (id: string) => api.get<HistoryEntry[]>(`/inventory/${enc(id)}/history`),
  search: (q: string) => api.get<Item[]>(`/inventory/search?q=${enc(q)}`),
  createItem: (body: CreateItemBody) => api.post<Item>('/inventory', body),
  updateItem: (id: string, body: UpdateItemBody, version: number) => api.put<Item>(`/inventory/${enc(id)}`, body, { ifMatch: version }),
  deleteItem: (id: string, version?: number) => api.delete(`/inventory/${enc(id)}`, version === undefined ? {} : { ifMatch: version }),
  adjust: (id: string, body: AdjustStockBody) => api.post<Item>(`/inventory/${enc(id)}/adjust`, body),
};
