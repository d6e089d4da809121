// Revenue Forecast, from real figures: the revenue projected for the next
// 30 days at the pace of the last 30 (none until the store has a week of sales: see
// forecastPending), the change of the last 30 days against the 30 before, and both
// periods' actual revenue (sales adjustments x unit price).
import { MIN_FORECAST_DAYS, type RevenueFigures } from '../../../../shared/dashboard';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon } from '../../../components/icons';
import { formatPrice } from '../../../lib/format';

export function changeLabel(changePercent: number | null): string {
  if (changePercent === null) return 'No sales in the previous 30 days';
  const sign = changePercent > 0 ? '+' : '';
  return `${sign}${changePercent.toFixed(1)}% vs previous 30 days`;
}

/** What the projection is based on, in words. */
export function forecastBasis(days: number): string {
  if (days >= 30) return 'At the pace of the last 30 days';
  return `At the pace of the store's ${days === 1 ? 'first day' : `first ${days} days`}`;
}

/**
 * Why there is no forecast yet: a store younger than MIN_FORECAST_DAYS
 * gets none rather than a month extrapolated from a few hours; this says how far it is.
 */
export function forecastPending(days: number): string {
  const needs = `A forecast needs ${MIN_FORECAST_DAYS} days of sales`;
  return days <= 1 ? `${needs}; today is the store's first.` : `${needs}; this is day ${days} of ${MIN_FORECAST_DAYS}.`;
}

export function RevenueCard({ revenue, money }: { revenue: RevenueFigures; money: MoneyFormat }) {
  const { last30Days, previous30Days, changePercent, unitsSold, forecastNext30Days, forecastBasisDays } = revenue;
  const top = Math.max(last30Days, previous30Days, 1);
  const tone = changePercent === null ? 'neutral' : changePercent >= 0 ? 'up' : 'down';
  return (
    <section className="card dash-card revenue-card" aria-labelledby="revenue-title">
      <header className="dash-card-header">
        <h2 id="revenue-title" className="card-title">
          <Icon name="chart" size={18} /> Revenue Forecast
        </h2>
        <span className="dash-card-caption">Next 30 days</span>
      </header>
      {forecastNext30Days === null ? (
        <>
          <p className="big-figure big-figure-pending" data-testid="revenue-forecast">
            No forecast yet
          </p>
          <p className="revenue-basis">{forecastPending(forecastBasisDays)}</p>
        </>
      ) : (
        <>
          <p className="big-figure" data-testid="revenue-forecast">
            {formatPrice(forecastNext30Days, money)}
          </p>
          <p className="revenue-basis">{forecastBasis(forecastBasisDays)}</p>
        </>
      )}
      <p className={`change change-${tone}`}>
        {tone !== 'neutral' ? (
          <Icon name="trending-down" size={16} className={tone === 'up' ? 'flip-up' : undefined} />
        ) : null}
        {changeLabel(changePercent)}
      </p>
      <dl className="revenue-bars">
        <div>
          <dt>Last 30 days</dt>
          <dd>
            <span className="bar">
              <span className="bar-fill" style={{ width: `${(last30Days / top) * 100}%` }} />
            </span>
            <span className="bar-figure" data-testid="revenue-value">
              {formatPrice(last30Days, money)}
            </span>
          </dd>
        </div>
        <div>
          <dt>Previous 30 days</dt>
          <dd>
            <span className="bar">
              <span className="bar-fill bar-fill-muted" style={{ width: `${(previous30Days / top) * 100}%` }} />
            </span>
            <span className="bar-figure">{formatPrice(previous30Days, money)}</span>
          </dd>
        </div>
      </dl>
      <p className="dash-footnote">
        {unitsSold} {unitsSold === 1 ? 'unit' : 'units'} sold in the last 30 days
      </p>
    </section>
  );
}
