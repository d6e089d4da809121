// Turns a verified token into the principal of one request, from the server's own records:
// role and status come from the `users` projection, so a role change or a disable takes
// effect on the very next call, not at the next token refresh. The principal carries the
// versions of the rows it came from (its stamp): server/auth/principal-cache.ts keeps it in
// the process and routes check the stamp in their own query instead of resolving again.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { isBuiltInRole, permissionsOfRole, type Permission } from '../../shared/permissions.js';
import type { PrincipalResolver } from '../auth/principal.js';
import { ForbiddenError } from '../errors.js';

interface Row {
  user_version: number | null;
  role_version: number | null;
  settings_version: number | null;
  role: string | null;
  status: string | null;
  name: string | null;
  email: string | null;
  permissions: Permission[] | string | null;
  allow_guests: boolean | null;
}

export function createAccountsPrincipalResolver(db: Kysely<any>): PrincipalResolver {
  return async (token, options = {}) => {
    const anonymous = token.provider === 'anonymous';
    // Before POST /api/session registers the account, the role is the claim we set (or guest).
    const fallbackRole = anonymous ? 'guest' : (token.roleClaim ?? 'staff');
    // One round trip: the account, its custom role (if any) and the guest switch.
    const result = await sql<Row>`select u.role, u.status, u.name, u.email, r.permissions, s.allow_guests,
        u.version as user_version, r.version as role_version, s.version as settings_version
      from (select 1) one
      left join users u on u.id = ${token.uid}
      left join roles r on r.id = coalesce(u.role, ${fallbackRole})
      left join settings s on s.id = 1`.execute(options.db ?? db);
    const row = result.rows[0]!;
    if (row.status === 'disabled') throw new ForbiddenError('Account disabled');
    const role = row.role ?? fallbackRole;
    const allowGuests = row.allow_guests ?? DEFAULT_SETTINGS.allowGuests;
    if ((anonymous || role === 'guest') && !allowGuests) throw new ForbiddenError('Guest access is disabled');
    const custom =
      typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as Permission[]) : row.permissions;
    return {
      uid: token.uid,
      email: row.email ?? token.email,
      name: row.name ?? token.name,
      provider: token.provider,
      role,
      permissions: isBuiltInRole(role) ? permissionsOfRole(role) : (custom ?? []),
      token,
      stamp: { user: row.user_version, role: row.role_version, settings: row.settings_version },
    };
  };
}
