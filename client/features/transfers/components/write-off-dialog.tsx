// Write off: units in transit that will never arrive (lost, broken on the way), per line,
// with a reason. A loss: the item's stock goes down by them.
import { useState, type FormEvent } from 'react';
import type { Transfer, WriteOffTransferBody } from '../../../../shared/transfers';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { useCloseWhenDone } from './use-close-when-done';

export function WriteOffDialog({
  transfer,
  pending,
  error,
  onSubmit,
  onClose,
}: {
  transfer: Transfer;
  pending: boolean;
  error: string | null;
  onSubmit: (body: WriteOffTransferBody) => void;
  onClose: () => void;
}) {
  const lines = transfer.lines.filter((l) => l.inTransit > 0);
  const [reason, setReason] = useState('');
  const [counts, setCounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(lines.map((l) => [l.itemId, String(l.inTransit)])),
  );
  const [invalid, setInvalid] = useState<string | null>(null);
  useCloseWhenDone(pending, error, onClose);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setInvalid('Say why these units are written off');
    const lost = [];
    for (const line of lines) {
      const text = (counts[line.itemId] ?? '').trim();
      const quantity = text === '' ? 0 : Number(text);
      if (!Number.isInteger(quantity) || quantity < 0 || quantity > line.inTransit)
        return setInvalid(`${line.itemName}: a whole number from 0 to ${line.inTransit}`);
      if (quantity > 0) lost.push({ itemId: line.itemId, quantity });
    }
    if (lost.length === 0) return setInvalid('Nothing to write off: enter how many were lost');
    setInvalid(null);
    onSubmit({ reason: reason.trim(), lines: lost });
  };

  return (
    <Modal
      title={`Write off from transfer #${transfer.number}`}
      description="Units in transit that will never arrive. They are taken off the items' stock as a loss."
      onClose={onClose}
      busy={pending}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" form="write-off-form" className="btn btn-danger" disabled={pending}>
            {pending ? 'Writing off...' : 'Write off'}
          </button>
        </>
      }
    >
      <form id="write-off-form" className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="write-off-reason">Reason</label>
          <input
            id="write-off-reason"
            className="input"
            value={reason}
            maxLength={200}
            placeholder="e.g. broken on the way"
            onChange={(e) => setReason(e.target.value)}
            autoFocus
          />
        </div>
        <fieldset className="transfer-dialog-lines">
          <legend>Lost</legend>
          {lines.map((line) => (
            <div key={line.itemId} className="transfer-dialog-line">
              <label htmlFor={`write-off-${line.itemId}`}>
                <span className="transfer-dialog-item">{line.itemName}</span>
                <span className="field-hint">{line.inTransit} in transit</span>
              </label>
              <input
                id={`write-off-${line.itemId}`}
                className="input transfer-qty"
                inputMode="numeric"
                value={counts[line.itemId] ?? ''}
                onChange={(e) => setCounts((c) => ({ ...c, [line.itemId]: e.target.value }))}
              />
            </div>
          ))}
        </fieldset>
        {invalid || error ? <ErrorBox message={invalid ?? error ?? ''} /> : null}
      </form>
    </Modal>
  );
}
