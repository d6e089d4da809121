// The rules of roles per site (shared/site-roles.ts), pure, for decide.ts. They extend the
// accounts' escalation rules (authority.ts) to places: nobody gives at a site what they do
// not hold there themselves, nobody takes away at a site what they could not give there,
// and "every site" is given, taken or touched only by someone who works at every site.
import type { SiteRole, SiteRoles } from '../../../shared/site-roles.js';
import { permissionLabel, type Permission } from '../../../shared/permissions.js';
import type { SiteGrant } from '../../auth/principal.js';
import { permissionsAtSite } from '../../auth/site-access.js';
import { ForbiddenError, UnprocessableError, ValidationError } from '../../errors.js';
import { requireEverySite, type Authority } from '../authority.js';

export type RolePermissions = Readonly<Record<string, readonly Permission[]>>;

/** Sites as the rules need them: their names (for messages) and whether archived. */
export type KnownSites = Readonly<Record<string, { name: string; archived: boolean }>>;

const FIELD = 'siteRoles';

const permissionsOf = (role: string, roles: RolePermissions): readonly Permission[] =>
  Object.hasOwn(roles, role) ? roles[role]! : [];

/** What a person holds at their sites: each site's role, within their own role. */
export function grantsOf(siteRoles: SiteRoles, userRole: string, roles: RolePermissions): SiteGrant[] | null {
  if (siteRoles === null) return null;
  const ceiling = permissionsOf(userRole, roles);
  return siteRoles.map((g) => ({
    siteId: g.siteId,
    role: g.role,
    permissions: permissionsOf(g.role, roles).filter((p) => ceiling.includes(p)),
  }));
}

const nameOf = (sites: KnownSites, siteId: string) => sites[siteId]?.name ?? 'a site that no longer exists';

/**
 * Refuses unless the actor holds, at each of the person's sites, what the person holds
 * there (and works at every site if the person does): acting on someone (their role, their
 * sites, disabling them) must not reach further than the actor does.
 */
export function requireReachesAsFar(
  actor: Authority,
  person: { siteRoles?: SiteRoles; role: string },
  roles: RolePermissions,
  sites: KnownSites,
  refusal: string,
): void {
  const grants = grantsOf(person.siteRoles ?? null, person.role, roles);
  if (grants === null) {
    requireEverySite(actor, `${refusal}: they work at every site and you don't`);
    return;
  }
  for (const grant of grants) {
    const held = permissionsAtSite(actor, grant.siteId);
    const beyond = grant.permissions.filter((p) => !held.includes(p));
    if (beyond.length)
      throw new ForbiddenError(
        `${refusal} at ${nameOf(sites, grant.siteId)}: ${beyond.map(permissionLabel).join(', ')}`,
      );
  }
}

/** The list as sent, checked: sites once each, known (and open unless already given), roles that exist and fit. */
export function cleanSiteRoles(
  wanted: SiteRoles,
  current: SiteRoles,
  person: { role: string; name: string },
  roles: RolePermissions,
  sites: KnownSites,
): SiteRoles {
  if (wanted === null) return null;
  const seen = new Set<string>();
  const had = new Set((current ?? []).map((g) => g.siteId));
  const ceiling = permissionsOf(person.role, roles);
  return wanted.map((g): SiteRole => {
    const siteId = g.siteId.toLowerCase();
    if (seen.has(siteId)) throw new ValidationError('Each site can be given only once', FIELD);
    seen.add(siteId);
    const site = sites[siteId];
    if (!site) throw new UnprocessableError('Site not found', FIELD);
    if (site.archived && !had.has(siteId))
      throw new UnprocessableError(`${site.name} is archived: restore it to give roles there`, FIELD);
    if (g.role === 'guest') throw new ValidationError('The Guest role is only for anonymous accounts', FIELD);
    if (!Object.hasOwn(roles, g.role)) throw new ValidationError(`Unknown role: ${g.role}`, FIELD);
    const beyond = permissionsOf(g.role, roles).filter((p) => !ceiling.includes(p));
    if (beyond.length)
      throw new UnprocessableError(
        `The role at ${site.name} can't give ${person.name} more than their own role: ${beyond.map(permissionLabel).join(', ')}`,
        FIELD,
      );
    return { siteId, role: g.role };
  });
}

/** The actor may give this: every site only if they work at every site; at a site, only what they hold there. */
export function requireGivable(
  actor: Authority,
  siteRoles: SiteRoles,
  userRole: string,
  roles: RolePermissions,
  sites: KnownSites,
): void {
  const grants = grantsOf(siteRoles, userRole, roles);
  if (grants === null) {
    requireEverySite(actor, "You can't give access to every site: you don't have it yourself");
    return;
  }
  for (const grant of grants) {
    const held = permissionsAtSite(actor, grant.siteId);
    const beyond = grant.permissions.filter((p) => !held.includes(p));
    if (beyond.length)
      throw new ForbiddenError(
        `You can't give a role at ${nameOf(sites, grant.siteId)} with permissions you don't have there yourself: ${beyond.map(permissionLabel).join(', ')}`,
      );
  }
}

export const sameSiteRoles = (a: SiteRoles, b: SiteRoles): boolean =>
  a === null || b === null
    ? a === b
    : a.length === b.length && a.every((g, i) => g.siteId === b[i]!.siteId && g.role === b[i]!.role);
