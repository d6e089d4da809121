// Stock by category: units on hand with a bar against the largest category, and how many
// of its items are low, and their value in the store's currency. Pages like the alerts when
// there are more than the panel holds.
import type { CategoryStock } from '../../../../shared/dashboard';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon } from '../../../components/icons';
import { formatCount, formatWholeMoney } from '../../../lib/format';
import { useFittedPages } from '../use-fitted-pages';
import { PageIndicator } from './page-indicator';

export function DisplayCategories({
  categories,
  money,
  tick,
  everyMs,
}: {
  categories: CategoryStock[];
  money: MoneyFormat;
  tick: number;
  everyMs: number;
}) {
  const { listRef, page, pages, onPage } = useFittedPages(categories.length, tick);
  const top = Math.max(1, ...categories.map((c) => c.units));
  return (
    <section className="display-panel display-categories" aria-labelledby="display-categories-title">
      <header className="display-panel-header">
        <h2 id="display-categories-title">
          <Icon name="folder" /> Stock by category
        </h2>
      </header>
      {categories.length === 0 ? (
        <p className="display-empty">No items yet</p>
      ) : (
        <ul className="display-list display-category-list" ref={listRef} data-testid="display-category-list">
          {categories.map((category, index) => (
            <li
              key={category.categoryId}
              className="display-category"
              data-testid="display-category"
              hidden={!onPage(index)}
            >
              <div className="display-category-line">
                <span className="display-category-name">{category.name}</span>
                <span className="display-category-units" data-testid="display-category-units">
                  {formatCount(category.units)} {category.units === 1 ? 'unit' : 'units'}
                </span>
              </div>
              <span className="display-bar" aria-hidden="true">
                <span className="display-bar-fill" style={{ width: `${Math.max(2, (category.units / top) * 100)}%` }} />
              </span>
              <div className="display-category-line display-category-sub">
                <span>
                  {category.itemCount} {category.itemCount === 1 ? 'item' : 'items'} ·{' '}
                  {formatWholeMoney(category.value, money)}
                </span>
                {category.lowCount > 0 ? <span className="display-low">{category.lowCount} low</span> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <footer className="display-panel-footer">
        <PageIndicator page={page} pages={pages} everyMs={everyMs} testId="display-category-pages" />
      </footer>
    </section>
  );
}
