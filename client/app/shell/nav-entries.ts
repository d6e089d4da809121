// The dock's entries, labels and who sees them (spec section 2, Shared layout). "Managers
// only" is decided by the users:manage permission, never by the role's name.
import { hasPermission, SEE_STOCKTAKES, type PermissionNeed } from '../../../shared/permissions';
import type { IconName } from '../../components/icons';

export interface NavEntry {
  to: string;
  label: string;
  icon: IconName;
  permission?: PermissionNeed;
}

export const NAV_ENTRIES: NavEntry[] = [
  { to: '/dashboard', label: 'Dashboard', icon: 'grid' },
  { to: '/inventory', label: 'Items', icon: 'box' },
  { to: '/users', label: 'Users', icon: 'users', permission: 'users:manage' },
  { to: '/activity', label: 'Logs', icon: 'list' },
  { to: '/alerts', label: 'Alerts', icon: 'bell' },
  // Stocktake (issue 15): within a staff phone's five (Setup is also in the user menu). For
  // those who count and those who run counts (a role may have either).
  { to: '/stocktake', label: 'Count', icon: 'check-circle', permission: SEE_STOCKTAKES },
  { to: '/roles', label: 'Roles', icon: 'shield', permission: 'users:manage' },
  { to: '/settings', label: 'Setup', icon: 'settings' },
];

/** On small screens the dock shows only the first five visible entries. */
export const MOBILE_DOCK_SIZE = 5;

export function visibleEntries(permissions: readonly string[]): NavEntry[] {
  return NAV_ENTRIES.filter((entry) => !entry.permission || hasPermission(permissions, entry.permission));
}
