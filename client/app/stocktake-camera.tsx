// The stocktake's camera scan: the scanner feature's camera (zxing, loaded with the camera)
// and its typed-code fallback, in the scanner's sheet, reporting the code read to the count
// page, which puts the cursor in that item's count field. Unlike the header's Scan, nothing
// is adjusted here: in a stocktake a scan only finds the line to count. While it is shown it
// also answers the header's Scan button (client/lib/scanned-codes.ts).
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { assign, setup } from 'xstate';
import { Icon } from '../components/icons';
import { claimScanButton } from '../lib/scanned-codes';
import { cameraScanner, type CameraEvent } from '../features/scanner/camera-scanner.actor';
import { CameraView } from '../features/scanner/components/camera-view';
import { CodeEntryForm } from '../features/scanner/components/code-entry-form';
import '../features/scanner/scanner.css';

const cameraCodeMachine = setup({
  types: { context: {} as { stream: MediaStream | null; problem: string | null }, events: {} as CameraEvent },
  actors: { camera: cameraScanner },
  actions: { read: (_, _params: { code: string }) => {} },
}).createMachine({
  context: { stream: null, problem: null },
  initial: 'camera',
  states: {
    camera: {
      invoke: { src: 'camera' },
      on: {
        CAMERA_READY: { actions: assign({ stream: ({ event }) => event.stream }) },
        CAMERA_FAILED: { target: 'typing', actions: assign({ problem: ({ event }) => event.message, stream: null }) },
        DETECTED: { target: 'done', actions: { type: 'read', params: ({ event }) => ({ code: event.text }) } },
      },
    },
    typing: {},
    done: { type: 'final' },
  },
});

/** Ends with the code read (or typed), or null when closed without one. */
function CameraSheet({ onDone }: { onDone: (code: string | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const read = useRef<string | null>(null);
  const camera = useActorRef(
    cameraCodeMachine.provide({ actions: { read: (_, { code }) => void (read.current = code) } }),
  );
  const { stream, problem } = useSelector(camera, (s) => s.context);
  const done = useSelector(camera, (s) => s.status === 'done');
  const close = () => onDone(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  useEffect(() => {
    if (done) onDone(read.current);
  }, [done, onDone]);
  return (
    <dialog ref={dialog} className="scanner-sheet" aria-labelledby={titleId} onCancel={close}>
      <div className="scanner-sheet-content">
        <header className="scanner-sheet-header">
          <h2 id={titleId} className="scanner-sheet-title">
            Scan an item to count
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
        {problem ? (
          <p className="scanner-problem" role="alert">
            <Icon name="alert" size={20} /> {problem}
          </p>
        ) : (
          <CameraView stream={stream} />
        )}
        <CodeEntryForm onSubmit={onDone} autoFocus={problem !== null} />
      </div>
    </dialog>
  );
}

export function StocktakeScanButton({ onCode }: { onCode: (code: string) => void }) {
  const [open, setOpen] = useState(false);
  // The header's Scan button opens this sheet too while the count page is shown.
  useEffect(() => claimScanButton(() => setOpen(true)), []);
  // Closed first (the dialog gives focus back as it closes), then the page focuses the item's field.
  const done = useCallback(
    (code: string | null) => {
      setOpen(false);
      if (code) onCode(code);
    },
    [onCode],
  );
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
        <Icon name="scan" size={18} /> Scan
      </button>
      {open ? <CameraSheet onDone={done} /> : null}
    </>
  );
}
