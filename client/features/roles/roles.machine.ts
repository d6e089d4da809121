// The Roles page's live data: built-in and custom roles with their user counts, fetched
// again when a role or account event arrives, and deletes folded back in.
import type { Role } from '../../../shared/accounts';
import type { FeedEvent } from '../../../shared/realtime';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { rolesApi } from './api';

export interface RolesData {
  roles: Role[];
}

export type RoleWrite = { kind: 'delete'; role: Role };

const concerns = (event: FeedEvent) => event.streamType === 'role' || event.streamType === 'user';

export const rolesMachine = createLiveQueryMachine<RolesData, null, RoleWrite>({
  id: 'roles',
  load: async () => ({ roles: await rolesApi.list() }),
  reduce: (_draft, event) => (concerns(event) ? 'refetch' : 'ignored'),
  concerns,
  runWrite: (write) => rolesApi.remove(write.role.id),
  // The one place a finished delete is known, so it also says so to the user.
  applyWrite: (draft, write) => {
    draft.roles = draft.roles.filter((r) => r.id !== write.role.id);
    toast.success(`Role "${write.role.name}" deleted`);
    return 'applied';
  },
  onWriteFailed: (write, message) =>
    toast.error(
      message === 'Role is in use'
        ? `"${write.role.name}" is still given to an account: change their role first`
        : message,
    ),
  loadErrorMessage: 'Failed to load roles',
});

/** Search over role names, descriptions and permission labels. */
export function filterRoles(
  roles: readonly Role[],
  query: string,
  labelOf: (p: Role['permissions'][number]) => string,
): Role[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...roles];
  return roles.filter((r) => {
    const text = `${r.name} ${r.description} ${r.permissions.map(labelOf).join(' ')}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
