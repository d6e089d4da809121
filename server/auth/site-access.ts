// Where a principal may act: the seam every place-aware route, feed and export goes through.
// Roles per site (shared/site-roles.ts) narrow a principal to the sites it was given: at a
// listed site it holds what the role given there allows, within its own role (a role at a
// site never reaches beyond the person's role, nor an API token beyond its scopes: both are
// `principal.permissions`); at any other site, nothing. A principal without grants (null)
// holds its role at every site, as before roles per site. Callers never read
// `principal.permissions` or `siteGrants` for a site question themselves: they ask here, so
// what a site allows is said in one file.
import type { FastifyRequest } from 'fastify';
import { MAIN_SITE_ID } from '../../shared/places.js';
import { hasPermission, PERMISSION_VERBS, type Permission, type PermissionNeed } from '../../shared/permissions.js';
import { ForbiddenError } from '../errors.js';
import type { Principal, SiteGrant } from './principal.js';

/** Whoever holds permissions, maybe per site: a principal, or an actor's authority (server/accounts/authority.ts). */
export interface SiteHolder {
  permissions: readonly Permission[];
  siteGrants?: readonly SiteGrant[] | null;
}

const grantAt = (principal: SiteHolder, siteId: string) => {
  const id = siteId.toLowerCase();
  return principal.siteGrants?.find((g) => g.siteId === id);
};

/** Whether the principal's role holds at every site (no roles per site). */
export function atEverySite(principal: SiteHolder): boolean {
  return !principal.siteGrants;
}

/** What the principal may do at the site: its own permissions, cut to its role there. */
export function permissionsAtSite(principal: SiteHolder, siteId: string): Permission[] {
  if (atEverySite(principal)) return [...principal.permissions];
  const grant = grantAt(principal, siteId);
  return grant ? principal.permissions.filter((p) => grant.permissions.includes(p)) : [];
}

/** Whether the principal holds `need` at the site. */
export function mayAtSite(principal: Principal | SiteHolder, need: PermissionNeed, siteId: string): boolean {
  if (atEverySite(principal)) return hasPermission(principal.permissions, need);
  return hasPermission(permissionsAtSite(principal, siteId), need);
}

/** The sites a reader may see: 'all', or their ids. */
export type VisibleSites = 'all' | readonly string[];

/**
 * The sites whose events, stock and exports the principal may see: 'all', or a list of ids
 * (those where it may view inventory).
 */
export function visibleSites(principal: Principal | SiteHolder): VisibleSites {
  if (atEverySite(principal)) return 'all';
  return principal.siteGrants!.filter((g) => mayAtSite(principal, 'inventory:view', g.siteId)).map((g) => g.siteId);
}

/** Whether the principal may see the site (its stock, its places, its events). */
export function maySeeSite(principal: Principal | SiteHolder, siteId: string): boolean {
  const sites = visibleSites(principal);
  return sites === 'all' || sites.includes(siteId.toLowerCase());
}

/**
 * The site a principal works at: where its stock changes go when they name no location.
 * Every site's principal: Main store, as before places were given per person; else the
 * first site it was given where it may update stock (the first it was given, failing that).
 */
export function homeSite(principal: Principal): string {
  if (atEverySite(principal)) return MAIN_SITE_ID;
  const grants = principal.siteGrants!;
  return (grants.find((g) => mayAtSite(principal, 'stock:update', g.siteId)) ?? grants[0])?.siteId ?? MAIN_SITE_ID;
}

/**
 * Refuses with 403 unless the principal holds `need` at every one of the sites (a move or
 * transfer names two). `siteName` turns an id into the name the message shows.
 */
export function assertMayAtSites(
  principal: Principal | SiteHolder,
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

/** Refuses with 403 unless the principal may see the site (a list or a read filtered by it). */
export function assertMaySeeSite(principal: Principal, siteId: string, siteName: (id: string) => string = (id) => id) {
  if (!maySeeSite(principal, siteId))
    throw new ForbiddenError(`You don't have permission to view inventory at ${siteName(siteId)}`);
}

/**
 * The check a command decided later carries (a batched stock command, a create or a count,
 * whose site is known only once its location is loaded): it asks about the request's
 * principal as it is then, so a cached principal confirmed before the decision is the one
 * asked. Throws the refusal.
 */
export function requestSiteCheck(
  request: FastifyRequest,
  need: PermissionNeed,
): (siteId: string, siteName: string) => void {
  return (siteId, siteName) => {
    const principal = request.principal;
    if (!principal) throw new ForbiddenError(`You don't have permission to do this at ${siteName}`);
    assertMayAtSites(principal, need, [siteId], () => siteName);
  };
}
