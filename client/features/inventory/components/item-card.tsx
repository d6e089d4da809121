// An item on the Category page: picture, name, description, price, 'N in stock' (flagged
// low at or below the threshold), View Details, Where is it, -/+ (with stock permission),
// edit and delete (with their permissions).
import { memo } from 'react';
import { Link } from 'react-router-dom';
import { isLowStock, type Item } from '../../../../shared/inventory';
import { Icon } from '../../../components/icons';
import { formatPrice } from '../../../lib/format';
import { useStoreMoney } from '../../../lib/store-money';
import { PendingMark, usePendingQuantity } from '../../../offline/pending-mark';
import { ItemImage } from './item-image';
import { WhereIsIt } from '../../../components/where-is-it';

export interface ItemCardProps {
  item: Item;
  /** Sum of +/- clicks still on their way to the server. */
  pendingDelta: number;
  canAdjust: boolean;
  canEdit: boolean;
  canDelete: boolean;
  /** Stable across renders (the card is memoised): it is told which item. */
  onAdjust: (item: Item, delta: 1 | -1) => void;
  onDelete: (item: Item) => void;
}

/**
 * Memoised: a refetch that changed one item (or nothing) redraws only that card, not the
 * page's twelve (client/lib/keep-equal.ts keeps the unchanged items' objects).
 */
export const ItemCard = memo(function ItemCard({
  item,
  pendingDelta,
  canAdjust,
  canEdit,
  canDelete,
  onAdjust,
  onDelete,
}: ItemCardProps) {
  const money = useStoreMoney();
  const low = isLowStock(item);
  // Changes kept offline count as made: shown applied, marked Pending.
  const queued = usePendingQuantity(item.id, item.quantity);
  const atZero = queued.quantity + pendingDelta <= 0;
  return (
    <article className={low ? 'card item-card item-card-low' : 'card item-card'} aria-label={item.name}>
      <div className="item-card-media">
        <Link to={`/inventory/${item.id}`} tabIndex={-1} aria-hidden="true" className="item-card-media-link">
          <ItemImage url={item.imageUrl} name={item.name} />
        </Link>
        {canEdit || canDelete ? (
          <div className="item-card-tools">
            {canEdit ? (
              <Link
                to={`/inventory/${item.id}/edit`}
                className="tool-button"
                aria-label={`Edit ${item.name}`}
                title="Edit"
              >
                <Icon name="edit" size={16} />
              </Link>
            ) : null}
            {canDelete ? (
              <button
                type="button"
                className="tool-button tool-button-danger"
                aria-label={`Delete ${item.name}`}
                title="Delete"
                onClick={() => onDelete(item)}
              >
                <Icon name="trash" size={16} />
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      <div className="item-card-body">
        <div className="item-card-title-row">
          <h3 className="item-card-name">
            <Link to={`/inventory/${item.id}`}>{item.name}</Link>
          </h3>
          <span className="item-card-price">{formatPrice(item.price, money)}</span>
        </div>
        <p className="item-card-description">{item.description || 'No description'}</p>
        <div className="item-card-meta">
          <span
            className={low ? 'badge badge-danger stock-badge' : 'badge badge-success stock-badge'}
            data-testid="stock-badge"
          >
            {low ? <Icon name="alert" size={13} /> : null}
            {queued.quantity} in stock
            {low ? <span className="visually-hidden"> (low stock)</span> : null}
          </span>
          {queued.waiting ? <PendingMark count={queued.waiting} /> : null}
          <span className="item-card-sku">{item.sku}</span>
        </div>
      </div>
      <footer className="item-card-actions">
        <Link to={`/inventory/${item.id}`} className="btn btn-sm btn-ghost">
          <Icon name="eye" size={16} /> View Details
        </Link>
        <div className="item-card-buttons">
          <WhereIsIt itemId={item.id} itemName={item.name} compact />
          {canAdjust ? (
            <div className="stepper" role="group" aria-label={`Stock of ${item.name}`}>
              <button
                type="button"
                className="stepper-button"
                aria-label={`Decrease quantity of ${item.name}`}
                onClick={() => onAdjust(item, -1)}
                disabled={atZero}
              >
                <Icon name="minus" size={16} />
              </button>
              <span className="stepper-value" aria-live="polite">
                {queued.quantity}
              </span>
              <button
                type="button"
                className="stepper-button"
                aria-label={`Increase quantity of ${item.name}`}
                onClick={() => onAdjust(item, 1)}
              >
                <Icon name="plus" size={16} />
              </button>
            </div>
          ) : null}
        </div>
      </footer>
    </article>
  );
});
