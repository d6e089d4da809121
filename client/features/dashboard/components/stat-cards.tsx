// The dashboard's four stat cards: Total Items, Categories, Total Value (whole units
// of the store's currency) and Low Stock, which links to the Alerts screen; in a store of
// several sites Low Stock counts the alerts of every site (Low Stock by Site lists them).
import { Link } from 'react-router-dom';
import type { DashboardTotals, SiteLowStock } from '../../../../shared/dashboard';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon, type IconName } from '../../../components/icons';
import { formatCount, formatWholeMoney } from '../../../lib/format';

function StatCard({
  label,
  value,
  hint,
  icon,
  tone,
  to,
}: {
  label: string;
  value: string;
  hint: string;
  icon: IconName;
  tone: string;
  to?: string;
}) {
  const body = (
    <>
      <span className={`stat-icon stat-icon-${tone}`} aria-hidden="true">
        <Icon name={icon} size={22} />
      </span>
      <span className="stat-text">
        <span className="stat-label">{label}</span>
        <span className="stat-value" data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
          {value}
        </span>
        <span className="stat-hint">{hint}</span>
      </span>
    </>
  );
  return to ? (
    <Link to={to} className="card stat-card stat-card-link">
      {body}
    </Link>
  ) : (
    <div className="card stat-card">{body}</div>
  );
}

export function StatCards({
  totals,
  money,
  lowStockBySite,
}: {
  totals: DashboardTotals;
  money: MoneyFormat;
  lowStockBySite?: SiteLowStock[] | null;
}) {
  // With several sites, an item low at two sites is two alerts: the count is theirs.
  const lowStock = lowStockBySite ? lowStockBySite.reduce((sum, s) => sum + s.count, 0) : totals.lowStock;
  return (
    <section className="stat-grid" aria-label="Store totals">
      <StatCard
        label="Total Items"
        value={formatCount(totals.items)}
        hint={`${formatCount(totals.units)} units on hand`}
        icon="box"
        tone="primary"
        to="/inventory"
      />
      <StatCard
        label="Categories"
        value={formatCount(totals.categories)}
        hint="Groups of items"
        icon="folder"
        tone="info"
        to="/inventory"
      />
      <StatCard
        label="Total Value"
        value={formatWholeMoney(totals.value, money)}
        hint="Quantity × unit price"
        icon="tag"
        tone="success"
      />
      <StatCard
        label="Low Stock"
        value={formatCount(lowStock)}
        hint={
          lowStockBySite && lowStock > 0
            ? `Alerts at ${formatCount(lowStockBySite.filter((s) => s.count > 0).length)} of ${formatCount(lowStockBySite.length)} sites`
            : lowStock === 0
              ? 'Everything above threshold'
              : 'At or below threshold'
        }
        icon="alert"
        tone={lowStock > 0 ? 'danger' : 'neutral'}
        to="/alerts"
      />
    </section>
  );
}
