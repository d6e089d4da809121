// Keeps the store's money format (store-money.ts) in step with the server while someone is
// signed in: started by client/app/signed-in-app.tsx, apart from store-money.ts so a screen
// that only formats prices does not pull in the API client and the feed.
import type { Settings } from '../../shared/accounts';
import { api } from './api-client';
import { earlyReadsSettled } from './first-data';
import { onFeed } from './realtime';
import { setStoreMoney, storeMoney } from './store-money';

const readFromServer = () =>
  api.get<Settings>('/settings').then(
    (settings) => setStoreMoney(settings),
    () => undefined, // offline or refused: the remembered format stands until the next read
  );

/** The longest the read waits for the first screen's early reads (one never taken never settles). */
const FIRST_SCREEN_WAIT_MS = 3000;

/**
 * One read once the first screen's own reads are answered (it is not what that screen waits
 * for), then every settings change the feed pushes; a feed that lost track asks for a resync:
 * read again. Returns the stop.
 */
export function followStoreMoney(): () => void {
  let stopped = false;
  void Promise.race([earlyReadsSettled(), new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS))]).then(
    () => {
      if (!stopped) void readFromServer();
    },
  );
  const offEvent = onFeed('event', ({ event }) => {
    if (event.streamType !== 'settings') return;
    const changes = (event.data as { changes?: Partial<Settings> } | null)?.changes;
    if (changes?.currency === undefined && changes?.locale === undefined) return;
    const now = storeMoney();
    setStoreMoney({ currency: changes.currency ?? now.currency, locale: changes.locale ?? now.locale });
  });
  const offResync = onFeed('resync', () => void readFromServer());
  return () => {
    stopped = true;
    offEvent();
    offResync();
  };
}
