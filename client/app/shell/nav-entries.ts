// The dock's entries, labels and who sees them. "Managers
// only" is decided by the users:manage permission, never by the role's name.
import { hasPermission, SEE_STOCKTAKES, type PermissionNeed } from '../../../shared/permissions';
import type { IconName } from '../../components/icons';

export interface NavEntry {
  to: string;
  label: string;
  icon: IconName;
  permission?: PermissionNeed;
  /** Only for those whose role holds at every site (the store's totals: roles per site). */
  everySite?: boolean;
}

export const NAV_ENTRIES: NavEntry[] = [
  { to: '/dashboard', label: 'Dashboard', icon: 'grid', everySite: true },
  { to: '/inventory', label: 'Items', icon: 'box' },
  // Stock between sites: for those who ship and receive it.
  { to: '/transfers', label: 'Transfers', icon: 'truck', permission: 'stock:update' },
  { to: '/users', label: 'Users', icon: 'users', permission: 'users:manage' },
  { to: '/activity', label: 'Logs', icon: 'list' },
  { to: '/alerts', label: 'Alerts', icon: 'bell' },
  // Stocktake: on a phone's bar (phoneBar below). For those who count and those
  // who run counts (a role may have either).
  { to: '/stocktake', label: 'Count', icon: 'check-circle', permission: SEE_STOCKTAKES },
  { to: '/roles', label: 'Roles', icon: 'shield', permission: 'users:manage' },
  { to: '/settings', label: 'Setup', icon: 'settings' },
];

/** `everySite`: whether the user's role holds at every site (no roles per site). */
export function visibleEntries(permissions: readonly string[], everySite = true): NavEntry[] {
  return NAV_ENTRIES.filter(
    (entry) => (!entry.permission || hasPermission(permissions, entry.permission)) && (everySite || !entry.everySite),
  );
}

/** A phone's bottom bar has room for five buttons: four entries and More, or five entries. */
export const PHONE_BAR_SIZE = 4;
// What a phone is for first: the counts and the items on the shelf, then the alerts. The
// rest (Users, Logs, Roles, Setup) is one tap further, under More.
const PHONE_FIRST = ['/dashboard', '/inventory', '/stocktake', '/alerts'];

export interface PhoneBar {
  bar: NavEntry[];
  /** Under the More button; empty when everything fits the bar. */
  more: NavEntry[];
}

/** Splits a role's entries between the phone's bottom bar and its More sheet: every entry is in one of them. */
export function phoneBar(entries: readonly NavEntry[]): PhoneBar {
  const rank = (entry: NavEntry) => {
    const at = PHONE_FIRST.indexOf(entry.to);
    return at < 0 ? PHONE_FIRST.length : at;
  };
  const ordered = [...entries].sort((a, b) => rank(a) - rank(b));
  if (ordered.length <= PHONE_BAR_SIZE + 1) return { bar: ordered, more: [] };
  const bar = ordered.slice(0, PHONE_BAR_SIZE);
  // The sheet keeps the dock's own order.
  return { bar, more: entries.filter((entry) => !bar.includes(entry)) };
}
