// Stock Status: the status (critically low, running low, healthy), where
// the stock stands against the threshold in words, a bar, and what to do.
//
// A bar of quantity over threshold, capped at 100%, stood at 100% for every item running
// low or healthy, so "Running low · 100%" said nothing. The bar now
// runs to twice the threshold, where running low ends: critically low fills up to its
// middle mark (the threshold), running low the second half, healthy all of it; and the
// figure beside the status says how far above or below the threshold the stock is.
import { stockStatus, type StockStatus } from '../../../../shared/inventory';

export const STATUS_TEXT: Record<StockStatus, { label: string; message: string }> = {
  critical: { label: 'Critically low', message: 'Stock is at or below the threshold. Reorder now.' },
  low: { label: 'Running low', message: 'Stock is within twice the threshold. Plan a reorder soon.' },
  healthy: { label: 'Healthy', message: 'Stock level is healthy.' },
};

/** Where the stock stands against the threshold: '2 above threshold', 'Out of stock'. */
export function standingText(quantity: number, threshold: number): string {
  if (quantity <= 0) return 'Out of stock';
  if (threshold <= 0) return `${quantity} in stock`;
  if (quantity === threshold) return 'At threshold';
  return quantity > threshold ? `${quantity - threshold} above threshold` : `${threshold - quantity} below threshold`;
}

/** The bar's fill: quantity over twice the threshold (where healthy starts), capped at 100%. */
export function stockBarPercent(quantity: number, threshold: number): number {
  if (threshold <= 0) return quantity > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.round((quantity / (2 * threshold)) * 100)));
}

export function StockStatusPanel({ quantity, threshold }: { quantity: number; threshold: number }) {
  const status = stockStatus({ quantity, threshold });
  const percent = stockBarPercent(quantity, threshold);
  const text = STATUS_TEXT[status];
  const standing = standingText(quantity, threshold);
  return (
    <section className="card detail-card" aria-labelledby="stock-status-title">
      <h2 id="stock-status-title" className="card-title">
        Stock Status
      </h2>
      <div className="stock-status-row">
        <span className={`status-pill status-${status}`}>{text.label}</span>
        <span className="stock-standing" data-testid="stock-standing">
          {standing}
        </span>
      </div>
      <div
        className="meter"
        role="meter"
        aria-label="Stock level"
        aria-valuemin={0}
        aria-valuemax={Math.max(quantity, 2 * threshold)}
        aria-valuenow={quantity}
        aria-valuetext={`${quantity} in stock, threshold ${threshold}: ${standing.toLowerCase()}`}
      >
        <span className={`meter-fill meter-${status}`} style={{ width: `${percent}%` }} />
        {threshold > 0 ? <span className="meter-mark" aria-hidden="true" /> : null}
      </div>
      {threshold > 0 ? (
        <div className="meter-scale" aria-hidden="true">
          <span>0</span>
          <span className="meter-scale-mark">Threshold {threshold}</span>
          <span>{2 * threshold}+</span>
        </div>
      ) : null}
      <p className="stock-status-message">{text.message}</p>
    </section>
  );
}
