// A step's dialog closes once the step it sent is done: it was pending, and is no more with
// no refusal (a refusal keeps the dialog open, saying why).
import { useEffect, useRef } from 'react';

export function useCloseWhenDone(pending: boolean, error: string | null, close: () => void): void {
  const was = useRef(false);
  useEffect(() => {
    if (was.current && !pending && !error) close();
    was.current = pending;
  }, [pending, error, close]);
}
