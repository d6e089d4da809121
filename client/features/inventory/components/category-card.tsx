// A category on the Inventory page: name, 'N items', description; opens the category.
// Managers also get its menu (Edit, Delete), beside the link rather than inside it.
import { Link } from 'react-router-dom';
import type { Category } from '../../../../shared/inventory';
import { ActionMenu, type MenuAction } from '../../../components/action-menu';
import { Icon } from '../../../components/icons';

/** A stable accent colour per category, so cards are easy to tell apart at a glance. */
export function toneOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return (hash % 6) + 1;
}

/** 'N items' with the right plural: '1 item', '2 items', '0 items'. */
export function itemCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/** `to`: where the card leads, when not the live category page (the store as of a moment). */
export function CategoryCard({
  category,
  actions = [],
  to,
}: {
  category: Category;
  actions?: MenuAction[];
  to?: string;
}) {
  return (
    <div
      className={`card category-card tone-${toneOf(category.name)}${actions.length ? ' has-menu' : ''}`}
      data-testid="category-card"
    >
      <Link to={to ?? `/inventory/category/${category.id}`} className="category-card-link">
        <span className="category-card-icon" aria-hidden="true">
          <Icon name="folder" size={22} />
        </span>
        <span className="category-card-body">
          <span className="category-card-name">{category.name}</span>
          <span className="category-card-count">{itemCountLabel(category.itemCount)}</span>
          {category.description ? <span className="category-card-description">{category.description}</span> : null}
        </span>
        <Icon name="chevron-right" size={18} className="category-card-arrow" />
      </Link>
      {actions.length ? (
        <ActionMenu className="category-card-menu" label={`Actions for ${category.name}`} actions={actions} />
      ) : null}
    </div>
  );
}
