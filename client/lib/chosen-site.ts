// The site this browser works at, remembered across visits: the Inventory page's site picker
// sets it, and what names no place reads it (the +/- buttons and Adjust stock take its default
// location, the scanner finds a shelf by its code there). null: All sites. Kept in lib so
// features that never import each other (inventory, scanner) share one answer.
import { useSyncExternalStore } from 'react';

export const CHOSEN_SITE_KEY = 'stockroom.site';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();

/** The remembered site's id, or null for All sites (also for anything stored that is no id). */
export function chosenSite(): string | null {
  const stored = storage()?.getItem(CHOSEN_SITE_KEY) ?? null;
  return stored && UUID.test(stored) ? stored.toLowerCase() : null;
}

/** Remembers a site (null: All sites) for this browser and tells whoever shows it. */
export function chooseSite(siteId: string | null): void {
  if (siteId === chosenSite()) return;
  try {
    if (siteId) storage()?.setItem(CHOSEN_SITE_KEY, siteId.toLowerCase());
    else storage()?.removeItem(CHOSEN_SITE_KEY);
  } catch {
    // A full or refused storage keeps the choice for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === CHOSEN_SITE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The remembered site, kept current. */
export function useChosenSite(): string | null {
  return useSyncExternalStore(subscribe, chosenSite, () => null);
}
