// Users (/users, managers): search by name, email or role, the accounts as cards (role,
// disable and enable), pending Store Manager requests to approve or reject, and Add User
// for a real account. Live: another manager's changes show up without a reload.
import { useCallback, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { User } from '../../../../shared/accounts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { newWriteId } from '../../../lib/live-query.machine';
import { useSession } from '../../../lib/session-context';
import { toast } from '../../../lib/toasts';
import { filterUsers, pendingRequests, type UserWrite } from '../user-list';
import { usersMachine } from '../users.machine';
import { AddUserModal } from './add-user-modal';
import { PendingRequests } from './pending-requests';
import { SiteRolesDialog } from './site-roles-dialog';
import { UserCard } from './user-card';
import '../users.css';
import { SearchField } from '../../../components/search-field';

export function UsersPage() {
  const { user: me } = useSession();
  const users = useActorRef(usersMachine, { input: { params: null } });
  const failed = useSelector(users, (s) => s.matches('error'));
  const data = useSelector(users, (s) => s.context.data);
  const error = useSelector(users, (s) => s.context.error);
  const writes = useSelector(users, (s) => s.context.writes);
  const [query, setQuery] = useState('');
  const [adding, setAdding] = useState(false);
  const [disabling, setDisabling] = useState<User | null>(null);
  const [sitesFor, setSitesFor] = useState<User | null>(null);

  const busy = new Set(
    Object.values(writes)
      .filter((w) => w.status === 'pending')
      .map((w) => w.write.user.id),
  );
  const write = (w: UserWrite) => users.send({ type: 'WRITE', id: newWriteId(), write: w });
  const closeAdd = useCallback(() => setAdding(false), []);
  const created = useCallback(
    (user: User) => {
      toast.success(`${user.name} can now sign in as ${user.email}`);
      setAdding(false);
      users.send({ type: 'REFETCH' });
    },
    [users],
  );

  const closeSites = useCallback(() => setSitesFor(null), []);
  const sitesSaved = useCallback(
    (user: User) => {
      toast.success(`Sites changed for ${user.name || user.email || 'the account'}`);
      setSitesFor(null);
      users.send({ type: 'REFETCH' });
    },
    [users],
  );

  const all = data?.users ?? [];
  const roles = data?.roles ?? [];
  const shown = filterUsers(all, roles, query);
  const pending = pendingRequests(all);

  return (
    <div className="page users-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Users</h1>
          <p className="page-subtitle">
            {data
              ? `${all.length} ${all.length === 1 ? 'account' : 'accounts'} · roles and access`
              : 'Accounts and their roles'}
          </p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} disabled={!data}>
            <Icon name="plus" size={18} /> Add User
          </button>
        </div>
      </header>

      <SearchField
        placeholder="Search users by name, email, or role..."
        label="Search users by name, email, or role"
        value={query}
        onChange={(value) => setQuery(value)}
      />

      {failed ? (
        <ErrorBox
          title="Failed to load users"
          message={error ?? 'Failed to load users'}
          onRetry={() => users.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading users..." fullScreen={false} /> : null}

      {pending.length > 0 ? (
        <PendingRequests
          users={pending}
          busy={busy}
          onApprove={(user) => write({ kind: 'approve', user })}
          onReject={(user) => write({ kind: 'reject', user })}
        />
      ) : null}

      {data && shown.length === 0 ? (
        <EmptyState
          icon="users"
          title="No users found"
          text={all.length > 0 ? 'No users match your search criteria.' : 'Start by adding your first user.'}
        >
          {all.length === 0 ? (
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Icon name="plus" size={18} /> Add User
            </button>
          ) : null}
        </EmptyState>
      ) : null}

      {shown.length > 0 ? (
        <ul className="user-grid" aria-label="Users">
          {shown.map((user) => (
            <UserCard
              key={user.id}
              user={user}
              roles={roles}
              sites={data?.sites ?? []}
              isSelf={user.id === me.id}
              busy={busy.has(user.id)}
              onRole={(role) => write({ kind: 'role', user, role })}
              onSites={() => setSitesFor(user)}
              onDisable={() => setDisabling(user)}
              onEnable={() => write({ kind: 'enable', user })}
            />
          ))}
        </ul>
      ) : null}

      {adding ? <AddUserModal roles={roles} onClose={closeAdd} onCreated={created} /> : null}
      {sitesFor ? <SiteRolesDialog user={sitesFor} roles={roles} onClose={closeSites} onSaved={sitesSaved} /> : null}
      {disabling ? (
        <ConfirmDialog
          title="Disable account"
          message={`Disable ${disabling.name || disabling.email}? They are signed out at once and can't sign in until the account is enabled again.`}
          confirmLabel="Disable"
          onCancel={() => setDisabling(null)}
          onConfirm={() => {
            write({ kind: 'disable', user: disabling });
            setDisabling(null);
          }}
        />
      ) : null}
    </div>
  );
}
