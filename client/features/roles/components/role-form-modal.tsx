// Add Role / Edit Role: Role Name, Description and the permission checkboxes.
import { useEffect, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import type { Role } from '../../../../shared/accounts';
import { PERMISSIONS, type Permission } from '../../../../shared/permissions';
import { ErrorBox } from '../../../components/error-box';
import { Modal } from '../../../components/modal';
import { roleFormMachine } from '../role-form.machine';

export function RoleFormModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: Role | null;
  onClose: () => void;
  onSaved: (role: Role) => void;
}) {
  const [state, send] = useMachine(roleFormMachine, { input: { editing } });
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [permissions, setPermissions] = useState<Permission[]>(editing?.permissions ?? []);
  const saving = state.matches('saving');

  useEffect(() => {
    if (state.matches('done') && state.context.saved) onSaved(state.context.saved);
  }, [state, onSaved]);

  const toggle = (permission: Permission, on: boolean) =>
    setPermissions((current) =>
      on
        ? PERMISSIONS.map((p) => p.key).filter((k) => k === permission || current.includes(k))
        : current.filter((p) => p !== permission),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'SUBMIT', body: { name, description, permissions } });
  };

  return (
    <Modal
      title={editing ? 'Edit Role' : 'Add Role'}
      description={
        editing
          ? 'Changes apply at once to everyone with this role.'
          : 'A role is a named set of permissions you can give to accounts.'
      }
      onClose={onClose}
      busy={saving}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" form="role-form" className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving...' : editing ? 'Save Changes' : 'Add Role'}
          </button>
        </>
      }
    >
      <form id="role-form" className="form-stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="role-name">Role Name</label>
          <input
            id="role-name"
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={50}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="role-description">Description</label>
          <textarea
            id="role-description"
            className="input"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={200}
            required
            rows={2}
          />
        </div>
        <fieldset className="permission-choices">
          <legend className="field-label">Permissions</legend>
          {PERMISSIONS.map((permission) => (
            <label key={permission.key} className="permission-choice">
              <input
                type="checkbox"
                checked={permissions.includes(permission.key)}
                onChange={(e) => toggle(permission.key, e.target.checked)}
              />
              {permission.label}
            </label>
          ))}
        </fieldset>
        {state.context.error ? <ErrorBox message={state.context.error} /> : null}
      </form>
    </Modal>
  );
}
