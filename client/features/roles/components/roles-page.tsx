// Role Management (/roles, managers): search, role cards with numbered permission lists
// and counts, Add Role, and Edit and Delete for custom roles (the server refuses deleting a
// role someone still holds, and any change to built-in roles).
import { useCallback, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { Role } from '../../../../shared/accounts';
import { permissionLabel } from '../../../../shared/permissions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId } from '../../../lib/live-query.machine';
import { toast } from '../../../lib/toasts';
import { filterRoles, rolesMachine } from '../roles.machine';
import { RoleCard } from './role-card';
import { RoleFormModal } from './role-form-modal';
import '../roles.css';
import { SearchField } from '../../../components/search-field';

type Dialog = { kind: 'none' } | { kind: 'form'; editing: Role | null } | { kind: 'delete'; role: Role };

export function RolesPage() {
  const roles = useActorRef(rolesMachine, { input: { params: null } });
  const failed = useSelector(roles, (s) => s.matches('error'));
  const data = useSelector(roles, (s) => s.context.data);
  const error = useSelector(roles, (s) => s.context.error);
  const writes = useSelector(roles, (s) => s.context.writes);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = useCallback(() => setDialog({ kind: 'none' }), []);
  const saved = useCallback(
    (role: Role) => {
      toast.success(`Role "${role.name}" saved`);
      setDialog({ kind: 'none' });
      roles.send({ type: 'REFETCH' });
    },
    [roles],
  );

  const busy = new Set(
    Object.values(writes)
      .filter((w) => w.status === 'pending')
      .map((w) => w.write.role.id),
  );
  const all = data?.roles ?? [];
  const shown = filterRoles(all, query, permissionLabel);

  return (
    <div className="page roles-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Role Management</h1>
          <p className="page-subtitle">
            {data ? `${all.length} roles · what each role may see and do` : 'Roles and their permissions'}
          </p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'form', editing: null })}>
            <Icon name="plus" size={18} /> Add Role
          </button>
        </div>
      </header>

      <SearchField
        placeholder="Search roles..."
        label="Search roles"
        value={query}
        onChange={(value) => setQuery(value)}
      />

      {failed ? (
        <ErrorBox
          title="Failed to load roles"
          message={error ?? 'Failed to load roles'}
          onRetry={() => roles.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading roles..." fullScreen={false} /> : null}
      {data && shown.length === 0 ? (
        <EmptyState icon="shield" title="No roles found" text="No roles match your search." />
      ) : null}
      {shown.length > 0 ? (
        <ul className="role-grid" aria-label="Roles">
          {shown.map((role) => (
            <RoleCard
              key={role.id}
              role={role}
              busy={busy.has(role.id)}
              onEdit={() => setDialog({ kind: 'form', editing: role })}
              onDelete={() => setDialog({ kind: 'delete', role })}
            />
          ))}
        </ul>
      ) : null}

      {dialog.kind === 'form' ? <RoleFormModal editing={dialog.editing} onClose={close} onSaved={saved} /> : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDialog
          title="Delete role"
          message={`Are you sure you want to delete the role "${dialog.role.name}"?`}
          confirmLabel="Delete"
          onCancel={close}
          onConfirm={() => {
            roles.send({ type: 'WRITE', id: newWriteId(), write: { kind: 'delete', role: dialog.role } });
            close();
          }}
        />
      ) : null}
    </div>
  );
}
