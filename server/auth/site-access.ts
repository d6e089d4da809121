// Where a principal may act: the seam every place-aware route, feed and export goes through.
// Roles per site (issue 25, item 4) narrow a principal to the sites it was given; until a
// principal carries such grants its role holds at every site. Callers never read
// `principal.permissions` for a site question themselves: they ask here, so narrowing by
// site is one change in one file.
import { hasPermission, PERMISSION_VERBS, type PermissionNeed } from '../../shared/permissions.js';
import { ForbiddenError } from '../errors.js';
import type { Principal } from './principal.js';

/** Whether the principal holds `need` at the site. */
export function mayAtSite(principal: Principal, need: PermissionNeed, _siteId: string): boolean {
  return hasPermission(principal.permissions, need);
}

/** The sites whose events, stock and exports the principal may see: 'all', or a list of ids. */
export function visibleSites(_principal: Principal): 'all' | readonly string[] {
  return 'all';
}

/**
 * Refuses with 403 unless the principal holds `need` at every one of the sites (a move or
 * transfer names two). `siteName` turns an id into the name the message shows.
 */
export function assertMayAtSites(
  principal: Principal,
  need: PermissionNeed,
  siteIds: readonly string[],
  siteName: (siteId: string) => string = (id) => id,
): void {
  for (const siteId of new Set(siteIds)) {
    if (mayAtSite(principal, need, siteId)) continue;
    const verbs = (typeof need === 'string' ? [need] : need).map((p) => PERMISSION_VERBS[p]);
    throw new ForbiddenError(`You don't have permission to ${verbs.join(' or ')} at ${siteName(siteId)}`);
  }
}
