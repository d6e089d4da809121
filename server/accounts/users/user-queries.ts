// Reads of the `users` projection, and the one place its rows become API shapes.
import { sql, type Kysely } from 'kysely';
import type { AlertPreferences, User, UserStatus } from '../../../shared/accounts.js';
import type { SiteRole, SiteRoles } from '../../../shared/site-roles.js';

export interface UserRow {
  id: string;
  name: string;
  email: string | null;
  role: string;
  status: UserStatus;
  provider: string;
  avatar: string | null;
  manager_request: 'pending' | null;
  browser_notifications: boolean;
  created_at: Date | string;
  version: number;
  all_sites: boolean;
  /** The user's site roles in the order given (JSON), read with all_sites. */
  site_roles: SiteRole[] | string | null;
}

type Db = Kysely<any>;

/** Where the user's role holds: null at every site, else their site roles in order. */
export function siteRolesOf(row: UserRow): SiteRoles {
  if (row.all_sites) return null;
  const list = typeof row.site_roles === 'string' ? (JSON.parse(row.site_roles) as SiteRole[]) : row.site_roles;
  return (list ?? []).map((g) => ({ siteId: g.siteId.toLowerCase(), role: g.role }));
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: row.status,
    provider: row.provider,
    createdAt: new Date(row.created_at).toISOString(),
    avatar: row.avatar,
    managerRequest: row.manager_request,
    siteRoles: siteRolesOf(row),
  };
}

export function toPreferences(row: UserRow): AlertPreferences {
  return { browserNotifications: row.browser_notifications };
}

/** A user's site roles, in order, as JSON (the users row aliased `u`). */
const siteRolesColumn = sql`(select json_agg(json_build_object('siteId', g.site_id, 'role', g.role) order by g.position)
  from user_site_roles g where g.user_id = u.id) as site_roles`;

const columns = sql`u.id, u.name, u.email, u.role, u.status, u.provider, u.avatar, u.manager_request,
  u.browser_notifications, u.created_at, u.version, u.all_sites, ${siteRolesColumn}`;

export async function findUserRow(db: Db, uid: string): Promise<UserRow | null> {
  const rows = await sql<UserRow>`select ${columns} from users u where u.id = ${uid}`.execute(db);
  return rows.rows[0] ?? null;
}

export async function storeHasUsers(db: Db): Promise<boolean> {
  const rows = await sql<{ n: number }>`select count(*)::int as n from (select 1 from users limit 1) u`.execute(db);
  return rows.rows[0]!.n > 0;
}

/** Uids of active managers; in a locked transaction this is the set a demotion must not empty. */
export async function activeManagerIds(db: Db): Promise<string[]> {
  const rows = await sql<{ id: string }>`select id from users where role = 'manager' and status = 'active'`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Uids of active managers who work at every site: somebody must keep seeing the whole store. */
export async function allSitesManagerIds(db: Db): Promise<string[]> {
  const rows = await sql<{
    id: string;
  }>`select id from users where role = 'manager' and status = 'active' and all_sites`.execute(db);
  return rows.rows.map((r) => r.id);
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Users, oldest first, matching `q` in name, email, role id or role name. */
export async function listUsers(db: Db, q: string | undefined): Promise<User[]> {
  const term = q?.trim();
  const filter = term
    ? sql`where u.name ilike ${likePattern(term)} or u.email ilike ${likePattern(term)} or u.role ilike ${likePattern(term)}
        or coalesce(r.name, case u.role when 'manager' then 'Store Manager' when 'staff' then 'Staff Member'
          when 'guest' then 'Guest' end) ilike ${likePattern(term)}`
    : sql``;
  const rows = await sql<UserRow>`select ${columns}
    from users u left join roles r on r.id = u.role ${filter}
    order by u.created_at, u.id limit 1000`.execute(db);
  return rows.rows.map(toUser);
}

/** The store's sites by id, with their names and whether archived (what roles per site check). */
export async function knownSites(db: Db): Promise<Record<string, { name: string; archived: boolean }>> {
  const rows = await sql<{
    id: string;
    name: string;
    archived: boolean;
  }>`select id::text as id, name, archived_at is not null as archived from sites`.execute(db);
  return Object.fromEntries(
    rows.rows.map((r) => [r.id.toLowerCase(), { name: r.name, archived: Boolean(r.archived) }]),
  );
}
