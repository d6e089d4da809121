// The `users` projection: one row per registered account, kept in step with the user
// streams, and `user_site_roles`, the sites an account's role is limited to (migration 026).
// Deterministic (event time and data only), so a rebuild gives the same rows.
import { sql, type RawBuilder } from 'kysely';
import type { UserEvent } from '../../../shared/accounts.js';
import type { Projection, StoredEvent, Transaction } from '../../eventstore/types.js';

type DataOf<T extends UserEvent['type']> = Extract<UserEvent, { type: T }>['data'];

/** Every update also moves the row's version and time to the event's. */
async function touch(event: StoredEvent, trx: Transaction, uid: string, set: RawBuilder<unknown>): Promise<void> {
  await sql`update users set ${set}, updated_at = ${event.createdAt}, version = ${event.streamVersion}
    where id = ${uid}`.execute(trx);
}

export const usersProjection: Projection = {
  name: 'users',
  tables: ['users', 'user_site_roles'],
  handlers: {
    UserRegistered: async (event, trx) => {
      const d = event.data as DataOf<'UserRegistered'>;
      await sql`insert into users (id, name, email, role, status, provider, avatar, manager_request, founder,
          created_at, updated_at, version)
        values (${d.uid}, ${d.name}, ${d.email}, ${d.role}, 'active', ${d.provider}, ${d.avatar}, null, ${d.founder},
          ${event.createdAt}, ${event.createdAt}, ${event.streamVersion})`.execute(trx);
    },
    UserRoleChanged: async (event, trx) => {
      const d = event.data as DataOf<'UserRoleChanged'>;
      // A manager has nothing left to request.
      await touch(
        event,
        trx,
        d.uid,
        sql`role = ${d.role},
        manager_request = case when ${d.role} = 'manager' then null else manager_request end`,
      );
    },
    UserProfileUpdated: async (event, trx) => {
      const d = event.data as DataOf<'UserProfileUpdated'>;
      await touch(
        event,
        trx,
        d.uid,
        sql`name = coalesce(${d.name ?? null}, name), email = coalesce(${d.email ?? null}, email)`,
      );
    },
    UserDisabled: async (event, trx) => {
      await touch(event, trx, (event.data as DataOf<'UserDisabled'>).uid, sql`status = 'disabled'`);
    },
    UserEnabled: async (event, trx) => {
      await touch(event, trx, (event.data as DataOf<'UserEnabled'>).uid, sql`status = 'active'`);
    },
    ManagerAccessRequested: async (event, trx) => {
      await touch(event, trx, (event.data as DataOf<'ManagerAccessRequested'>).uid, sql`manager_request = 'pending'`);
    },
    ManagerAccessApproved: async (event, trx) => {
      await touch(event, trx, (event.data as DataOf<'ManagerAccessApproved'>).uid, sql`manager_request = null`);
    },
    ManagerAccessRejected: async (event, trx) => {
      await touch(event, trx, (event.data as DataOf<'ManagerAccessRejected'>).uid, sql`manager_request = null`);
    },
    UserSiteRolesSet: async (event, trx) => {
      const d = event.data as DataOf<'UserSiteRolesSet'>;
      // The user's version moves with them, so a cached principal's stamp sees the change.
      await touch(event, trx, d.uid, sql`all_sites = ${d.siteRoles === null}`);
      await sql`delete from user_site_roles where user_id = ${d.uid}`.execute(trx);
      const rows = (d.siteRoles ?? []).map((g, i) => sql`(${d.uid}, ${g.siteId}::uuid, ${g.role}, ${i})`);
      if (rows.length)
        await sql`insert into user_site_roles (user_id, site_id, role, position) values ${sql.join(rows)}`.execute(trx);
    },
    AlertPreferencesChanged: async (event, trx) => {
      const d = event.data as DataOf<'AlertPreferencesChanged'>;
      await touch(event, trx, d.uid, sql`browser_notifications = ${d.browserNotifications}`);
    },
  },
};
