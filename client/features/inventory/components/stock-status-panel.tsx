// Stock Status (spec section 4): the level bar (quantity over threshold, capped at 100%)
// and the message for critically low, running low, or healthy stock.
import { stockLevelPercent, stockStatus, type StockStatus } from '../../../../shared/inventory';

export const STATUS_TEXT: Record<StockStatus, { label: string; message: string }> = {
  critical: { label: 'Critically low', message: 'Stock is at or below the threshold. Reorder now.' },
  low: { label: 'Running low', message: 'Stock is within twice the threshold. Plan a reorder soon.' },
  healthy: { label: 'Healthy', message: 'Stock level is healthy.' },
};

export function StockStatusPanel({ quantity, threshold }: { quantity: number; threshold: number }) {
  const status = stockStatus({ quantity, threshold });
  const percent = stockLevelPercent({ quantity, threshold });
  const text = STATUS_TEXT[status];
  return (
    <section className="card detail-card" aria-labelledby="stock-status-title">
      <h2 id="stock-status-title" className="card-title">
        Stock Status
      </h2>
      <div className="stock-status-row">
        <span className={`status-pill status-${status}`}>{text.label}</span>
        <span className="stock-percent" aria-label={`Stock level ${percent}%`}>
          {percent}%
        </span>
      </div>
      <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Stock level">
        <span className={`meter-fill meter-${status}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="stock-status-message">{text.message}</p>
    </section>
  );
}
