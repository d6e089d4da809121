// Receive: where at the destination site the units go, and how many of each line arrived
// (all of what is in transit, to start with). What is not received stays in transit.
import { useState, type FormEvent } from 'react';
import type { Location } from '../../../../shared/sites';
import type { ReceiveTransferBody, Transfer } from '../../../../shared/transfers';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { useCloseWhenDone } from './use-close-when-done';

export function ReceiveDialog({
  transfer,
  locations,
  pending,
  error,
  onSubmit,
  onClose,
  onDone,
}: {
  transfer: Transfer;
  /** The destination site's active locations. */
  locations: Location[];
  pending: boolean;
  error: string | null;
  onSubmit: (body: ReceiveTransferBody) => void;
  onClose: () => void;
  onDone: () => void;
}) {
  const lines = transfer.lines.filter((l) => l.inTransit > 0);
  const [toLocationId, setLocation] = useState(locations[0]?.id ?? '');
  const [counts, setCounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(lines.map((l) => [l.itemId, String(l.inTransit)])),
  );
  const [invalid, setInvalid] = useState<string | null>(null);
  useCloseWhenDone(pending, error, onDone);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!toLocationId) return setInvalid(`Choose a location at ${transfer.toSiteName}`);
    const received = [];
    for (const line of lines) {
      const text = (counts[line.itemId] ?? '').trim();
      const quantity = text === '' ? 0 : Number(text);
      if (!Number.isInteger(quantity) || quantity < 0 || quantity > line.inTransit)
        return setInvalid(`${line.itemName}: a whole number from 0 to ${line.inTransit}`);
      if (quantity > 0) received.push({ itemId: line.itemId, quantity });
    }
    if (received.length === 0) return setInvalid('Nothing to receive: enter how many arrived');
    setInvalid(null);
    onSubmit({ toLocationId, lines: received });
  };

  return (
    <Modal
      title={`Receive transfer #${transfer.number}`}
      description={`Units that arrived at ${transfer.toSiteName}. What you do not receive stays in transit.`}
      onClose={onClose}
      busy={pending}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" form="receive-form" className="btn btn-primary" disabled={pending}>
            {pending ? 'Receiving...' : 'Receive'}
          </button>
        </>
      }
    >
      <form id="receive-form" className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="receive-location">Put away at</label>
          <select
            id="receive-location"
            className="input"
            value={toLocationId}
            onChange={(e) => setLocation(e.target.value)}
          >
            {locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name} ({l.code})
              </option>
            ))}
          </select>
        </div>
        <fieldset className="transfer-dialog-lines">
          <legend>Arrived</legend>
          {lines.map((line) => (
            <div key={line.itemId} className="transfer-dialog-line">
              <label htmlFor={`receive-${line.itemId}`}>
                <span className="transfer-dialog-item">{line.itemName}</span>
                <span className="field-hint">{line.inTransit} in transit</span>
              </label>
              <input
                id={`receive-${line.itemId}`}
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
