// /display: the wall display, outside the app shell (no header, no dock). Any account or a
// guest may open it; signed out, it sends the person to sign in and comes back here.
import { useMemo } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { TruckLoader } from '../components/truck-loader';
import { DisplayPage } from '../features/display/pages';
import { SessionContext, type SessionInfo } from '../lib/session-context';
import { AccessDenied } from './access-denied';
import { authActor, useAuthStatus } from './session';
import { SessionWatch } from './session-watch';

export function DisplayRoute() {
  const status = useAuthStatus();
  // Back to this very URL after sign-in: a wall's settings live in it (?rotate=...).
  const { search } = useLocation();
  const session = useSelector(authActor, (s) => s.context.session);
  const info = useMemo<SessionInfo | null>(
    () => (session ? { user: session.user, permissions: session.permissions } : null),
    [session],
  );

  if (status === 'loading' || status === 'signingIn') return <TruckLoader label="Starting the display..." />;
  if (status !== 'signedIn' || !info) return <Navigate to="/login" replace state={{ from: `/display${search}` }} />;
  if (!info.permissions.includes('reports:view')) {
    return (
      <main className="standalone-page">
        <AccessDenied />
      </main>
    );
  }
  return (
    <SessionContext.Provider value={info}>
      <SessionWatch role={info.user.role} permissions={info.permissions} />
      <DisplayPage />
    </SessionContext.Provider>
  );
}
