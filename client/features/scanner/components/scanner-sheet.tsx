// The scanner, as a sheet rising from the bottom of the screen: the camera (or a code field
// when there is none), then the item's quick sheet or what to do about an unknown code. A
// scanned shelf label makes its location active, shown at the top of every sheet until
// cleared: items scanned then are changed there, or moved there ("put away").
// Loaded only when first opened (client/app/shell/scanner-host.tsx); zxing loads later
// still, when the camera starts.
import { useEffect, useId, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { useCan } from '../../../lib/session-context';
import { useDocumentWedge } from '../../../lib/use-keyboard-wedge';
import { scannerMachine, type ScannerStart } from '../scanner.machine';
import { CameraView } from './camera-view';
import { CodeEntryForm } from './code-entry-form';
import { QuickAdjust } from './quick-adjust';
import { locationText, setActiveLocation, useActiveLocation } from '../active-location';
import { MoveHere } from './move-here';
import '../scanner.css';

export function ScannerSheet({ start, onClose }: { start: ScannerStart; onClose: () => void }) {
  const navigate = useNavigate();
  const scanner = useActorRef(
    scannerMachine.provide({
      actions: {
        openItem: (_, { itemId }) => navigate(`/inventory/${encodeURIComponent(itemId)}`),
        keepLocation: (_, { location }) => setActiveLocation(location),
      },
    }),
    { input: { start, origin: window.location.origin, active: useActiveLocation() } },
  );
  const snapshot = useSelector(scanner, (s) => s);
  const canAdjust = useCan('stock:update');
  // Adding an item is the add page's permission (its route guard), so the link never bounces.
  const canAddItems = useCan('inventory:manage');
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { code, item, stream, cameraProblem, lookupError, active, places, here } = snapshot.context;
  const closed = snapshot.matches('closed');

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  useEffect(() => {
    if (closed) onClose();
  }, [closed, onClose]);
  // A hardware scanner works inside the sheet too (focus is on its buttons, not a field):
  // the shell turns the code into a new lookup.
  useDocumentWedge();

  const close = () => scanner.send({ type: 'CLOSE' });
  const lookUp = (typed: string) => scanner.send({ type: 'LOOKUP', code: typed });
  const title =
    snapshot.matches('found') && item
      ? item.name
      : snapshot.matches('locationSet') && active
        ? `Put away at ${active.name}`
        : 'Scan a barcode';
  const saving = snapshot.matches({ found: 'saving' });

  return (
    <dialog
      ref={dialog}
      className="scanner-sheet"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onMouseDown={(event) => {
        if (event.target === dialog.current) close();
      }}
    >
      <div className="scanner-sheet-content">
        <header className="scanner-sheet-header">
          <h2 id={titleId} className="scanner-sheet-title">
            {title}
          </h2>
          <button
            type="button"
            className="btn btn-icon btn-ghost scanner-close"
            aria-label="Close scanner"
            onClick={close}
          >
            <Icon name="x" size={22} />
          </button>
        </header>

        {active ? (
          <p className="scanner-active" data-testid="active-location">
            <Icon name="map-pin" size={18} />
            <span>
              Putting away at <strong>{locationText(active)}</strong>
            </span>
            <button
              type="button"
              className="btn btn-sm btn-ghost"
              onClick={() => scanner.send({ type: 'CLEAR_LOCATION' })}
            >
              Clear
            </button>
          </p>
        ) : null}

        {snapshot.matches('locationSet') && active ? (
          <>
            <p className="scanner-hint" role="status">
              Scan items to put them away at {active.name}: +1 adds one there, Move here brings them from another
              location of its site.
            </p>
            <div className="scanner-actions">
              <button
                type="button"
                className="btn btn-primary btn-lg"
                onClick={() => scanner.send({ type: 'SCAN_AGAIN' })}
              >
                Scan an item
              </button>
              <button type="button" className="btn btn-ghost btn-lg" onClick={close}>
                Done
              </button>
            </div>
          </>
        ) : null}

        {snapshot.matches('camera') ? (
          <>
            <CameraView stream={stream} />
            <p className="scanner-hint">Point the camera at a barcode or a label’s QR code.</p>
            <CodeEntryForm onSubmit={lookUp} />
          </>
        ) : null}

        {snapshot.matches('typing') ? (
          <>
            {cameraProblem ? (
              <p className="scanner-problem" role="alert">
                <Icon name="alert" size={20} /> {cameraProblem}
              </p>
            ) : null}
            <CodeEntryForm onSubmit={lookUp} autoFocus />
            <button type="button" className="btn btn-ghost" onClick={() => scanner.send({ type: 'SCAN_AGAIN' })}>
              Try the camera again
            </button>
          </>
        ) : null}

        {snapshot.matches('lookingUp') ? (
          <p className="scanner-hint" role="status">
            Looking up <code>{code}</code>…
          </p>
        ) : null}

        {snapshot.matches('found') && item ? (
          <>
            <p className="scanner-item-meta">
              SKU <code>{item.sku}</code> · {item.category}
            </p>
            {canAdjust ? (
              <>
                <QuickAdjust
                  item={item}
                  at={active ? { name: active.name, here } : null}
                  saving={saving}
                  onAdjust={(delta) => scanner.send({ type: 'ADJUST', delta })}
                  onSetCount={(counted) => scanner.send({ type: 'SET_COUNT', counted })}
                />
                {active && places ? (
                  <MoveHere
                    key={`${item.id}-${item.version}`}
                    places={places}
                    at={active}
                    saving={saving}
                    onMove={(fromLocationId, quantity) => scanner.send({ type: 'MOVE_HERE', fromLocationId, quantity })}
                  />
                ) : null}
              </>
            ) : (
              <p className="scanner-stock">
                <span className="scanner-stock-label">In stock</span>
                <output className="scanner-stock-value" data-testid="scanner-quantity">
                  {item.quantity}
                </output>
              </p>
            )}
            <div className="scanner-actions">
              <button
                type="button"
                className="btn btn-secondary btn-lg"
                onClick={() => scanner.send({ type: 'SCAN_AGAIN' })}
              >
                Scan next
              </button>
              <button type="button" className="btn btn-ghost btn-lg" onClick={close}>
                Done
              </button>
            </div>
          </>
        ) : null}

        {snapshot.matches('unknown') ? (
          <>
            <p className="scanner-unknown" role="status">
              No item has barcode <code>{code}</code>
            </p>
            <div className="scanner-actions">
              {canAddItems ? (
                <Link
                  to={`/inventory/add?barcode=${encodeURIComponent(code)}`}
                  className="btn btn-primary btn-lg"
                  onClick={close}
                >
                  <Icon name="plus" size={18} /> Add item with this barcode
                </Link>
              ) : null}
              <button
                type="button"
                className="btn btn-secondary btn-lg"
                onClick={() => scanner.send({ type: 'SCAN_AGAIN' })}
              >
                Scan again
              </button>
            </div>
            <CodeEntryForm onSubmit={lookUp} />
          </>
        ) : null}

        {snapshot.matches('failed') ? (
          <>
            <ErrorBox
              title="Could not look the code up"
              message={lookupError ?? ''}
              onRetry={() => scanner.send({ type: 'RETRY' })}
            />
            <CodeEntryForm onSubmit={lookUp} />
          </>
        ) : null}
      </div>
    </dialog>
  );
}
