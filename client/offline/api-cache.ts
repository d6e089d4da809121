// The service worker's cache of API GETs (vite.config.ts names it 'api-get'), forgotten on
// sign-out: the next person on this browser must not open the app on the last one's data.
// Apart from service-worker.ts so the session can call it without loading workbox-window.
const API_CACHE = 'api-get';

export async function clearApiCache(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(API_CACHE).catch(() => false);
}
