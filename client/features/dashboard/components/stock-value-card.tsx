// Stock value over the last 30 days, a picture built from the events by the server's
// daily roll-up: where a number alone can't show a trend.
import type { StockValuePoint } from '../../../../shared/dashboard';
import type { MoneyFormat } from '../../../../shared/money-format';
import { Icon } from '../../../components/icons';
import { formatDate, formatWholeMoney } from '../../../lib/format';
import { TrendChart } from './trend-chart';

export function StockValueCard({ points, money }: { points: StockValuePoint[]; money: MoneyFormat }) {
  const first = points[0];
  const last = points.at(-1);
  const change = first && last ? last.value - first.value : 0;
  const label =
    first && last
      ? `Stock value over the last 30 days: ${formatWholeMoney(first.value, money)} on ${formatDate(first.date)}, ${formatWholeMoney(last.value, money)} today`
      : 'No stock value yet';
  return (
    <section className="card dash-card stock-value-card" aria-labelledby="stock-value-title">
      <header className="dash-card-header">
        <h2 id="stock-value-title" className="card-title">
          <Icon name="chart" size={18} /> Stock Value
        </h2>
        <span className="dash-card-caption">Last 30 days</span>
      </header>
      <div className="stock-value-figures">
        <p className="big-figure">{formatWholeMoney(last?.value ?? 0, money)}</p>
        <p className={`change change-${change > 0 ? 'up' : change < 0 ? 'down' : 'neutral'}`}>
          {change === 0
            ? 'No change in 30 days'
            : `${change > 0 ? '+' : '−'}${formatWholeMoney(Math.abs(change), money)} in 30 days`}
        </p>
      </div>
      <TrendChart points={points} label={label} />
      <div className="chart-axis" aria-hidden="true">
        <span>{first ? formatDate(first.date) : ''}</span>
        <span>Today</span>
      </div>
    </section>
  );
}
