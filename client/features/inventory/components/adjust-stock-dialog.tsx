// The Adjust stock dialog: a reason (sale, restock, damage, correction, stock count), the
// amount (or, for a count, the quantity counted) and an optional note. It sends one atomic
// adjustment through the item page's machine and closes when the server has accepted it.
import { useState } from 'react';
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
  busy,
  error,
  onSubmit,
  onClose,
}: {
  itemName: string;
  quantity: number;
  busy: boolean;
  error: string | null;
  onSubmit: (adjustment: { delta: number; reason: AdjustReason; note: string }) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<AdjustReason>('restock');
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState<'add' | 'remove'>('add');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const delta = deltaFor(reason, amount, direction, quantity);
  const after = delta === null ? null : quantity + delta;

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
      setProblem('Insufficient stock');
      return;
    }
    setProblem(null);
    onSubmit({ delta, reason, note });
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
              New stock: <strong>{after}</strong> ({delta! > 0 ? '+' : '−'}
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
