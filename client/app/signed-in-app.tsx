// The signed-in app: the guard for every signed-in route (a spinner while the session
// loads, /login when nobody is signed in) and the shell around the pages. Features learn
// who is signed in through SessionContext.
import { useEffect, useMemo } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { TruckLoader } from '../components/truck-loader';
import { AlertNotifier } from '../features/alerts/alert-notifier';
import { SessionContext, type SessionInfo } from '../lib/session-context';
import { followStoreMoney } from '../lib/store-money-sync';
import { clearApiCache } from '../offline/api-cache';
import { OfflineSync } from '../offline/offline-sync';
import { authActor, useAuthStatus } from './session';
import { SessionWatch } from './session-watch';
import { AppShell } from './shell/app-shell';

/** After a 401 the outbox asks for a fresh ID token and replays on (the SDK loads lazily). */
const refreshToken = () =>
  import('../features/auth/firebase').then((firebase) => firebase.idToken(true)).then(() => undefined);

export function SignedInApp() {
  const status = useAuthStatus();
  const location = useLocation();
  const session = useSelector(authActor, (s) => s.context.session);
  const info = useMemo<SessionInfo | null>(
    () => (session ? { user: session.user, permissions: session.permissions } : null),
    [session],
  );
  // However the session ended (logout, account disabled), the next person on this browser
  // must not open the app on the cached API answers.
  useEffect(() => {
    if (status === 'signedOut') void clearApiCache();
  }, [status]);
  // Prices on every screen follow the store's currency, learned once signed in.
  const signedIn = status === 'signedIn';
  useEffect(() => (signedIn ? followStoreMoney() : undefined), [signedIn]);

  if (status === 'loading' || status === 'signingIn') return <TruckLoader label="Signing you in..." />;
  if (status !== 'signedIn' || !info)
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return (
    <SessionContext.Provider value={info}>
      <AlertNotifier key={info.user.id} enabled={info.permissions.includes('reports:view')} />
      <SessionWatch role={info.user.role} permissions={info.permissions} />
      <OfflineSync uid={info.user.id} refreshToken={refreshToken} />
      <AppShell onLogout={() => authActor.send({ type: 'LOGOUT' })} />
    </SessionContext.Provider>
  );
}
