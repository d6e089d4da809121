// Reads of the `roles` projection joined with built-in roles; rows become API shapes here.
import { sql, type Kysely } from 'kysely';
import type { Role } from '../../../shared/accounts.js';
import { BUILT_IN_ROLES, type Permission, type RoleDefinition } from '../../../shared/permissions.js';
import type { RoleSnapshot } from './decide.js';

type Db = Kysely<any>;

interface RoleRow {
  id: string;
  name: string;
  description: string;
  permissions: Permission[] | string;
  version: number;
}

function toDefinition(row: RoleRow): RoleDefinition {
  // pg parses jsonb; PGlite does too, but a text fallback keeps either honest.
  const permissions =
    typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as Permission[]) : row.permissions;
  return { id: row.id, name: row.name, description: row.description, permissions, builtIn: false };
}

export async function customRoles(db: Db): Promise<RoleDefinition[]> {
  const rows =
    await sql<RoleRow>`select id, name, description, permissions, version from roles order by created_at, id`.execute(
      db,
    );
  return rows.rows.map(toDefinition);
}

export async function findCustomRole(db: Db, id: string): Promise<(RoleSnapshot & { version: number }) | null> {
  const rows =
    await sql<RoleRow>`select id, name, description, permissions, version from roles where id = ${id}`.execute(db);
  const row = rows.rows[0];
  return row ? { ...toDefinition(row), version: row.version } : null;
}

export async function userCounts(db: Db): Promise<Map<string, number>> {
  const rows = await sql<{ role: string; n: number }>`select role, count(*)::int as n from users group by role`.execute(
    db,
  );
  return new Map(rows.rows.map((r) => [r.role, Number(r.n)]));
}

/** Accounts holding the role, as their own or at a site (a role in use is never deleted). */
export async function usersWithRole(db: Db, role: string): Promise<number> {
  const rows = await sql<{ n: number }>`select count(*)::int as n from (
      select id from users where role = ${role} union select user_id from user_site_roles where role = ${role}) holders`.execute(
    db,
  );
  return Number(rows.rows[0]!.n);
}

/** Built-in roles first, then custom roles, each with how many accounts hold it. */
export async function listRoles(db: Db): Promise<Role[]> {
  const [custom, counts] = await Promise.all([customRoles(db), userCounts(db)]);
  return [...Object.values(BUILT_IN_ROLES), ...custom].map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    permissions: r.permissions,
    builtIn: r.builtIn,
    userCount: counts.get(r.id) ?? 0,
  }));
}

/** Every role that exists, built-in and custom, with the permissions it grants. */
export async function rolePermissions(db: Db): Promise<Record<string, Permission[]>> {
  const all = [...Object.values(BUILT_IN_ROLES), ...(await customRoles(db))];
  return Object.fromEntries(all.map((r) => [r.id, r.permissions]));
}
