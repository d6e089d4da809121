// The quick sheet after a scan: the item's stock in big type and -1, +1 and Set count as
// thumb-sized buttons, so a shelf can be worked with one hand. With a location active (a
// shelf label scanned), the big number is what is there, and the buttons change it there.
import { useId, useState } from 'react';
import type { Item } from '../../../../shared/inventory';

export function QuickAdjust({
  item,
  at,
  saving,
  onAdjust,
  onSetCount,
}: {
  item: Item;
  /** The active location and the item's units there (null: the item's total). */
  at: { name: string; here: number | null } | null;
  saving: boolean;
  onAdjust: (delta: 1 | -1) => void;
  onSetCount: (counted: number) => void;
}) {
  const [counting, setCounting] = useState(false);
  const [counted, setCounted] = useState('');
  const countId = useId();
  const valid = /^\d+$/.test(counted.trim());
  const shown = at ? at.here : item.quantity;

  return (
    <div className="scanner-quick">
      <p className="scanner-stock">
        <span className="scanner-stock-label">
          {at ? `At ${at.name}` : 'In stock'}
          {at ? <small className="scanner-stock-total">{item.quantity} in all</small> : null}
        </span>
        <output className="scanner-stock-value" data-testid="scanner-quantity" aria-live="polite">
          {shown ?? '…'}
        </output>
      </p>
      <div className="scanner-quick-buttons">
        <button
          type="button"
          className="btn btn-secondary scanner-big"
          aria-label="Remove one"
          disabled={saving || (shown ?? 0) <= 0}
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
          <label htmlFor={countId}>{at ? `Counted at ${at.name}` : 'Counted quantity'}</label>
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
