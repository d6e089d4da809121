// Where the scanner meets the rest of the app: the header's Scan button opens it with the
// camera, and a code from a hardware scanner (published by search boxes and the category
// page, client/lib/scanned-codes.ts) opens it straight on that code's lookup. The scanner
// feature is its own chunk, loaded on first use; zxing loads later still, with the camera.
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Icon } from '../../components/icons';
import { claimedScanButton, onScannedCode } from '../../lib/scanned-codes';
import type { ScannerStart } from '../../features/scanner/scanner.machine';

const ScannerSheet = lazy(() =>
  import('../../features/scanner/components/scanner-sheet').then((m) => ({ default: m.ScannerSheet })),
);

interface Session {
  /** A new session per scan: the sheet starts over rather than carry the last code's state. */
  key: number;
  start: ScannerStart;
}

export function ScannerHost() {
  const [session, setSession] = useState<Session | null>(null);
  const open = useCallback(
    (start: ScannerStart) => setSession((current) => ({ key: (current?.key ?? 0) + 1, start })),
    [],
  );
  const close = useCallback(() => setSession(null), []);

  useEffect(() => onScannedCode((code) => open({ kind: 'code', code })), [open]);

  return (
    <>
      <button
        type="button"
        className="btn btn-secondary scan-button"
        aria-label="Scan a barcode"
        onClick={() => (claimedScanButton() ?? (() => open({ kind: 'camera' })))()}
      >
        <Icon name="scan" size={18} />
        <span className="scan-button-label">Scan</span>
      </button>
      {session ? (
        <Suspense fallback={null}>
          <ScannerSheet key={session.key} start={session.start} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
