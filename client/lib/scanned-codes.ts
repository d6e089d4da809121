// Where a barcode read anywhere in the app goes to be looked up: search boxes and the
// category page hear hardware scanners (use-keyboard-wedge.ts) and publish the code; the
// signed-in shell listens and opens the scanner's lookup sheet. A tiny channel in lib, so
// screens need not know the scanner feature exists (features meet only in client/app).

type Listener = (code: string) => void;

const listeners = new Set<Listener>();

export function publishScannedCode(code: string): void {
  for (const listener of listeners) listener(code);
}

/** Subscribes to scanned codes; returns the unsubscribe function. */
export function onScannedCode(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * A screen that reads scans for itself (the stocktake's count page, where a scan finds the
 * line to count and must not open the quick sheet, whose Set count would post outside the
 * count) claims the header's Scan button while mounted: the button then calls `open`.
 */
let scanButtonClaim: (() => void) | null = null;

export function claimScanButton(open: () => void): () => void {
  scanButtonClaim = open;
  return () => {
    if (scanButtonClaim === open) scanButtonClaim = null;
  };
}

export function claimedScanButton(): (() => void) | null {
  return scanButtonClaim;
}
