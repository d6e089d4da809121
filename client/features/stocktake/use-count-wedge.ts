// Hardware barcode scanners (keyboard wedge) on the session page: a scan with no field
// focused, or typed into the search box, jumps to that item's count field instead of
// opening the app-wide scanner sheet (whose Set count would post outside the stocktake).
import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { createWedgeDetector } from '../../lib/keyboard-wedge';

const withModifier = (e: { ctrlKey: boolean; altKey: boolean; metaKey: boolean }) => e.ctrlKey || e.altKey || e.metaKey;

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Listens on the document while mounted; returns a keydown handler for the search box. */
export function useCountWedge(onCode: (code: string) => void): (event: ReactKeyboardEvent<HTMLInputElement>) => void {
  const handler = useRef(onCode);
  handler.current = onCode;
  const fieldDetector = useRef(createWedgeDetector());

  useEffect(() => {
    const detector = createWedgeDetector();
    const onKeyDown = (event: KeyboardEvent) => {
      if (isEditable(event.target)) return detector.reset();
      const code = detector.feed({ key: event.key, time: event.timeStamp, withModifier: withModifier(event) });
      if (code === null) return;
      event.preventDefault();
      handler.current(code);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (event) => {
    const code = fieldDetector.current.feed({
      key: event.key,
      time: event.timeStamp,
      withModifier: withModifier(event),
    });
    if (code === null) return;
    event.preventDefault();
    handler.current(code);
  };
}
