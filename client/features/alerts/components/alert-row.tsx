// One low-stock alert: the item (linking to it), its category, current stock against the
// threshold, how long it has been low, Where is it (its locations, one click away), and
// Dismiss (or Restore for a dismissed one). In a
// store of several sites it says which site is low ("Low at Shop 2"), and its stock and
// threshold are that site's.
import { Link } from 'react-router-dom';
import type { LowStockAlert } from '../../../../shared/alerts';
import { lowStockSentence } from '../../../../shared/site-low-stock';
import { Icon } from '../../../components/icons';
import { WhereIsIt } from '../../../components/where-is-it';
import { formatRelative } from '../../../lib/format';

export function AlertRow({
  alert,
  busy,
  onDismiss,
  onRestore,
}: {
  alert: LowStockAlert;
  busy: boolean;
  onDismiss: () => void;
  onRestore: () => void;
}) {
  const out = alert.quantity <= 0;
  return (
    <li className={`alert-row ${alert.dismissed ? 'alert-row-dismissed' : ''}`} data-testid="alert-row">
      <span className={`alert-row-icon ${out ? 'alert-row-icon-out' : ''}`} aria-hidden="true">
        <Icon name="alert" size={20} />
      </span>
      <div className="alert-row-main">
        <Link to={`/inventory/${alert.itemId}`} className="alert-row-name">
          {alert.name}
        </Link>
        {alert.siteName ? (
          <span className="alert-row-site" data-testid="alert-site" title={lowStockSentence(alert)}>
            <Icon name="home" size={14} />
            <span>
              {out ? 'Out of stock at ' : 'Low at '}
              <strong>{alert.siteName}</strong>
            </span>
          </span>
        ) : null}
        <span className="alert-row-sub">
          {alert.category} · SKU {alert.sku} · low since {formatRelative(alert.since)}
        </span>
      </div>
      <dl className="alert-row-figures">
        <div>
          <dt>{alert.siteName ? 'Stock at Site' : 'Current Stock'}</dt>
          <dd className={out ? 'tone-danger' : undefined} data-testid="alert-stock">
            {alert.quantity}
          </dd>
        </div>
        <div>
          <dt>Threshold</dt>
          <dd>{alert.threshold}</dd>
        </div>
      </dl>
      <span className={`badge ${out ? 'badge-danger' : 'alert-badge-low'}`}>{out ? 'Out of stock' : 'Low stock'}</span>
      <WhereIsIt itemId={alert.itemId} itemName={alert.name} compact />
      {alert.dismissed ? (
        <button
          type="button"
          className="btn btn-sm btn-secondary"
          onClick={onRestore}
          disabled={busy}
          aria-label={`Restore alert for ${alert.name}${alert.siteName ? ` at ${alert.siteName}` : ''}`}
        >
          <Icon name="bell" size={15} /> Restore
        </button>
      ) : (
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          onClick={onDismiss}
          disabled={busy}
          aria-label={`Dismiss alert for ${alert.name}${alert.siteName ? ` at ${alert.siteName}` : ''}`}
        >
          <Icon name="x" size={15} /> Dismiss
        </button>
      )}
    </li>
  );
}
