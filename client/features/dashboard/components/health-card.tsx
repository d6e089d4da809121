// Inventory Health: Stock Levels (items above threshold), Turnover Rate (units sold /
// average units on hand, 30 days), Reorder Alerts, and Avg Restock Time (from going low
// to the stock movement that cleared it), all computed by the server.
import { Link } from 'react-router-dom';
import type { InventoryHealth } from '../../../../shared/dashboard';
import { Icon } from '../../../components/icons';

export function durationText(hours: number): string {
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${hours.toFixed(1)} hours`;
  return `${(hours / 24).toFixed(1)} days`;
}

export function HealthCard({ health, items }: { health: InventoryHealth; items: number }) {
  const percent = health.stockLevelPercent;
  return (
    <section className="card dash-card health-card" aria-labelledby="health-title">
      <header className="dash-card-header">
        <h2 id="health-title" className="card-title">
          <Icon name="check-circle" size={18} /> Inventory Health
        </h2>
      </header>
      <div className="health-levels">
        <div className="health-levels-head">
          <span className="health-label">Stock Levels</span>
          <span className="health-figure">{percent === null ? '—' : `${percent}%`}</span>
        </div>
        <span
          className="bar"
          role="progressbar"
          aria-label="Items above their threshold"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? 0}
        >
          <span
            className={`bar-fill ${percent !== null && percent < 80 ? 'bar-fill-warning' : ''}`}
            style={{ width: `${percent ?? 0}%` }}
          />
        </span>
        <span className="health-sub">
          {health.itemsAboveThreshold} of {items} items above threshold
        </span>
      </div>
      <dl className="health-list">
        <div className="health-row">
          <dt>
            <span className="health-label">Turnover Rate</span>
            <span className="health-sub">Units sold / average stock, 30 days</span>
          </dt>
          <dd className="health-figure">{health.turnover === null ? '—' : `${health.turnover.toFixed(1)}x`}</dd>
        </div>
        <div className="health-row">
          <dt>
            <span className="health-label">Reorder Alerts</span>
            <span className="health-sub">{health.reorderAlerts.raisedLast30Days} raised in 30 days</span>
          </dt>
          <dd>
            <Link
              to="/alerts"
              className={`health-figure ${health.reorderAlerts.open > 0 ? 'tone-danger' : ''}`}
              aria-label={`${health.reorderAlerts.open} reorder alerts`}
            >
              {health.reorderAlerts.open}
            </Link>
          </dd>
        </div>
        <div className="health-row">
          <dt>
            <span className="health-label">Avg Restock Time</span>
            <span className="health-sub">
              {health.restocksCounted === 0
                ? 'No restocks in 30 days'
                : `From going low to restocked, ${health.restocksCounted} ${health.restocksCounted === 1 ? 'restock' : 'restocks'}`}
            </span>
          </dt>
          <dd className="health-figure">
            {health.avgRestockHours === null ? '—' : durationText(health.avgRestockHours)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
