// Reads of the `users` projection, and the one place its rows become API shapes.
import { sql, type Kysely } from 'kysely';
import type { AlertPreferences, User, UserStatus } from '../../../shared/accounts.js';

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
}

type Db = Kysely<any>;

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
  };
}

export function toPreferences(row: UserRow): AlertPreferences {
  return { browserNotifications: row.browser_notifications };
}

const columns = sql`id, name, email, role, status, provider, avatar, manager_request, browser_notifications, created_at, version`;

export async function findUserRow(db: Db, uid: string): Promise<UserRow | null> {
  const rows = await sql<UserRow>`select ${columns} from users where id = ${uid}`.execute(db);
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
  const rows =
    await sql<UserRow>`select u.id, u.name, u.email, u.role, u.status, u.provider, u.avatar, u.manager_request,
      u.browser_notifications, u.created_at, u.version
    from users u left join roles r on r.id = u.role ${filter}
    order by u.created_at, u.id limit 1000`.execute(db);
  return rows.rows.map(toUser);
}
