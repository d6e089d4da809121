// Registers the service worker (built by vite-plugin-pwa into /sw.js, see vite.config.ts)
// from the signed-in shell, so the landing page's JavaScript stays as it was. A new build
// waits until the user chooses "Reload" (the UpdateBanner), instead of changing the app
// under them. When the worker first takes over the page, the API reads the page already
// made are asked again through it, so they are cached for offline use right away.
import { Workbox } from 'workbox-window';
import { useSyncExternalStore } from 'react';
import { api } from '../lib/api-client';

const UPDATE_CHECK_MS = 60 * 60_000;

let registered = false;
let applyUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

function setUpdate(next: (() => void) | null): void {
  applyUpdate = next;
  for (const listener of listeners) listener();
}

/** The Reload action when a new version is waiting, else null. */
export function useUpdateReady(): (() => void) | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => applyUpdate,
  );
}

async function warmApiCache(): Promise<void> {
  // Firebase's config is read with a plain fetch, the rest through the API client.
  // CSV downloads are not screens' data, and the worker does not cache them.
  const paths = ['/client-config', ...api.recentGets().filter((path) => !path.split('?')[0]!.endsWith('.csv'))];
  await Promise.allSettled(
    paths.map((path) => (path === '/client-config' ? fetch('/api/client-config') : api.get(path))),
  );
}

/** Set when the user chose Reload, so the page after the reload finishes the update. */
const UPDATE_ASKED = 'stockroom:update-asked';
/** How long Reload waits for the new version to take over before reloading anyway. */
const TAKEOVER_WAIT_MS = 4000;

/** After the reload, how long the page waits for the remembered update to take over. */
const ASKED_TAKEOVER_MS = 10_000;

/**
 * Activates the waiting version and reloads once it controls the page, so the page and its
 * files match. The browser hands over only when the old version has finished what it was
 * doing (a slow API read, say): if that takes a while, the page reloads anyway, and the next
 * page, finding the request remembered, finishes the update (reloading once more when the
 * new version takes over within ASKED_TAKEOVER_MS; otherwise the banner asks again).
 */
function activateAndReload(wb: Workbox, afterReload = false): void {
  if (!afterReload) sessionStorage.setItem(UPDATE_ASKED, '1');
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
  // The browser's own controllerchange: Workbox's 'controlling' is not sent for a worker
  // that was already waiting when this page registered (found by the browser's update check
  // on navigation), and the Reload button then did nothing.
  navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
  if (afterReload)
    setTimeout(() => navigator.serviceWorker.removeEventListener('controllerchange', reload), ASKED_TAKEOVER_MS);
  else setTimeout(reload, TAKEOVER_WAIT_MS);
  wb.messageSkipWaiting();
}

export function registerServiceWorker(): void {
  if (registered || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registered = true;
  const wb = new Workbox('/sw.js', { scope: '/' });
  const asked = sessionStorage.getItem(UPDATE_ASKED) === '1';
  sessionStorage.removeItem(UPDATE_ASKED);
  wb.addEventListener('waiting', () => {
    // The user already chose Reload on the page before this one: no second question (the
    // banner stays, should the old version still be busy).
    if (asked) activateAndReload(wb, true);
    setUpdate(() => activateAndReload(wb));
  });
  wb.addEventListener('controlling', (event) => {
    if (!event.isUpdate) void warmApiCache();
  });
  wb.register().catch((error: unknown) => console.error('Service worker registration failed', error));
  // A tab left open for days still hears about new versions.
  setInterval(() => void wb.update().catch(() => undefined), UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void wb.update().catch(() => undefined);
  });
}
