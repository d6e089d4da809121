// Results of the Inventory page's item search: matching items with category and stock, and
// "Where is it" beside each (outside its link: a button inside a link is no button).
import { Link } from 'react-router-dom';
import { isLowStock, type Item } from '../../../../shared/inventory';
import { formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { ItemImage } from './item-image';
import { WhereIsIt } from '../../../components/where-is-it';

export function SearchResults({ query, results, searching }: { query: string; results: Item[]; searching: boolean }) {
  const money = useStoreMoney();
  return (
    <section className="card search-results" aria-label="Search results" aria-busy={searching}>
      <header className="search-results-head">
        <h2>
          {searching
            ? 'Searching...'
            : `${results.length} ${results.length === 1 ? 'item' : 'items'} matching “${query}”`}
        </h2>
      </header>
      {!searching && results.length === 0 ? <p className="muted search-empty">No items match your search.</p> : null}
      <ul className="search-list">
        {results.map((item) => (
          <li key={item.id} className="search-item">
            <Link to={`/inventory/${item.id}`} className="search-row">
              <ItemImage url={item.imageUrl} name={item.name} className="search-thumb" />
              <span className="search-main">
                <strong>{item.name}</strong>
                <small>
                  {item.sku} · {item.category}
                </small>
              </span>
              <span className="search-price">{formatPrice(item.price, money)}</span>
              <span className={isLowStock(item) ? 'badge badge-danger' : 'badge badge-neutral'}>
                {item.quantity} in stock
              </span>
            </Link>
            <WhereIsIt itemId={item.id} itemName={item.name} compact />
          </li>
        ))}
      </ul>
    </section>
  );
}
