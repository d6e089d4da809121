// The store's money format on this device: the currency and locale every
// screen writes prices in. Learned from the server (GET /api/settings once signed in, a
// change pushed over the live feed, the dashboard's and the display's own answers) and
// remembered in localStorage, so a returning user's first screen shows the store's currency
// at once rather than dollars until a read comes back. Components read it with useStoreMoney
// and pass it to client/lib/format.ts; a change redraws them. Kept in step with the server
// by store-money-sync.ts.
import { useSyncExternalStore } from 'react';
import { DEFAULT_MONEY, type MoneyFormat } from '../../shared/money-format';

export const STORE_MONEY_KEY = 'storeMoney';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function remembered(): MoneyFormat | null {
  try {
    const stored = JSON.parse(storage()?.getItem(STORE_MONEY_KEY) ?? 'null') as Partial<MoneyFormat> | null;
    return typeof stored?.currency === 'string' && typeof stored.locale === 'string'
      ? { currency: stored.currency, locale: stored.locale }
      : null;
  } catch {
    return null;
  }
}

let current: MoneyFormat = remembered() ?? DEFAULT_MONEY;
const listeners = new Set<() => void>();

export function storeMoney(): MoneyFormat {
  return current;
}

/** Takes the store's money format as the server gave it; screens showing prices redraw if it changed. */
export function setStoreMoney(next: MoneyFormat): void {
  if (next.currency === current.currency && next.locale === current.locale) return;
  current = { currency: next.currency, locale: next.locale };
  try {
    storage()?.setItem(STORE_MONEY_KEY, JSON.stringify(current));
  } catch {
    // A full or blocked storage only costs the next start its remembered currency.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useStoreMoney(): MoneyFormat {
  return useSyncExternalStore(subscribe, storeMoney, storeMoney);
}
