// The Adjust stock dialog: where (the location, when there is a choice: adjust-location.ts),
// a reason (sale, restock, damage, correction, stock count), the amount (or, for a count, the
// quantity counted there) and an optional note. It sends one atomic adjustment through the
// item page's machine and closes when the server has accepted it.
import { useState } from 'react';
import type { AdjustChoice } from '../adjust-location';
import { ADJUST_REASONS, type AdjustReason } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';

export const REASON_LABELS: Record<AdjustReason, string> = {
  sale: 'Sale (remove)',
  restock: 'Restock (add)',
  damage: 'Damage or loss (remove)',
  correction: 'Correction',
  count: 'Stock count',
};

/** The delta for a reason and amount; null when the input can't make one. */
export function deltaFor(
  reason: AdjustReason,
  amount: string,
  direction: 'add' | 'remove',
  current: number,
): number | null {
  if (!/^\d+$/.test(amount.trim())) return null;
  const n = parseInt(amount, 10);
  switch (reason) {
    case 'sale':
    case 'damage':
      return n > 0 ? -n : null;
    case 'restock':
      return n > 0 ? n : null;
    case 'correction':
      return n > 0 ? (direction === 'add' ? n : -n) : null;
    case 'count':
      return n - current === 0 ? null : n - current;
  }
}

export function AdjustStockDialog({
  itemName,
  quantity,
  choice = { places: [], initial: null },
  busy,
  error,
  onSubmit,
  onClose,
}: {
  itemName: string;
  quantity: number;
  /** Where it may go (none: the server's default). */
  choice?: AdjustChoice;
  busy: boolean;
  error: string | null;
  onSubmit: (adjustment: { delta: number; reason: AdjustReason; note: string; locationId?: string }) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<AdjustReason>('restock');
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState<'add' | 'remove'>('add');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [placeId, setPlaceId] = useState(choice.initial);
  const place = choice.places.find((p) => p.id === placeId);
  // At a location, what is there is what a sale can take and a count replaces.
  const current = place ? place.quantity : quantity;
  const delta = deltaFor(reason, amount, direction, current);
  const after = delta === null ? null : current + delta;

  const submit = () => {
    if (delta === null) {
      setProblem(
        reason === 'count'
          ? 'Enter the quantity you counted (different from the current stock)'
          : 'Enter a whole number greater than 0',
      );
      return;
    }
    if (after !== null && after < 0) {
      setProblem(place ? `Insufficient stock at ${place.label}: ${place.quantity} there` : 'Insufficient stock');
      return;
    }
    setProblem(null);
    onSubmit({ delta, reason, note, ...(place ? { locationId: place.id } : {}) });
  };

  return (
    <Modal title="Adjust stock" description={`${itemName} · ${quantity} in stock`} onClose={onClose} busy={busy}>
      <form
        className="form-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {problem || error ? <ErrorBox message={problem ?? error ?? ''} /> : null}
        {choice.places.length > 1 ? (
          <div className="field">
            <label htmlFor="adjust-location">Location</label>
            <select
              id="adjust-location"
              className="input"
              value={placeId ?? ''}
              onChange={(e) => setPlaceId(e.target.value)}
              disabled={busy}
            >
              {choice.places.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label} · {p.quantity} here
                </option>
              ))}
            </select>
          </div>
        ) : place ? (
          <p className="field-hint adjust-at" data-testid="adjust-at">
            At <strong>{place.label}</strong> · {place.quantity} here
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="adjust-reason">Reason</label>
          <select
            id="adjust-reason"
            className="input"
            value={reason}
            onChange={(e) => setReason(e.target.value as AdjustReason)}
            disabled={busy}
          >
            {ADJUST_REASONS.map((r) => (
              <option key={r} value={r}>
                {REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        {reason === 'correction' ? (
          <fieldset className="segmented segmented-full">
            <legend className="visually-hidden">Direction</legend>
            {(['add', 'remove'] as const).map((d) => (
              <label key={d} className={direction === d ? 'segmented-button active' : 'segmented-button'}>
                <input
                  type="radio"
                  name="adjust-direction"
                  value={d}
                  checked={direction === d}
                  onChange={() => setDirection(d)}
                  className="visually-hidden"
                />
                {d === 'add' ? 'Add stock' : 'Remove stock'}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="field">
          <label htmlFor="adjust-amount">{reason === 'count' ? 'Quantity counted' : 'Quantity'}</label>
          <input
            id="adjust-amount"
            className="input"
            type="number"
            min={reason === 'count' ? 0 : 1}
            step={1}
            inputMode="numeric"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            disabled={busy}
            autoFocus
          />
          {after !== null ? (
            <p className="field-hint">
              {place ? `New stock at ${place.label}: ` : 'New stock: '}
              <strong>{after}</strong> ({delta! > 0 ? '+' : '−'}
              {Math.abs(delta!)})
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="adjust-note">
            Note<span className="optional-mark"> (optional)</span>
          </label>
          <textarea
            id="adjust-note"
            className="input"
            rows={2}
            maxLength={500}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            disabled={busy}
          />
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving...' : 'Save adjustment'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
