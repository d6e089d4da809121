// One item to count: its name, SKU and barcode, what was counted so far, and a number field
// (Enter or Save sends the count). A count kept offline shows as waiting to be sent.
import { forwardRef } from 'react';
import type { StocktakeLine } from '../../../../shared/stocktake';
import { Icon } from '../../../components/icons';

export interface CountRowProps {
  line: StocktakeLine;
  /** Say where the line is: the session counts at several locations and the page shows them all. */
  showPlace?: boolean;
  /** Counts of this item kept in the outbox, oldest first. */
  waiting: number[];
  saving: boolean;
  highlighted: boolean;
  open: boolean;
  onCount: (counted: number) => void;
}

const STATUS_TEXT = {
  uncounted: 'Not counted',
  counted: 'Counted',
  conflict: 'Counted twice',
  approved: 'Approved',
} as const;
const STATUS_BADGE = {
  uncounted: 'badge-neutral',
  counted: 'badge-success',
  conflict: 'badge-danger',
  approved: 'badge-success',
} as const;

export const CountRow = forwardRef<HTMLInputElement, CountRowProps>(function CountRow(
  { line, showPlace = false, waiting, saving, highlighted, open, onCount },
  ref,
) {
  const inputId = `count-${line.itemId}-${line.locationId}`;
  const canCount = open && line.status !== 'approved';
  return (
    <li
      className={`stocktake-count-row${highlighted ? ' stocktake-highlight' : ''}`}
      data-testid="count-row"
      data-item-id={line.itemId}
      data-location-id={line.locationId}
    >
      <div className="stocktake-count-main">
        <label className="stocktake-count-name" htmlFor={inputId}>
          {line.name}
        </label>
        <span className="stocktake-muted">
          {showPlace ? (
            <span className="stocktake-line-place">
              <Icon name="home" size={12} /> {line.locationName} ·{' '}
            </span>
          ) : null}
          SKU {line.sku}
          {line.barcode ? ` · ${line.barcode}` : ''}
        </span>
        <span className="stocktake-count-state">
          <span className={`badge ${STATUS_BADGE[line.status]}`}>{STATUS_TEXT[line.status]}</span>
          {line.status === 'counted' || line.status === 'approved' ? (
            <span data-testid="counted-value">
              {line.counted}
              {line.countedBy ? ` · ${line.countedBy}` : ''}
            </span>
          ) : null}
          {line.status === 'conflict' ? <span>{line.counts.map((c) => c.counted).join(' and ')}</span> : null}
          {waiting.length > 0 ? (
            <span className="badge stocktake-badge-waiting" title="Kept on this device until the connection returns">
              <Icon name="wifi-off" size={14} /> Waiting to send: {waiting.join(', ')}
            </span>
          ) : null}
        </span>
      </div>
      {canCount ? (
        <form
          className="stocktake-count-form"
          onSubmit={(event) => {
            event.preventDefault();
            const input = event.currentTarget.elements.namedItem('counted') as HTMLInputElement;
            const value = Number(input.value);
            if (input.value === '' || !Number.isInteger(value) || value < 0) return;
            onCount(value);
            input.value = '';
          }}
        >
          <input
            ref={ref}
            id={inputId}
            name="counted"
            className="input stocktake-count-input"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="Count"
            aria-label={showPlace ? `Count of ${line.name} at ${line.locationName}` : `Count of ${line.name}`}
          />
          <button type="submit" className="btn btn-secondary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </form>
      ) : null}
    </li>
  );
});
