// The location a scanned shelf label made active: "put away at / move to here". Each scan
// opens a fresh scanner sheet (client/app/shell/scanner-host.tsx), so the choice lives here,
// beside the sheets, for this tab's session (a reload keeps it; a new tab starts without),
// until cleared or another label is scanned.
import { useSyncExternalStore } from 'react';

export interface ActiveLocation {
  id: string;
  siteId: string;
  name: string;
  /** Its names from the site's top level down to it. */
  path: string[];
}

const KEY = 'stockroom.putAwayAt';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ActiveLocation | null } = { raw: null, value: null };
/** Where the choice is kept when the browser keeps no session storage. */
let memory: string | null = null;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function parse(raw: string | null): ActiveLocation | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ActiveLocation>;
    if (typeof value.id !== 'string' || typeof value.siteId !== 'string' || typeof value.name !== 'string') return null;
    return { id: value.id, siteId: value.siteId, name: value.name, path: Array.isArray(value.path) ? value.path : [] };
  } catch {
    return null;
  }
}

/** The active location (the same object while unchanged, as useSyncExternalStore needs). */
export function activeLocation(): ActiveLocation | null {
  const store = storage();
  const raw = store ? store.getItem(KEY) : memory;
  if (raw !== cached.raw) cached = { raw, value: parse(raw) };
  return cached.value;
}

export function setActiveLocation(location: ActiveLocation | null): void {
  memory = location ? JSON.stringify(location) : null;
  try {
    if (location) storage()?.setItem(KEY, memory!);
    else storage()?.removeItem(KEY);
  } catch {
    // A refused write: the old value would come back; forget it too.
    storage()?.removeItem(KEY);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useActiveLocation(): ActiveLocation | null {
  return useSyncExternalStore(subscribe, activeLocation, () => null);
}

/** "Back room › Shelf 2" (or its name when its path is unknown). */
export const locationText = (location: ActiveLocation) =>
  location.path.length ? location.path.join(' › ') : location.name;
