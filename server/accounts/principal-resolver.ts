// Turns a verified token into the principal of one request, from the server's own records:
// role and status come from the `users` projection on every request (no cache), so a role
// change or a disable takes effect on the very next call, not at the next token refresh.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '../../shared/accounts.js';
import { isBuiltInRole, permissionsOfRole, type Permission } from '../../shared/permissions.js';
import type { PrincipalResolver } from '../auth/principal.js';
import { ForbiddenError } from '../errors.js';

interface Row {
  role: string | null;
  status: string | null;
  name: string | null;
  email: string | null;
  permissions: Permission[] | string | null;
  allow_guests: boolean | null;
}

export function createAccountsPrincipalResolver(db: Kysely<any>): PrincipalResolver {
  return async (token) => {
    const anonymous = token.provider === 'anonymous';
    // Before POST /api/session registers the account, the role is the claim we set (or guest).
    const fallbackRole = anonymous ? 'guest' : (token.roleClaim ?? 'staff');
    // One round trip: the account, its custom role (if any) and the guest switch.
    const result = await sql<Row>`select u.role, u.status, u.name, u.email, r.permissions, s.allow_guests
      from (select 1) one
      left join users u on u.id = ${token.uid}
      left join roles r on r.id = coalesce(u.role, ${fallbackRole})
      left join settings s on s.id = 1`.execute(db);
    const row = result.rows[0]!;
    if (row.status === 'disabled') throw new ForbiddenError('Account disabled');
    const role = row.role ?? fallbackRole;
    const allowGuests = row.allow_guests ?? DEFAULT_SETTINGS.allowGuests;
    if ((anonymous || role === 'guest') && !allowGuests) throw new ForbiddenError('Guest access is disabled');
    const custom = typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as Permission[]) : row.permissions;
    return {
      uid: token.uid,
      email: row.email ?? token.email,
      name: row.name ?? token.name,
      provider: token.provider,
      role,
      permissions: isBuiltInRole(role) ? permissionsOfRole(role) : (custom ?? []),
      token,
    };
  };
}
