// The Users page's live data: every account and the roles, fetched again when a user or
// role event arrives, and the manager's actions (role, disable, enable, approve, reject).
import type { User } from '../../../shared/accounts';
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { usersApi } from './api';
import { usersConcern, type UsersData, type UserWrite } from './user-list';

const ACTION_PATH = {
  disable: 'disable',
  enable: 'enable',
  approve: 'manager-request/approve',
  reject: 'manager-request/reject',
} as const;
const DONE_TEXT = {
  role: 'Role changed for',
  disable: 'Disabled',
  enable: 'Enabled',
  approve: 'Store Manager access approved for',
  reject: 'Manager request rejected for',
} as const;

export const usersMachine = createLiveQueryMachine<UsersData, null, UserWrite>({
  id: 'users',
  load: async () => {
    // Sites only name a user's sites on the cards: a role that manages users without seeing
    // stock (so without the sites) still gets the page.
    const [users, roles, sites] = await Promise.all([
      usersApi.list(),
      usersApi.roles(),
      usersApi.sites().catch(() => []),
    ]);
    return { users, roles, sites };
  },
  reduce: (_draft, event) => (usersConcern(event) ? 'refetch' : 'ignored'),
  concerns: usersConcern,
  runWrite: (write) =>
    write.kind === 'role'
      ? usersApi.changeRole(write.user.id, write.role)
      : usersApi.act(write.user.id, ACTION_PATH[write.kind]),
  // The one place a finished action is known, so it also says so to the user.
  applyWrite: (draft, write, result) => {
    const updated = result as User;
    const index = draft.users.findIndex((u) => u.id === updated.id);
    if (index === -1) return 'refetch';
    draft.users[index] = updated;
    toast.success(`${DONE_TEXT[write.kind]} ${updated.name || updated.email || 'the account'}`);
    return 'applied';
  },
  onWriteFailed: (_write, message) => toast.error(message),
  loadErrorMessage: 'Failed to load users',
});
