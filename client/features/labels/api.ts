// The items to label: a whole category (every page of it), or a list of item ids (items
// deleted meanwhile are left out). Through the shared API client.
import type { Category, CategoryItemsPage, Item } from '../../../shared/inventory';
import { api, isStatus } from '../../lib/api-client';

export type LabelSource = { kind: 'category'; categoryId: string } | { kind: 'items'; ids: string[] };

export interface LabelItems {
  /** What the labels are for, for the page title. */
  title: string;
  items: Item[];
}

const enc = encodeURIComponent;
/** The largest page the category items endpoint serves. */
const PAGE_SIZE = 100;

/** Reads the URL's query: `?category={id}` or `?items={id},{id}`. */
export function labelSourceFrom(search: URLSearchParams): LabelSource | null {
  const category = search.get('category');
  if (category) return { kind: 'category', categoryId: category };
  const ids = (search.get('items') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.length > 0 ? { kind: 'items', ids: [...new Set(ids)] } : null;
}

export async function loadLabelItems(source: LabelSource): Promise<LabelItems> {
  if (source.kind === 'category') {
    const category = await api.get<Category>(`/categories/${enc(source.categoryId)}`);
    const items: Item[] = [];
    for (let page = 1; ; page++) {
      const params = new URLSearchParams({
        sort: 'name',
        order: 'asc',
        page: String(page),
        pageSize: String(PAGE_SIZE),
      });
      const result = await api.get<CategoryItemsPage>(`/categories/${enc(source.categoryId)}/items?${params}`);
      items.push(...result.items);
      if (page >= result.totalPages) break;
    }
    return { title: category.name, items };
  }
  const found = await Promise.all(
    source.ids.map(async (id) => {
      try {
        return await api.get<Item>(`/inventory/${enc(id)}`);
      } catch (error) {
        if (isStatus(error, 404)) return null;
        throw error;
      }
    }),
  );
  const items = found.filter((item): item is Item => item !== null);
  return { title: items.length === 1 ? items[0]!.name : `${items.length} items`, items };
}
