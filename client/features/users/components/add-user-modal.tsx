// Add User: name, email, password and role (Staff Member, Store Manager, or a custom role)
// create a real account that can sign in at once.
import { useEffect, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import type { Role, User } from '../../../../shared/accounts';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { addUserMachine } from '../add-user.machine';
import { assignableRoles } from '../user-list';

export function AddUserModal({
  roles,
  onClose,
  onCreated,
}: {
  roles: Role[];
  onClose: () => void;
  onCreated: (user: User) => void;
}) {
  const [state, send] = useMachine(addUserMachine);
  const [form, setForm] = useState({ name: '', email: '', password: '', role: 'staff' });
  const submitting = state.matches('submitting');
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  useEffect(() => {
    if (state.matches('done') && state.context.created) onCreated(state.context.created);
  }, [state, onCreated]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SUBMIT', body: form });
  };

  return (
    <Modal
      title="Add User"
      description="Creates an account that can sign in with this email and password."
      onClose={onClose}
      busy={submitting}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={submitting}>
            Cancel
          </button>
          <button type="submit" form="add-user-form" className="btn btn-primary" disabled={submitting}>
            {submitting ? 'Adding...' : 'Add User'}
          </button>
        </>
      }
    >
      <form id="add-user-form" className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="new-user-name">Full Name</label>
          <input
            id="new-user-name"
            className="input"
            value={form.name}
            onChange={set('name')}
            autoComplete="off"
            required
          />
        </div>
        <div className="field">
          <label htmlFor="new-user-email">Email</label>
          <input
            id="new-user-email"
            type="email"
            className="input"
            value={form.email}
            onChange={set('email')}
            autoComplete="off"
            required
          />
        </div>
        <div className="field">
          <label htmlFor="new-user-password">Password</label>
          <input
            id="new-user-password"
            type="password"
            className="input"
            value={form.password}
            onChange={set('password')}
            autoComplete="new-password"
            minLength={6}
            required
            aria-describedby="new-user-password-hint"
          />
          <span className="field-hint" id="new-user-password-hint">
            At least 6 characters. Share it with the person; they can change it on their Profile.
          </span>
        </div>
        <div className="field">
          <label htmlFor="new-user-role">Role</label>
          <select id="new-user-role" className="input" value={form.role} onChange={set('role')}>
            {assignableRoles(roles).map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
        </div>
        {state.context.error ? <ErrorBox message={state.context.error} /> : null}
      </form>
    </Modal>
  );
}
