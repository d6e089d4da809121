// App-wide toasts: shown top-right, under the header, for 3 s; a few at once
// (the oldest goes first). Any module can raise one; the viewport component renders them.
// Repeats collapse: the same message raised again while it shows counts up on the
// one toast, and raises of one group (queued counts, low-stock alerts) share one toast whose
// text sums them up ("3 counts waiting to send"), instead of a toast each.
import { useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** A button on the toast (Undo): runs, then the toast closes. */
  action?: { label: string; run: () => void };
  /** How many raises this toast stands for: identical repeats count up here. */
  repeats: number;
  /** The group whose raises this toast sums up (see groupToast). */
  group?: string;
}

export const TOAST_DURATION_MS = 3000;
/** Enough for a few Undos side by side; more would cover the page. */
export const MAX_TOASTS = 5;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
/** When each toast is due to go, and how long it had left when the user held them. */
const deadlines = new Map<number, number>();
const heldLeft = new Map<number, number>();
let held = false;
/** What each grouped toast has collected so far, by toast id. */
const groupEntries = new Map<number, unknown[]>();

function publish(next: Toast[]): void {
  toasts = next;
  // Nothing left to hold: the next toast must not wait for a pointer that left unnoticed.
  if (next.length === 0) held = false;
  for (const listener of listeners) listener();
}

function forget(id: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  groupEntries.delete(id);
  deadlines.delete(id);
  heldLeft.delete(id);
}

function startTimer(id: number, durationMs: number): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  if (held) {
    heldLeft.set(id, durationMs);
    return;
  }
  deadlines.set(id, Date.now() + durationMs);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), durationMs),
  );
}

/** Replaces a showing toast with `change` applied, and restarts its time. */
function refresh(current: Toast, change: Partial<Toast>, durationMs: number): number {
  publish(toasts.map((t) => (t.id === current.id ? { ...t, ...change } : t)));
  startTimer(current.id, durationMs);
  return current.id;
}

function add(toast: Omit<Toast, 'id'>, durationMs: number): number {
  const id = nextId++;
  const next = [...toasts, { id, ...toast }];
  while (next.length > MAX_TOASTS) forget(next.shift()!.id);
  publish(next);
  startTimer(id, durationMs);
  return id;
}

/**
 * While the pointer rests on a toast or focus is in one, none of them goes (WCAG 2.2.1: an
 * Undo must not vanish while someone reaches for it); released, each gets back the time it had.
 */
export function holdToasts(hold: boolean): void {
  if (hold === held) return;
  held = hold;
  if (hold) {
    const now = Date.now();
    for (const [id, timer] of timers) {
      clearTimeout(timer);
      heldLeft.set(id, Math.max(0, (deadlines.get(id) ?? now) - now));
    }
    timers.clear();
    return;
  }
  const left = [...heldLeft];
  heldLeft.clear();
  // A second at least: a toast released at its last millisecond would flicker away.
  for (const [id, ms] of left) startTimer(id, Math.max(ms, 1000));
}

export function dismissToast(id: number): void {
  forget(id);
  if (toasts.some((t) => t.id === id)) publish(toasts.filter((t) => t.id !== id));
}

export function showToast(
  message: string,
  kind: ToastKind = 'info',
  durationMs = TOAST_DURATION_MS,
  action?: Toast['action'],
): number {
  // A toast with a button is about one change (each Undo names its own): never merged.
  const same = action
    ? undefined
    : toasts.find((t) => !t.action && !t.group && t.kind === kind && t.message === message);
  if (same) return refresh(same, { repeats: same.repeats + 1 }, durationMs);
  return add({ kind, message, repeats: 1, ...(action ? { action } : {}) }, durationMs);
}

export interface GroupToast<T> {
  /** Raises with the same group share one toast while it shows. */
  group: string;
  /** What this raise adds to the group (a count's item, an alert). */
  entry: T;
  /** The toast's text for everything the group collected, oldest first. */
  render: (entries: T[]) => string;
  kind?: ToastKind;
  durationMs?: number;
}

/**
 * One toast for a run of raises of the same kind: the first shows alone, each further one
 * while it shows updates its text (render sees every entry) and restarts its time. An error
 * among them makes the whole toast an error.
 */
export function groupToast<T>({
  group,
  entry,
  render,
  kind = 'info',
  durationMs = TOAST_DURATION_MS,
}: GroupToast<T>): number {
  const current = toasts.find((t) => t.group === group);
  if (current) {
    const entries = [...((groupEntries.get(current.id) as T[] | undefined) ?? []), entry];
    groupEntries.set(current.id, entries);
    return refresh(
      current,
      { message: render(entries), repeats: entries.length, kind: kind === 'error' ? 'error' : current.kind },
      durationMs,
    );
  }
  const id = add({ kind, message: render([entry]), repeats: 1, group }, durationMs);
  groupEntries.set(id, [entry]);
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
