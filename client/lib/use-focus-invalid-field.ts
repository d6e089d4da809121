// After a refused submit, the first input marked invalid (aria-invalid) in a form comes
// into view and takes focus: the message beside it (its aria-describedby) is what the user
// sees first and what a screen reader reads, wherever the form was scrolled to.
import { useEffect, type RefObject } from 'react';

/**
 * `attempt` counts the submits, so a second refusal of the same input moves focus back to
 * it; `problem` is the message shown, which arrives later when the server refuses.
 */
export function useFocusInvalidField(
  container: RefObject<HTMLElement | null>,
  attempt: number,
  problem: string | null,
): void {
  useEffect(() => {
    if (!problem) return;
    const input = container.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!input) return;
    // Centred, so a sticky header or a phone's toolbar never covers it.
    input.scrollIntoView({ block: 'center' });
    input.focus({ preventScroll: true });
  }, [container, attempt, problem]);
}
