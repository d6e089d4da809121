// App-wide toasts (spec section 9): shown top-right for 3 s, at most 20 at once (the oldest
// goes first). Any module can raise one; the viewport component renders them.
import { useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** A button on the toast (Undo): runs, then the toast closes. */
  action?: { label: string; run: () => void };
}

export const TOAST_DURATION_MS = 3000;
export const MAX_TOASTS = 20;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  if (toasts.some((t) => t.id === id)) publish(toasts.filter((t) => t.id !== id));
}

export function showToast(message: string, kind: ToastKind = 'info', durationMs = TOAST_DURATION_MS, action?: Toast['action']): number {
  const id = nextId++;
  const next = [...toasts, { id, kind, message, ...(action ? { action } : {}) }];
  while (next.length > MAX_TOASTS) {
    const dropped = next.shift()!;
    const timer = timers.get(dropped.id);
    if (timer) clearTimeout(timer);
    timers.delete(dropped.id);
  }
  publish(next);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), durationMs),
  );
  return id;
}

export const toast = {
  success: (message: string) => showToast(message, 'success'),
  error: (message: string) => showToast(message, 'error'),
  info: (message: string) => showToast(message, 'info'),
};

export function currentToasts(): Toast[] {
  return toasts;
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
    () => toasts,
  );
}
