// Turns a verified token into the principal of one request, from the server's own records:
// role and status come from the `users` projection, so a role change or a disable takes
// effect on the very next call, not at the next token refresh; so do the sites the role is
// limited to (user_site_roles, migration 026). The principal carries the versions of the
// rows it came from (its stamp): server/auth/principal-cache.ts keeps it in the process and
// routes check the stamp in their own query instead of resolving again.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { isBuiltInRole, permissionsOfRole, type Permission } from '../../shared/permissions.js';
import type { PrincipalResolver, SiteGrant } from '../auth/principal.js';
import type { SiteHolder } from '../auth/site-access.js';
import { ForbiddenError } from '../errors.js';

interface Row {
  user_version: number | null;
  role_version: number | null;
  settings_version: number | null;
  site_roles_version: number | null;
  role: string | null;
  status: string | null;
  name: string | null;
  email: string | null;
  permissions: Permission[] | string | null;
  allow_guests: boolean | null;
  all_sites: boolean | null;
  site_roles: GrantRow[] | string | null;
}

interface GrantRow {
  siteId: string;
  role: string;
  /** A custom role's permissions; null for a built-in role (or one deleted since). */
  permissions: Permission[] | null;
}

const parsed = <T>(value: T | string | null): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

/** The grants a user's site roles give: each site's role, its permissions (built-in or custom). */
function grantsOf(rows: GrantRow[]): SiteGrant[] {
  return rows.map((g) => ({
    siteId: g.siteId.toLowerCase(),
    role: g.role,
    permissions: isBuiltInRole(g.role) ? permissionsOfRole(g.role) : (g.permissions ?? []),
  }));
}

/**
 * What a user holds where, from their rows (role, its custom permissions, all_sites and site
 * roles as the resolver reads them): for what acts on their behalf outside a request (a
 * webhook endpoint sends only what its maker may see). Asked through auth/site-access.ts.
 */
export function siteHolderOf(row: {
  role: string;
  permissions: Permission[] | string | null;
  all_sites: boolean | null;
  site_roles: GrantRow[] | string | null;
}): SiteHolder {
  return {
    permissions: isBuiltInRole(row.role) ? permissionsOfRole(row.role) : (parsed(row.permissions) ?? []),
    siteGrants: row.all_sites === false ? grantsOf(parsed(row.site_roles) ?? []) : null,
  };
}

export function createAccountsPrincipalResolver(db: Kysely<any>): PrincipalResolver {
  return async (token, options = {}) => {
    const anonymous = token.provider === 'anonymous';
    // Before POST /api/session registers the account, the role is the claim we set (or guest).
    const fallbackRole = anonymous ? 'guest' : (token.roleClaim ?? 'staff');
    // One round trip: the account, its custom role (if any), the guest switch and its site roles.
    // site_roles_version is computed as principal_stamp (migration 026) computes it.
    const result = await sql<Row>`select u.role, u.status, u.name, u.email, r.permissions, s.allow_guests,
        u.all_sites, u.version as user_version, r.version as role_version, s.version as settings_version,
        (select coalesce(sum(gr.version), 0)::integer from user_site_roles g join roles gr on gr.id = g.role
          where g.user_id = ${token.uid}) as site_roles_version,
        (select json_agg(json_build_object('siteId', g.site_id, 'role', g.role, 'permissions', gr.permissions)
            order by g.position)
          from user_site_roles g left join roles gr on gr.id = g.role where g.user_id = ${token.uid}) as site_roles
      from (select 1) one
      left join users u on u.id = ${token.uid}
      left join roles r on r.id = coalesce(u.role, ${fallbackRole})
      left join settings s on s.id = 1`.execute(options.db ?? db);
    const row = result.rows[0]!;
    if (row.status === 'disabled') throw new ForbiddenError('Account disabled');
    const role = row.role ?? fallbackRole;
    const allowGuests = row.allow_guests ?? DEFAULT_SETTINGS.allowGuests;
    if ((anonymous || role === 'guest') && !allowGuests) throw new ForbiddenError('Guest access is disabled');
    const custom = parsed(row.permissions);
    // No row (not registered yet) or all_sites: the role holds at every site.
    const limited = row.all_sites === false;
    return {
      uid: token.uid,
      email: row.email ?? token.email,
      name: row.name ?? token.name,
      provider: token.provider,
      role,
      permissions: isBuiltInRole(role) ? permissionsOfRole(role) : (custom ?? []),
      token,
      siteGrants: limited ? grantsOf(parsed(row.site_roles) ?? []) : null,
      stamp: {
        user: row.user_version,
        role: row.role_version,
        settings: row.settings_version,
        siteRoles: Number(row.site_roles_version ?? 0),
      },
    };
  };
}
