// Sign In (/login): email and password, Google, or a guest session (only where the store
// allows guests). Failures show in the red box; the page only sends events to the auth
// machine and reads its snapshot.
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ErrorBox } from '../../../components/error-box';
import type { authMachine } from '../auth.machine';
import { GoogleButton } from './google-button';
import { AuthLayout } from './auth-layout';
import { useGuestSignInOffered } from '../use-guest-sign-in-offered';

const LOGIN_FLOWS = ['login', 'google-login', 'guest', 'session', 'logout'];

export function LoginPage({ auth }: { auth: ActorRefFrom<typeof authMachine> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const busyFlow = useSelector(auth, (s) => (s.matches('signingIn') ? s.context.flow : null));
  const error = useSelector(auth, (s) =>
    s.matches('error') && LOGIN_FLOWS.includes(s.context.flow ?? '') ? s.context.error : null,
  );
  const busy = busyFlow !== null;
  const guestOffered = useGuestSignInOffered();

  // An error left over from the sign-up page is not this form's.
  useEffect(() => {
    if (auth.getSnapshot().matches('error')) auth.send({ type: 'CLEAR_ERROR' });
  }, [auth]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    auth.send({ type: 'LOGIN', email: email.trim(), password });
  };

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Sign in to keep your stock in sync."
      footer={
        <>
          Don&apos;t have an account? <Link to="/register">Sign up</Link>
        </>
      }
    >
      {error ? <ErrorBox message={error} /> : null}
      <form className="form-stack" onSubmit={submit} noValidate={false}>
        <div className="field">
          <label htmlFor="login-email">Email</label>
          <input
            id="login-email"
            className="input"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busyFlow === 'login' ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      <div className="divider">
        <span>or</span>
      </div>
      <div className="form-stack">
        <GoogleButton
          label={busyFlow === 'google-login' ? 'Waiting for Google...' : 'Sign in with Google'}
          onClick={() => auth.send({ type: 'GOOGLE', mode: 'login' })}
          disabled={busy}
        />
        {guestOffered ? (
          <button
            type="button"
            className="btn btn-ghost btn-block"
            onClick={() => auth.send({ type: 'GUEST' })}
            disabled={busy}
          >
            {busyFlow === 'guest' ? 'Starting guest session...' : 'Continue as guest'}
          </button>
        ) : null}
      </div>
    </AuthLayout>
  );
}
