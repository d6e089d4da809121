// Pure helpers of the Users page: role names, the search over name, email and role, the
// pending manager requests, and how a pushed event changes the list.
import type { Role, User } from '../../../shared/accounts';
import type { FeedEvent } from '../../../shared/realtime';
import type { SiteRoles } from '../../../shared/site-roles';
import type { Site } from '../../../shared/sites';

export interface UsersData {
  users: User[];
  roles: Role[];
  /** The sites the manager may see, to name a user's sites. */
  sites: Site[];
}

export type UserWrite =
  { kind: 'role'; user: User; role: string } | { kind: 'disable' | 'enable' | 'approve' | 'reject'; user: User };

const BUILT_IN_NAMES: Record<string, string> = { manager: 'Store Manager', staff: 'Staff Member', guest: 'Guest' };

export function roleName(roleId: string, roles: readonly Role[]): string {
  return roles.find((r) => r.id === roleId)?.name ?? BUILT_IN_NAMES[roleId] ?? roleId;
}

/** Roles a manager can give an account (guest is only for anonymous sign-ins). */
export function assignableRoles(roles: readonly Role[]): Role[] {
  return roles.filter((r) => r.id !== 'guest');
}

export function filterUsers(users: readonly User[], roles: readonly Role[], query: string): User[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...users];
  return users.filter((u) => {
    const text = `${u.name} ${u.email ?? ''} ${u.role} ${roleName(u.role, roles)}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

export function pendingRequests(users: readonly User[]): User[] {
  return users.filter((u) => u.managerRequest === 'pending' && u.status === 'active');
}

/** Any account, role or site change may touch the list or the names on it. */
export function usersConcern(event: FeedEvent): boolean {
  return event.streamType === 'user' || event.streamType === 'role' || event.streamType === 'site';
}

/** Where a user's role holds, as a card says it: "All sites", or each site and the role there. */
export function siteRolesText(
  siteRoles: SiteRoles | undefined,
  sites: readonly Site[],
  roles: readonly Role[],
): string {
  if (!siteRoles) return 'All sites';
  if (siteRoles.length === 0) return 'No site';
  const named = siteRoles.flatMap((g) => {
    const site = sites.find((s) => s.id === g.siteId);
    return site ? [`${site.name} (${roleName(g.role, roles)})`] : [];
  });
  // Sites the manager may not see are counted, not named.
  const others = siteRoles.length - named.length;
  if (others > 0) named.push(`${others} other ${others === 1 ? 'site' : 'sites'}`);
  return named.join(', ');
}

/**
 * The roles a user can be given at a site: those a manager can give (not Guest) that hold
 * nothing beyond the user's own role (the server refuses more).
 */
export function siteRoleChoices(roles: readonly Role[], userRole: string): Role[] {
  const own = roles.find((r) => r.id === userRole)?.permissions ?? [];
  return assignableRoles(roles).filter((r) => r.permissions.every((p) => own.includes(p)));
}

export function providerLabel(provider: string): string {
  if (provider === 'google.com') return 'Google';
  if (provider === 'anonymous') return 'Guest session';
  return 'Email and password';
}
