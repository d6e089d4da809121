// "Move here" on the quick sheet, with a location active: units of the scanned item at
// another location of that site (where it is, with how many) brought to the active one in
// one move. Offered only when there is somewhere to move from.
import { useId, useState } from 'react';
import type { ItemLocations } from '../../../../shared/inventory';
import type { ActiveLocation } from '../active-location';

/** The item's other locations at the active location's site that hold some, most first. */
export function movableFrom(places: ItemLocations, at: ActiveLocation) {
  return places.locations
    .filter((l) => l.siteId === at.siteId && l.locationId !== at.id && l.quantity > 0)
    .sort((a, b) => b.quantity - a.quantity);
}

export function MoveHere({
  places,
  at,
  saving,
  onMove,
}: {
  places: ItemLocations;
  at: ActiveLocation;
  saving: boolean;
  onMove: (fromLocationId: string, quantity: number) => void;
}) {
  const from = movableFrom(places, at);
  const [fromId, setFromId] = useState(from[0]?.locationId ?? '');
  const chosen = from.find((l) => l.locationId === fromId) ?? from[0];
  const [quantity, setQuantity] = useState(String(chosen?.quantity ?? 1));
  const fromField = useId();
  const quantityField = useId();
  if (!chosen) return null;
  const valid = /^\d+$/.test(quantity.trim()) && parseInt(quantity, 10) > 0;
  return (
    <form
      className="scanner-move-form"
      aria-label={`Move to ${at.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) onMove(chosen.locationId, parseInt(quantity, 10));
      }}
    >
      <div className="scanner-move-fields">
        <div className="scanner-move-field">
          <label htmlFor={fromField}>Move from</label>
          <select
            id={fromField}
            className="input"
            value={chosen.locationId}
            onChange={(event) => {
              setFromId(event.target.value);
              const next = from.find((l) => l.locationId === event.target.value);
              if (next) setQuantity(String(next.quantity));
            }}
          >
            {from.map((l) => (
              <option key={l.locationId} value={l.locationId}>
                {l.locationName} · {l.quantity} there
              </option>
            ))}
          </select>
        </div>
        <div className="scanner-move-field scanner-move-quantity">
          <label htmlFor={quantityField}>Quantity</label>
          <input
            id={quantityField}
            className="input"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={quantity}
            onChange={(event) => setQuantity(event.target.value)}
          />
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-lg" disabled={!valid || saving}>
        Move here
      </button>
    </form>
  );
}
