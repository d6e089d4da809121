// For / in a browser that was signed in before: waits for the auth state, then goes to
// /dashboard, or shows the landing page when the session has ended.
import type { ReactElement } from 'react';
import { Navigate } from 'react-router-dom';
import { TruckLoader } from '../components/truck-loader';
import { useAuthStatus } from './session';

export function SignedInRedirect({ fallback }: { fallback: ReactElement }) {
  const status = useAuthStatus();
  if (status === 'signedIn') return <Navigate to="/dashboard" replace />;
  if (status === 'loading') return <TruckLoader />;
  return fallback;
}
