// One account on the Users page: who it is, its role (a picker for the manager, never on
// their own card), status, sign-in method, join date and where the role holds, with Sites
// (roles per site), Disable or Enable.
import { useId } from 'react';
import type { Role, User } from '../../../../shared/accounts';
import type { Site } from '../../../../shared/sites';
import { Icon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/format';
import { assignableRoles, providerLabel, roleName, siteRolesText } from '../user-list';
import { UserAvatar } from './user-avatar';

export function roleBadgeClass(role: string): string {
  if (role === 'manager') return 'badge badge-role-manager';
  if (role === 'guest') return 'badge badge-role-guest';
  if (role === 'staff') return 'badge badge-role-staff';
  return 'badge users-badge-custom';
}

export function UserCard({
  user,
  roles,
  sites,
  isSelf,
  busy,
  onRole,
  onSites,
  onDisable,
  onEnable,
}: {
  user: User;
  roles: Role[];
  sites: Site[];
  isSelf: boolean;
  busy: boolean;
  onRole: (role: string) => void;
  onSites: () => void;
  onDisable: () => void;
  onEnable: () => void;
}) {
  const selectId = useId();
  const name = user.name || user.email || 'Guest';
  const disabled = user.status === 'disabled';
  const guest = user.provider === 'anonymous' || user.role === 'guest';
  return (
    <li className={`card user-card ${disabled ? 'user-card-disabled' : ''}`} data-testid="user-card">
      <div className="user-card-head">
        <UserAvatar id={user.id} name={name} avatar={user.avatar} />
        <div className="user-card-who">
          <span className="user-card-name">
            {name}
            {isSelf ? <span className="badge badge-neutral">You</span> : null}
          </span>
          <span className="user-card-email">{user.email ?? 'No email (guest session)'}</span>
        </div>
      </div>
      <div className="user-card-badges">
        <span className={roleBadgeClass(user.role)}>{roleName(user.role, roles)}</span>
        {disabled ? (
          <span className="badge badge-danger">Disabled</span>
        ) : (
          <span className="badge badge-success">Active</span>
        )}
        {user.managerRequest === 'pending' ? <span className="badge users-badge-pending">Manager request</span> : null}
      </div>
      <dl className="user-card-facts">
        <div>
          <dt>Sign-in</dt>
          <dd>{providerLabel(user.provider)}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDateTime(user.createdAt)}</dd>
        </div>
        {guest ? null : (
          <div className="user-card-sites">
            <dt>Sites</dt>
            <dd data-testid="user-sites">{siteRolesText(user.siteRoles, sites, roles)}</dd>
          </div>
        )}
      </dl>
      <div className="user-card-actions">
        {guest ? (
          <span className="muted user-card-note">Guests keep the Guest role</span>
        ) : isSelf ? (
          // The server refuses it too: a role is always changed by someone else.
          <span className="muted user-card-note">Another manager changes your role</span>
        ) : (
          <div className="user-card-role">
            <label htmlFor={selectId} className="visually-hidden">
              Role for {name}
            </label>
            <select
              id={selectId}
              className="input input-sm"
              value={user.role}
              disabled={busy}
              onChange={(e) => onRole(e.target.value)}
            >
              {assignableRoles(roles).map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {guest || isSelf ? null : (
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            onClick={onSites}
            disabled={busy}
            aria-label={`Sites for ${name}`}
          >
            <Icon name="map-pin" size={15} /> Sites
          </button>
        )}
        {isSelf ? null : disabled ? (
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            onClick={onEnable}
            disabled={busy}
            aria-label={`Enable ${name}`}
          >
            <Icon name="check" size={15} /> Enable
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-ghost btn-danger-ghost"
            onClick={onDisable}
            disabled={busy}
            aria-label={`Disable ${name}`}
          >
            <Icon name="lock" size={15} /> Disable
          </button>
        )}
      </div>
    </li>
  );
}
