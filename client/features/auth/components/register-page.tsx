// Sign Up (/register): name, email, password twice and the role asked for. 'Passwords do
// not match' is decided by the machine before anything is sent. The first account of a new
// store becomes its manager; later Store Manager requests wait for a manager's approval.
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ErrorBox } from '../../../components/error-box';
import type { authMachine, RequestedRole } from '../auth.machine';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';

const SIGNUP_FLOWS = ['signup', 'google-signup', 'session'];

export function RegisterPage({ auth }: { auth: ActorRefFrom<typeof authMachine> }) {
  const [form, setForm] = useState({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
    role: 'staff' as RequestedRole,
  });
  const busyFlow = useSelector(auth, (s) => (s.matches('signingIn') ? s.context.flow : null));
  const error = useSelector(auth, (s) =>
    s.matches('error') && SIGNUP_FLOWS.includes(s.context.flow ?? '') ? s.context.error : null,
  );
  const busy = busyFlow !== null;
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  useEffect(() => {
    if (auth.getSnapshot().matches('error')) auth.send({ type: 'CLEAR_ERROR' });
  }, [auth]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    auth.send({ type: 'SIGNUP', ...form, name: form.name.trim(), email: form.email.trim() });
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start tracking stock with your team in minutes."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {error ? <ErrorBox message={error} /> : null}
      <form className="form-stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor="register-name">Full Name</label>
          <input
            id="register-name"
            className="input"
            autoComplete="name"
            required
            value={form.name}
            onChange={set('name')}
          />
        </div>
        <div className="field">
          <label htmlFor="register-email">Email</label>
          <input
            id="register-email"
            className="input"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
          />
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="register-password">Password</label>
            <input
              id="register-password"
              className="input"
              type="password"
              autoComplete="new-password"
              required
              value={form.password}
              onChange={set('password')}
            />
          </div>
          <div className="field">
            <label htmlFor="register-confirm">Confirm Password</label>
            <input
              id="register-confirm"
              className="input"
              type="password"
              autoComplete="new-password"
              required
              value={form.confirmPassword}
              onChange={set('confirmPassword')}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="register-role">Role</label>
          <select id="register-role" className="input" value={form.role} onChange={set('role')}>
            <option value="staff">Staff Member</option>
            <option value="manager">Store Manager</option>
          </select>
          <p className="field-hint">
            {form.role === 'manager'
              ? "A new store's first account becomes its manager; otherwise a manager approves the request."
              : 'Staff can view inventory, add items and update stock levels.'}
          </p>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busyFlow === 'signup' ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <div className="divider">
        <span>or</span>
      </div>
      <GoogleButton
        label={busyFlow === 'google-signup' ? 'Waiting for Google...' : 'Sign up with Google'}
        onClick={() => auth.send({ type: 'GOOGLE', mode: 'signup', role: form.role })}
        disabled={busy}
      />
    </AuthLayout>
  );
}
