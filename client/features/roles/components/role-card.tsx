// One role: name, description, its permissions as a numbered list with their count, how
// many accounts hold it, and Edit and Delete for custom roles (built-in ones never change).
import type { Role } from '../../../../shared/accounts';
import { permissionLabel } from '../../../../shared/permissions';
import { Icon } from '../../../components/icons';

export function RoleCard({
  role,
  busy,
  onEdit,
  onDelete,
}: {
  role: Role;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const count = role.permissions.length;
  return (
    <li className="card role-card" data-testid="role-card">
      <header className="role-card-head">
        <span className="role-card-icon" aria-hidden="true">
          <Icon name="shield" size={20} />
        </span>
        <div className="role-card-title">
          <h2 className="role-card-name">{role.name}</h2>
          <span className={`badge ${role.builtIn ? 'badge-neutral' : 'roles-badge-custom'}`}>
            {role.builtIn ? 'Built-in' : 'Custom'}
          </span>
        </div>
      </header>
      <p className="role-card-description">{role.description}</p>
      <div className="role-card-counts">
        <span>
          <strong>{count}</strong> {count === 1 ? 'permission' : 'permissions'}
        </span>
        <span>
          <strong>{role.userCount}</strong> {role.userCount === 1 ? 'user' : 'users'}
        </span>
      </div>
      <ol className="role-permissions" aria-label={`Permissions of ${role.name}`}>
        {role.permissions.map((permission) => (
          <li key={permission}>{permissionLabel(permission)}</li>
        ))}
      </ol>
      {role.builtIn ? null : (
        <div className="role-card-actions">
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            onClick={onEdit}
            disabled={busy}
            aria-label={`Edit role ${role.name}`}
          >
            <Icon name="edit" size={15} /> Edit
          </button>
          <button
            type="button"
            className="btn btn-sm btn-ghost btn-danger-ghost"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete role ${role.name}`}
          >
            <Icon name="trash" size={15} /> Delete
          </button>
        </div>
      )}
    </li>
  );
}
