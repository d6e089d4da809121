// Keeps the signed-in session in step with the server when the live feed can't say so: the
// feed only carries account events to those who may manage users, so a staff member whose
// role was just approved or changed hears nothing. This asks GET /api/me now and then (and
// when the tab comes back, and after the feed reconnects) and refreshes the session when
// the server's role or permissions differ from what the screens show.
import { useEffect } from 'react';
import { api } from '../lib/api-client';
import { onFeed } from '../lib/realtime';
import { authActor } from './session';
import { sameGrant } from './session-grant';

export const WATCH_EVERY_MS = 15_000;

export function SessionWatch({ role, permissions }: { role: string; permissions: readonly string[] }) {
  useEffect(() => {
    let stopped = false;
    let running = false;
    const check = async () => {
      if (running || stopped) return;
      running = true;
      try {
        const me = await api.get<{ role: string; permissions: string[] }>('/me');
        if (!stopped && !sameGrant(me, { role, permissions })) authActor.send({ type: 'REFRESH_SESSION' });
      } catch {
        // Offline, restarting or signing out: the next check tries again.
      } finally {
        running = false;
      }
    };
    const timer = setInterval(check, WATCH_EVERY_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    const off = onFeed('connected', () => void check());
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      off();
    };
  }, [role, permissions]);
  return null;
}
