// Personal information: Full Name and Email, shown, or edited after Edit Profile; a new
// email waiting for its confirmation link says so.
import { useState, type FormEvent } from 'react';
import type { User } from '../../../../shared/accounts';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';

export function ProfileDetails({
  user,
  canEdit,
  editing,
  saving,
  error,
  emailSentTo = null,
  onEdit,
  onCancel,
  onSave,
}: {
  user: User;
  canEdit: boolean;
  editing: boolean;
  saving: boolean;
  error: string | null;
  /** Where a confirmation link for a new email went. */
  emailSentTo?: string | null;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (name: string, email: string) => void;
}) {
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email ?? '');
  const start = () => {
    setName(user.name);
    setEmail(user.email ?? '');
    onEdit();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(name, email);
  };
  return (
    <section className="card profile-card" aria-labelledby="details-title">
      <header className="profile-card-header">
        <h2 id="details-title" className="card-title">
          <Icon name="user" size={18} /> Personal Information
        </h2>
        {canEdit && !editing ? (
          <button type="button" className="btn btn-sm btn-secondary" onClick={start}>
            <Icon name="edit" size={15} /> Edit Profile
          </button>
        ) : null}
      </header>
      {editing ? (
        <form className="form-stack" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="profile-name">Full Name</label>
            <input
              id="profile-name"
              className="input"
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={100}
              autoComplete="name"
            />
          </div>
          {user.email !== null ? (
            <div className="field">
              <label htmlFor="profile-email">Email</label>
              <input
                id="profile-email"
                type="email"
                className="input"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoComplete="email"
              />
            </div>
          ) : null}
          {error ? <ErrorBox message={error} /> : null}
          <div className="profile-buttons">
            <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={saving}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Saving...' : 'Save Changes'}
            </button>
          </div>
        </form>
      ) : (
        <dl className="profile-facts">
          <div>
            <dt>Full Name</dt>
            <dd data-testid="profile-full-name">{user.name || '—'}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd data-testid="profile-email">{user.email ?? '—'}</dd>
          </div>
        </dl>
      )}
      {emailSentTo && emailSentTo !== user.email?.toLowerCase() ? (
        <p className="muted profile-note" role="status" data-testid="profile-email-pending">
          We sent a link to {emailSentTo}. Your email changes when you follow it; then sign in with the new address.
        </p>
      ) : null}
      {!canEdit ? (
        <p className="muted profile-note">
          Guests have no profile to edit. Create an account to keep your own details.
        </p>
      ) : null}
    </section>
  );
}
