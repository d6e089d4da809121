// The signed-in app: the guard for every signed-in route (a spinner while the session
// loads, /login when nobody is signed in) and the shell around the pages. Features learn
// who is signed in through SessionContext.
import { useMemo } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { TruckLoader } from '../components/truck-loader';
import { AlertNotifier } from '../features/alerts/alert-notifier';
import { SessionContext, type SessionInfo } from '../lib/session-context';
import { authActor, useAuthStatus } from './session';
import { SessionWatch } from './session-watch';
import { AppShell } from './shell/app-shell';

export function SignedInApp() {
  const status = useAuthStatus();
  const location = useLocation();
  const session = useSelector(authActor, (s) => s.context.session);
  const info = useMemo<SessionInfo | null>(() => (session ? { user: session.user, permissions: session.permissions } : null), [session]);

  if (status === 'loading' || status === 'signingIn') return <TruckLoader label="Signing you in..." />;
  if (status !== 'signedIn' || !info) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return (
    <SessionContext.Provider value={info}>
      <AlertNotifier key={info.user.id} enabled={info.permissions.includes('reports:view')} />
      <SessionWatch role={info.user.role} permissions={info.permissions} />
      <AppShell onLogout={() => authActor.send({ type: 'LOGOUT' })} />
    </SessionContext.Provider>
  );
}
