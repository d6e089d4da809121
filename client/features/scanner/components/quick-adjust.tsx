// The quick sheet after a scan: the item's stock in big type and -1, +1 and Set count as
// thumb-sized buttons, so a shelf can be worked with one hand.
import { useId, useState } from 'react';
import type { Item } from '../../../../shared/inventory';

export function QuickAdjust({
  item,
  saving,
  onAdjust,
  onSetCount,
}: {
  item: Item;
  saving: boolean;
  onAdjust: (delta: 1 | -1) => void;
  onSetCount: (counted: number) => void;
}) {
  const [counting, setCounting] = useState(false);
  const [counted, setCounted] = useState('');
  const countId = useId();
  const valid = /^\d+$/.test(counted.trim());

  return (
    <div className="scanner-quick">
      <p className="scanner-stock">
        <span className="scanner-stock-label">In stock</span>
        <output className="scanner-stock-value" data-testid="scanner-quantity" aria-live="polite">
          {item.quantity}
        </output>
      </p>
      <div className="scanner-quick-buttons">
        <button
          type="button"
          className="btn btn-secondary scanner-big"
          aria-label="Remove one"
          disabled={saving || item.quantity <= 0}
          onClick={() => onAdjust(-1)}
        >
          −1
        </button>
        <button
          type="button"
          className="btn btn-secondary scanner-big"
          aria-label="Add one"
          disabled={saving}
          onClick={() => onAdjust(1)}
        >
          +1
        </button>
        <button
          type="button"
          className="btn btn-primary scanner-big"
          aria-expanded={counting}
          disabled={saving}
          onClick={() => setCounting((c) => !c)}
        >
          Set count
        </button>
      </div>
      {counting ? (
        <form
          className="scanner-count-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!valid) return;
            onSetCount(parseInt(counted, 10));
            setCounting(false);
            setCounted('');
          }}
        >
          <label htmlFor={countId}>Counted quantity</label>
          <div className="scanner-code-row">
            <input
              id={countId}
              className="input scanner-count-input"
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={counted}
              onChange={(event) => setCounted(event.target.value)}
              autoFocus
            />
            <button type="submit" className="btn btn-primary btn-lg" disabled={!valid || saving}>
              Save count
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
