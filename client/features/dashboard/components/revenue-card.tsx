// Revenue: sales adjustments x unit price over the last 30 days, with the change against
// the 30 days before (in place of the spec's hard-coded forecast).
import type { RevenueFigures } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';
import { formatPrice } from '../../../lib/format';

export function changeLabel(changePercent: number | null): string {
  if (changePercent === null) return 'No sales in the previous 30 days';
  const sign = changePercent > 0 ? '+' : '';
  return `${sign}${changePercent.toFixed(1)}% vs previous 30 days`;
}

export function RevenueCard({ revenue }: { revenue: RevenueFigures }) {
  const { last30Days, previous30Days, changePercent, unitsSold } = revenue;
  const top = Math.max(last30Days, previous30Days, 1);
  const tone = changePercent === null ? 'neutral' : changePercent >= 0 ? 'up' : 'down';
  return (
    <section className="card dash-card revenue-card" aria-labelledby="revenue-title">
      <header className="dash-card-header">
        <h2 id="revenue-title" className="card-title">
          <Icon name="chart" size={18} /> Revenue
        </h2>
        <span className="dash-card-caption">Last 30 days</span>
      </header>
      <p className="big-figure" data-testid="revenue-value">
        {formatPrice(last30Days)}
      </p>
      <p className={`change change-${tone}`}>
        {tone !== 'neutral' ? <Icon name="trending-down" size={16} className={tone === 'up' ? 'flip-up' : undefined} /> : null}
        {changeLabel(changePercent)}
      </p>
      <dl className="revenue-bars">
        <div>
          <dt>Last 30 days</dt>
          <dd>
            <span className="bar">
              <span className="bar-fill" style={{ width: `${(last30Days / top) * 100}%` }} />
            </span>
            <span className="bar-figure">{formatPrice(last30Days)}</span>
          </dd>
        </div>
        <div>
          <dt>Previous 30 days</dt>
          <dd>
            <span className="bar">
              <span className="bar-fill bar-fill-muted" style={{ width: `${(previous30Days / top) * 100}%` }} />
            </span>
            <span className="bar-figure">{formatPrice(previous30Days)}</span>
          </dd>
        </div>
      </dl>
      <p className="dash-footnote">
        {unitsSold} {unitsSold === 1 ? 'unit' : 'units'} sold
      </p>
    </section>
  );
}
