// "Sign in again": the server changes an email only right after a sign-in, so Save asks for
// the password once more, re-authenticates and sends the same change again.
import { useState, type FormEvent } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';

export function SignInAgainDialog({
  email,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  email: string;
  busy: boolean;
  error: string | null;
  onConfirm: (password: string) => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(password);
  };
  return (
    <Modal
      title="Sign in again"
      description={`To change your email, enter the password of ${email}.`}
      onClose={onCancel}
      busy={busy}
      size="small"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="sign-in-again-form" className="btn btn-primary" disabled={busy}>
            {busy ? 'Checking...' : 'Confirm'}
          </button>
        </>
      }
    >
      <form id="sign-in-again-form" className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="sign-in-again-password">Password</label>
          <input
            id="sign-in-again-password"
            type="password"
            className="input"
            value={password}
            autoComplete="current-password"
            autoFocus
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        {error ? <ErrorBox message={error} /> : null}
      </form>
    </Modal>
  );
}
