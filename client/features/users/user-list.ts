// Pure helpers of the Users page: role names, the search over name, email and role, the
// pending manager requests, and how a pushed event changes the list.
import type { Role, User } from '../../../shared/accounts';
import type { FeedEvent } from '../../../shared/realtime';

export interface UsersData {
  users: User[];
  roles: Role[];
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

/** Any account or role change may touch the list or the names on it. */
export function usersConcern(event: FeedEvent): boolean {
  return event.streamType === 'user' || event.streamType === 'role';
}

export function providerLabel(provider: string): string {
  if (provider === 'google.com') return 'Google';
  if (provider === 'anonymous') return 'Guest session';
  return 'Email and password';
}
