// The public sign-in routes, wired to the session: /login and /register redirect to
// /dashboard once someone is signed in (or to the page they were sent away from), and
// /auth/callback follows the auth state. A lazy chunk: the landing page never loads it.
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { TruckLoader } from '../components/truck-loader';
import { AuthCallbackPage } from '../features/auth/components/auth-callback-page';
import { LoginPage } from '../features/auth/components/login-page';
import { RegisterPage } from '../features/auth/components/register-page';
import { authActor, useAuthStatus } from './session';

export function PublicOnly() {
  const status = useAuthStatus();
  const location = useLocation();
  if (status === 'loading') return <TruckLoader />;
  if (status === 'signedIn') {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard'} replace />;
  }
  return <Outlet />;
}

export function LoginRoute() {
  return <LoginPage auth={authActor} />;
}

export function RegisterRoute() {
  return <RegisterPage auth={authActor} />;
}

export function AuthCallbackRoute() {
  return <AuthCallbackPage status={useAuthStatus()} />;
}
