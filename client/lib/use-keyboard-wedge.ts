// Hooks that connect the wedge detector (keyboard-wedge.ts) to the page: one for a focused
// input (a search box), one for the whole page when no field has focus (the category
// page). A detected scan goes to publishScannedCode, which the shell turns into a lookup.
import { useEffect, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createWedgeDetector } from './keyboard-wedge';
import { publishScannedCode } from './scanned-codes';

const hasModifier = (event: { ctrlKey: boolean; altKey: boolean; metaKey: boolean }) =>
  event.ctrlKey || event.altKey || event.metaKey;

/**
 * A keydown handler for an input. On a scan it calls `onScan(code)` (the input can take the
 * scanned characters back out of its value) and publishes the code; Enter is swallowed so
 * a scan never submits a form.
 */
export function useWedgeKeyDown(onScan?: (code: string) => void): (event: ReactKeyboardEvent<HTMLElement>) => void {
  const [detector] = useState(createWedgeDetector);
  return (event) => {
    const code = detector.feed({ key: event.key, time: event.timeStamp, withModifier: hasModifier(event) });
    if (code === null) return;
    event.preventDefault();
    onScan?.(code);
    publishScannedCode(code);
  };
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

// One document listener however many screens ask for it (the category page and the open
// scanner sheet at once), or one scan would be published twice.
let documentUsers = 0;
const documentDetector = createWedgeDetector();

function onDocumentKeyDown(event: KeyboardEvent): void {
  if (isEditable(event.target)) {
    documentDetector.reset();
    return;
  }
  const code = documentDetector.feed({ key: event.key, time: event.timeStamp, withModifier: hasModifier(event) });
  if (code === null) return;
  event.preventDefault();
  publishScannedCode(code);
}

/**
 * Listens on the whole document while mounted, for scans made with no field focused
 * (keys typed into a field belong to that field, and its own handler, if any).
 */
export function useDocumentWedge(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    if (documentUsers++ === 0) document.addEventListener('keydown', onDocumentKeyDown);
    return () => {
      if (--documentUsers === 0) {
        document.removeEventListener('keydown', onDocumentKeyDown);
        documentDetector.reset();
      }
    };
  }, [enabled]);
}
