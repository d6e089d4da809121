// Items Near Expiry: up to 3 items with an expiry date in the next 30 days, soonest first,
// each with Where is it.
import { Link } from 'react-router-dom';
import { expiryText, type NearExpiryItem } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';
import { WhereIsIt } from '../../../components/where-is-it';

export function NearExpiryCard({ items }: { items: NearExpiryItem[] }) {
  return (
    <section className="card dash-card" aria-labelledby="near-expiry-title">
      <header className="dash-card-header">
        <h2 id="near-expiry-title" className="card-title">
          <Icon name="clock" size={18} /> Items Near Expiry
        </h2>
      </header>
      {items.length === 0 ? (
        <p className="dash-empty">No items expiring soon</p>
      ) : (
        <ul className="rank-list">
          {items.map((item) => (
            <li key={item.itemId} className="rank-row">
              <span className="rank-text">
                <Link to={`/inventory/${item.itemId}`} className="rank-name">
                  {item.name}
                </Link>
                <span className="rank-sub">
                  {item.category} · {item.quantity} in stock
                </span>
              </span>
              <span className={`badge ${item.daysLeft <= 7 ? 'dash-badge-warning' : 'badge-neutral'}`}>
                {expiryText(item.daysLeft)}
              </span>
              <WhereIsIt itemId={item.itemId} itemName={item.name} compact />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
