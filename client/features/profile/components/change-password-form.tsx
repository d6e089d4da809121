// Change Password for email-and-password accounts: Current Password, New Password and
// Confirm New Password. The current password re-authenticates first.
import { useEffect, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { toast } from '../../../lib/toasts';
import { changePasswordMachine } from '../change-password.machine';

export type ChangePassword = (current: string, next: string) => Promise<void>;

export function ChangePasswordForm({ changePassword }: { changePassword: ChangePassword }) {
  // Provided once: the machine must stay the same across renders.
  const [machine] = useState(() =>
    changePasswordMachine.provide({
      actors: { changePassword: fromPromise(({ input }) => changePassword(input.current, input.next)) },
    }),
  );
  const [state, send] = useMachine(machine);
  const [form, setForm] = useState({ current: '', next: '', confirm: '' });
  const submitting = state.matches('submitting');

  useEffect(() => {
    if (state.context.done) {
      toast.success('Password changed');
      setForm({ current: '', next: '', confirm: '' });
      send({ type: 'RESET' });
    }
  }, [state.context.done, send]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SUBMIT', form });
  };
  const field = (key: keyof typeof form, id: string, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        className="input"
        value={form[key]}
        autoComplete={autoComplete}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      />
    </div>
  );

  return (
    <section className="card profile-card" aria-labelledby="password-title">
      <header className="profile-card-header">
        <h2 id="password-title" className="card-title">
          <Icon name="lock" size={18} /> Change Password
        </h2>
      </header>
      <form className="form-stack" onSubmit={submit} noValidate>
        {field('current', 'current-password', 'Current Password', 'current-password')}
        <div className="field-row profile-password-row">
          {field('next', 'new-password', 'New Password', 'new-password')}
          {field('confirm', 'confirm-password', 'Confirm New Password', 'new-password')}
        </div>
        {state.context.error ? <ErrorBox message={state.context.error} /> : null}
        <div className="profile-buttons">
          <button type="submit" className="btn btn-primary" disabled={submitting}>
            {submitting ? 'Updating...' : 'Update Password'}
          </button>
        </div>
      </form>
    </section>
  );
}
