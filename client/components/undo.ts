// Undo of the user's own last change: the success toast carries Undo for 10 s,
// and Ctrl+Z (Cmd+Z) does the same on the page where the change was made, as long as the
// toast could still be clicked. Undo reverts exactly the change the user's write made (the
// server appends compensating events; nothing is deleted): a write sent with a kept
// Idempotency-Key is found by that key, so someone else's later change to the same item is
// never the one undone; a create or category edit is found by the version its answer carried.
// Each Undo button names the change it undoes ("Undo -1 Crème fraîche 1 kg"): with
// several toasts showing, each takes back its own change and no other.
import { useEffect } from 'react';
import { currentToasts, showToast, toast } from '../lib/toasts';
import { historyApi } from './history-api';

export const UNDO_MS = 10_000;

/** Which write to undo: by the Idempotency-Key it was sent with, or by the exact version its answer gave. */
export type UndoTarget = { key: string } | { streamId: string; version: number };

interface Undoable {
  page: string;
  /** Its toast: Ctrl+Z works while that toast shows (held toasts stay past UNDO_MS). */
  toastId: number;
  run: () => void;
}

let last: Undoable | null = null;

async function undo(target: UndoTarget, after?: () => void): Promise<void> {
  try {
    const change =
      'key' in target
        ? await historyApi.changeOfWrite(target.key)
        : await historyApi.changeAt(target.streamId, target.version);
    const result = await historyApi.revert(change.eventId, { reason: 'Undo' });
    toast.success(`Undone: ${result.summary}`);
    after?.();
  } catch (error) {
    toast.error(`Could not undo: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A success toast with an Undo button that names `change` (e.g. "-1 Crème fraîche 1 kg":
 * the button reads "Undo -1 Crème fraîche 1 kg"); Ctrl+Z on this page does the same while the
 * toast lasts.
 */
export function offerUndo(message: string, change: string, target: UndoTarget, after?: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    last = null;
    void undo(target, after);
  };
  const toastId = showToast(message, 'success', UNDO_MS, { label: `Undo ${change}`, run });
  // The page machines also run outside a browser (unit tests): no location, no page to match.
  last = { page: globalThis.location?.pathname ?? '', toastId, run };
}

/**
 * Runs a write with a fresh Idempotency-Key and, once it succeeded, offers Undo of exactly
 * that write (the server finds its events by the key), its button naming `change`.
 */
export async function withUndo<T>(
  write: (key: string) => Promise<T>,
  message: (result: T) => string,
  change: string,
): Promise<T> {
  const key = crypto.randomUUID();
  const result = await write(key);
  offerUndo(message(result), change, { key });
  return result;
}

/** Ctrl+Z / Cmd+Z undoes the last change made on this page (not while typing in a field). */
export function useUndoShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.key.toLowerCase() !== 'z') return;
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      if (!last || !currentToasts().some((t) => t.id === last!.toastId) || last.page !== window.location.pathname)
        return;
      event.preventDefault();
      last.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
