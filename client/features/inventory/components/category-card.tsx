// A category on the Inventory page: name, 'N items', description; opens the category.
import { Link } from 'react-router-dom';
import type { Category } from '../../../../shared/inventory';
import { Icon } from '../../../components/icons';

/** A stable accent colour per category, so cards are easy to tell apart at a glance. */
export function toneOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % 6) + 1;
}

export function CategoryCard({ category }: { category: Category }) {
  return (
    <Link to={`/inventory/category/${category.id}`} className={`card category-card tone-${toneOf(category.name)}`}>
      <span className="category-card-icon" aria-hidden="true">
        <Icon name="folder" size={22} />
      </span>
      <span className="category-card-body">
        <span className="category-card-name">{category.name}</span>
        <span className="category-card-count">
          {category.itemCount} {category.itemCount === 1 ? 'item' : 'items'}
        </span>
        {category.description ? <span className="category-card-description">{category.description}</span> : null}
      </span>
      <Icon name="chevron-right" size={18} className="category-card-arrow" />
    </Link>
  );
}
