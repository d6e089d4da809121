// The auth-completion screen (/auth/callback): 'Completing sign in...' with a spinner, then
// history is replaced with /dashboard when someone is signed in, else /login.
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

export type CallbackStatus = 'loading' | 'signingIn' | 'signedIn' | 'signedOut';

export function AuthCallbackPage({ status }: { status: CallbackStatus }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (status === 'signedIn') navigate('/dashboard', { replace: true });
    else if (status === 'signedOut') navigate('/login', { replace: true });
  }, [status, navigate]);
  return (
    <main className="standalone-page">
      <div className="state-panel" role="status">
        <span className="spinner spinner-lg" aria-hidden="true" />
        <p className="callback-text">Completing sign in...</p>
      </div>
    </main>
  );
}
