// Top Selling Items: the most units sold over the last 30 days, 'N sold' each, and
// Where is it.
import { Link } from 'react-router-dom';
import type { TopSellingItem } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';
import { WhereIsIt } from '../../../components/where-is-it';

export function TopSellingCard({ items }: { items: TopSellingItem[] }) {
  return (
    <section className="card dash-card" aria-labelledby="top-selling-title">
      <header className="dash-card-header">
        <h2 id="top-selling-title" className="card-title">
          <Icon name="zap" size={18} /> Top Selling Items
        </h2>
        <span className="dash-card-caption">30 days</span>
      </header>
      {items.length === 0 ? (
        <p className="dash-empty">No sales in the last 30 days</p>
      ) : (
        <ol className="rank-list">
          {items.map((item, index) => (
            <li key={item.itemId} className="rank-row">
              <span className="rank-number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="rank-text">
                <Link to={`/inventory/${item.itemId}`} className="rank-name">
                  {item.name}
                </Link>
                <span className="rank-sub">{item.category}</span>
              </span>
              <span className="rank-figure">{item.sold} sold</span>
              <WhereIsIt itemId={item.itemId} itemName={item.name} compact />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
