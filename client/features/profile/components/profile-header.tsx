// The top of the Profile screen: avatar or initial, name, email and the role badge
// (Store Manager, Staff Member, Guest, or a custom role's name).
import type { Role, User } from '../../../../shared/accounts';
import { formatDate } from '../../../lib/format';

const BUILT_IN = { manager: 'Store Manager', staff: 'Staff Member', guest: 'Guest' } as Record<string, string>;

export function roleBadgeText(role: string, roles: readonly Role[]): string {
  return BUILT_IN[role] ?? roles.find((r) => r.id === role)?.name ?? 'Staff Member';
}

export function initialOf(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}

export function ProfileHeader({ user, roles }: { user: User; roles: Role[] }) {
  const name = user.name || user.email || 'Guest';
  const tone =
    user.role === 'manager' ? 'badge-role-manager' : user.role === 'guest' ? 'badge-role-guest' : 'badge-role-staff';
  return (
    <section className="card profile-header" aria-label="Your account">
      {user.avatar ? (
        <img className="profile-avatar" src={user.avatar} alt="" />
      ) : (
        <span className="profile-avatar" aria-hidden="true">
          {initialOf(name)}
        </span>
      )}
      <div className="profile-who">
        <h2 className="profile-name">{name}</h2>
        <span className="profile-email">{user.email ?? 'Guest session, no email'}</span>
        <span className="profile-badges">
          <span className={`badge ${tone}`} data-testid="profile-role">
            {roleBadgeText(user.role, roles)}
          </span>
          <span className="profile-since">Member since {formatDate(user.createdAt.slice(0, 10))}</span>
        </span>
      </div>
    </section>
  );
}
