// The Move dialog of the item page: from a location the item is at (with what is there), to
// another location of that site (by its path in the site's tree), how many, and why (optional).
// Refusals, the form's or the server's, show under the input they are about. Closes when the
// server has moved the stock; the page's table moves with the live feed.
import { useEffect, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ItemLocations } from '../../../../shared/inventory';
import { ErrorBox } from '../../../components/error-box';
import { FieldError } from '../../../components/field-error';
import { Modal } from '../../../components/modal';
import { stockBySite } from '../../../lib/item-places';
import { moveStockMachine } from '../move-stock.machine';
import { initialFrom, type MoveField } from '../move-stock';
import { locationOptions } from '../place-filter';
import type { Item } from '../../../../shared/inventory';

export function MoveStockDialog({
  itemId,
  itemName,
  places,
  preferredSiteId,
  onClose,
  onMoved,
}: {
  itemId: string;
  itemName: string;
  /** Where the item is now (live). */
  places: ItemLocations;
  /** The site this browser works at: its locations are offered first. */
  preferredSiteId: string | null;
  onClose: () => void;
  onMoved: (moved: { item: Item; quantity: number; from: string; to: string }) => void;
}) {
  const fromId = initialFrom(places, preferredSiteId);
  const move = useActorRef(moveStockMachine, {
    input: { itemId, fromId, siteId: places.locations.find((l) => l.locationId === fromId)?.siteId ?? '' },
  });
  const snapshot = useSelector(move, (s) => s);
  const { context } = snapshot;
  const busy = snapshot.matches('moving');
  const sites = stockBySite(places.locations);
  const from = places.locations.find((l) => l.locationId === context.fromId);
  const toOptions = locationOptions(context.locations[context.siteId] ?? [], context.siteId).filter(
    (o) => o.id !== context.fromId,
  );
  const toLabel = toOptions.find((o) => o.id === context.toId)?.label ?? '';

  useEffect(() => {
    if (snapshot.matches('done') && context.moved)
      onMoved({
        item: context.moved,
        quantity: parseInt(context.quantity, 10),
        from: from?.locationName ?? '',
        to: toLabel,
      });
  }, [snapshot.matches('done')]);

  const field = (
    name: MoveField,
    id: string,
    label: string,
    input: (invalid: boolean, describedBy?: string) => ReactNode,
    hint?: string,
  ) => {
    const error = context.errors[name];
    const errorId = `${id}-error`;
    const hintId = `${id}-hint`;
    const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {input(Boolean(error), describedBy)}
        {hint ? (
          <span id={hintId} className="field-hint">
            {hint}
          </span>
        ) : null}
        {error ? <FieldError id={errorId} message={error} /> : null}
      </div>
    );
  };
  const inputClass = (invalid: boolean) => (invalid ? 'input input-invalid' : 'input');

  return (
    <Modal title="Move stock" description={`${itemName} · within a site`} onClose={onClose} busy={busy}>
      <form
        className="form-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          move.send({
            type: 'SUBMIT',
            names: { from: from?.locationName ?? '', to: toLabel.split(' › ').at(-1) ?? '' },
          });
        }}
      >
        {context.errors.form ? <ErrorBox message={context.errors.form} /> : null}
        {field('from', 'move-from', 'From', (invalid, describedBy) => (
          <select
            id="move-from"
            className={inputClass(invalid)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            value={context.fromId}
            disabled={busy}
            onChange={(e) => {
              const place = places.locations.find((l) => l.locationId === e.target.value);
              move.send({ type: 'FROM', locationId: e.target.value, siteId: place?.siteId ?? '' });
            }}
          >
            {context.fromId ? null : <option value="">Choose a location</option>}
            {sites.map((site) => (
              <optgroup key={site.siteId} label={site.siteName}>
                {site.locations.map((l) => (
                  <option key={l.locationId} value={l.locationId}>
                    {l.locationName} · {l.quantity} here
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        ))}
        {snapshot.matches({ editing: 'failed' }) ? (
          <ErrorBox message={context.loadError ?? ''} onRetry={() => move.send({ type: 'RETRY' })} />
        ) : null}
        {field(
          'to',
          'move-to',
          'To',
          (invalid, describedBy) => (
            <select
              id="move-to"
              className={inputClass(invalid)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              value={context.toId}
              disabled={busy || snapshot.matches({ editing: 'reading' })}
              onChange={(e) => move.send({ type: 'TO', locationId: e.target.value })}
            >
              <option value="">
                {snapshot.matches({ editing: 'reading' }) ? 'Reading locations…' : 'Choose a location'}
              </option>
              {toOptions.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          ),
          from ? `At ${from.siteName}: a move stays within a site` : undefined,
        )}
        {field(
          'quantity',
          'move-quantity',
          'Quantity',
          (invalid, describedBy) => (
            <input
              id="move-quantity"
              className={inputClass(invalid)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={context.quantity}
              disabled={busy}
              onChange={(e) => move.send({ type: 'QUANTITY', value: e.target.value })}
              autoFocus
            />
          ),
          from ? `${from.quantity} at ${from.locationName}` : undefined,
        )}
        <div className="field">
          <label htmlFor="move-note">
            Note<span className="optional-mark"> (optional)</span>
          </label>
          <input
            id="move-note"
            className="input"
            maxLength={500}
            value={context.note}
            disabled={busy}
            onChange={(e) => move.send({ type: 'NOTE', value: e.target.value })}
          />
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Moving...' : 'Move stock'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
