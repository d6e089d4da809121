// "Where is it": one click from anywhere an item appears (list rows, search results, the item
// page) opens a small panel with the item's locations (each by its path: "Back room › Shelf 2
// › Bin 14") and their quantities, grouped by site, and what is in transit, read with one call
// (GET /api/inventory/{id}/locations). While it is open, a change of the item from the live
// feed reads it again. A popover (the browser's top layer: no card's overflow clips it; a
// click outside or Escape closes it), under its button on a wide screen and a sheet at the
// bottom of a phone's.
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import type { ItemLocations } from '../../shared/inventory';
import { api, errorMessage } from '../lib/api-client';
import { placePathText, stockBySite } from '../lib/item-places';
import { onFeed } from '../lib/realtime';
import { Icon } from './icons';
import './where-is-it.css';

const PANEL_WIDTH = 320;
const PHONE_WIDTH = 600;

type Shown = { kind: 'loading' } | { kind: 'ready'; data: ItemLocations } | { kind: 'failed'; message: string };

/** Where the panel goes: under the button (or above it, when the page has no room below). */
function panelPlace(anchor: DOMRect, height: number): CSSProperties | undefined {
  if (window.innerWidth < PHONE_WIDTH) return undefined; // the sheet's own CSS
  const left = Math.min(Math.max(8, anchor.right - PANEL_WIDTH), window.innerWidth - PANEL_WIDTH - 8);
  const below = anchor.bottom + 6;
  const top = below + height > window.innerHeight - 8 && anchor.top - 6 - height > 8 ? anchor.top - 6 - height : below;
  return { left, top, width: PANEL_WIDTH };
}

export function WhereIsIt({
  itemId,
  itemName,
  compact = false,
}: {
  itemId: string;
  itemName: string;
  /** An icon-only button (list rows); otherwise the button says "Where is it". */
  compact?: boolean;
}) {
  const panelId = useId();
  const titleId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const [place, setPlace] = useState<CSSProperties | undefined>(undefined);

  const load = useCallback(async () => {
    try {
      const data = await api.get<ItemLocations>(`/inventory/${encodeURIComponent(itemId)}/locations`);
      setShown({ kind: 'ready', data });
    } catch (error) {
      setShown({ kind: 'failed', message: errorMessage(error, 'Could not read where it is') });
    }
  }, [itemId]);

  useEffect(() => {
    if (!open) return;
    setShown({ kind: 'loading' });
    void load();
    const stream = `item-${itemId}`;
    return onFeed('event', ({ event }) => {
      if (event.stream === stream) void load();
    });
  }, [open, itemId, load]);

  // Placed when opened and whenever what it shows changes its height.
  useEffect(() => {
    if (!open || !button.current || !panel.current) return;
    const reposition = () =>
      setPlace(panelPlace(button.current!.getBoundingClientRect(), panel.current?.offsetHeight ?? 0));
    reposition();
    window.addEventListener('resize', reposition);
    window.addEventListener('scroll', reposition, true);
    return () => {
      window.removeEventListener('resize', reposition);
      window.removeEventListener('scroll', reposition, true);
    };
  }, [open, shown]);

  const label = `Where is ${itemName}`;
  return (
    <>
      <button
        ref={button}
        type="button"
        className={compact ? 'btn btn-icon btn-ghost where-button' : 'btn btn-secondary where-button'}
        popoverTarget={panelId}
        aria-label={compact ? label : undefined}
        title={compact ? label : undefined}
      >
        <Icon name="map-pin" size={compact ? 17 : 18} />
        {compact ? null : ' Where is it'}
      </button>
      <div
        ref={panel}
        id={panelId}
        popover="auto"
        role="dialog"
        aria-labelledby={titleId}
        className="where-popover"
        data-testid="where-is-it"
        style={place}
        onToggle={(event) => setOpen((event as unknown as ToggleEvent).newState === 'open')}
      >
        <header className="where-head">
          <h2 id={titleId} className="where-title">
            <Icon name="map-pin" size={16} /> {label}
          </h2>
          <button
            type="button"
            className="btn btn-icon btn-ghost where-close"
            aria-label="Close"
            popoverTarget={panelId}
            popoverTargetAction="hide"
          >
            <Icon name="x" size={16} />
          </button>
        </header>
        {open ? <WhereBody shown={shown} onRetry={() => void load()} /> : null}
      </div>
    </>
  );
}

function WhereBody({ shown, onRetry }: { shown: Shown; onRetry: () => void }) {
  if (shown.kind === 'loading') return <p className="where-note">Looking…</p>;
  if (shown.kind === 'failed')
    return (
      <p className="where-note where-failed" role="alert">
        {shown.message}{' '}
        <button type="button" className="btn btn-sm btn-ghost" onClick={onRetry}>
          Retry
        </button>
      </p>
    );
  const { data } = shown;
  const sites = stockBySite(data.locations);
  return (
    <div className="where-body">
      {sites.length === 0 ? <p className="where-note">None at any location.</p> : null}
      {sites.map((site) => (
        <section key={site.siteId} className="where-site" aria-label={site.siteName}>
          <h3 className="where-site-name">
            <span>{site.siteName}</span>
            <span className="where-qty">{site.total}</span>
          </h3>
          <ul className="where-list">
            {site.locations.map((l) => (
              <li key={l.locationId} className="where-row">
                <span className="where-location">
                  {placePathText(l)}
                  {l.locationCode ? <small className="where-code">{l.locationCode}</small> : null}
                </span>
                <span className="where-qty">{l.quantity}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {data.inTransit > 0 ? (
        <p className="where-row where-transit">
          <span>In transit</span>
          <span className="where-qty">{data.inTransit}</span>
        </p>
      ) : null}
      <p className="where-row where-total">
        <span>Total</span>
        <span className="where-qty">{data.total}</span>
      </p>
    </div>
  );
}
