// Mounted once by the signed-in app: registers the service worker, starts the outbox's
// replays for this user (at once, on `online`, on feed reconnect), and shows the update
// banner.
import { useEffect } from 'react';
import { startOutbox } from './outbox';
import { registerServiceWorker } from './service-worker';
import { UpdateBanner } from './update-banner';

export function OfflineSync({ uid, refreshToken }: { uid: string; refreshToken: () => Promise<void> }) {
  useEffect(() => startOutbox(uid, refreshToken), [uid, refreshToken]);
  useEffect(() => {
    // After the first screen has loaded and the page is idle: installing the worker fetches
    // every file of the app, which must not compete with what the user is waiting for.
    const idle = () =>
      'requestIdleCallback' in window
        ? window.requestIdleCallback(() => registerServiceWorker(), { timeout: 5000 })
        : setTimeout(registerServiceWorker, 2000);
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
    return () => window.removeEventListener('load', idle);
  }, []);
  return <UpdateBanner />;
}
