// A burst of alerts (an import or a stocktake approval can send an item low on every row)
// must not bury the screen in browser notifications (the in-app toasts collapse by
// themselves, see lib/toasts.ts): within a short window the first few speak one by one, and
// the rest are summed up in one message when the window closes.
export interface BurstOptions {
  /** Alerts shown one by one per window. */
  max: number;
  windowMs: number;
  /** Called once at the end of a window with how many alerts were held back. */
  onSummary: (held: number) => void;
  schedule?: (run: () => void, ms: number) => unknown;
}

/** Returns the gate: call it with each alert's "show me" function. */
export function createBurstGate({
  max,
  windowMs,
  onSummary,
  schedule = setTimeout,
}: BurstOptions): (show: () => void) => void {
  let shown = 0;
  let held = 0;
  let open = false;
  return (show) => {
    if (!open) {
      open = true;
      schedule(() => {
        if (held > 0) onSummary(held);
        open = false;
        shown = 0;
        held = 0;
      }, windowMs);
    }
    if (shown < max) {
      shown += 1;
      show();
    } else {
      held += 1;
    }
  };
}
