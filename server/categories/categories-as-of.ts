// What the category routes need to answer ?asOf=. Served by server/history (AsOfQueries);
// declared here so history depends on categories, never the other way round.
import type { Category, CategoryItemsPage } from '../../shared/inventory.js';
import type { CategorySort } from './category-service.js';

export interface CategoriesAsOf {
  /** A requested moment, checked: a date-time within the store's history (else a ValidationError). */
  moment(raw: string): Promise<Date>;
  categories(t: Date): Promise<Category[]>;
  category(t: Date, id: string): Promise<Category>;
  categoryItems(
    t: Date,
    id: string,
    options: { q?: string; sort: CategorySort; order: 'asc' | 'desc'; page: number; pageSize: number },
  ): Promise<CategoryItemsPage>;
}
