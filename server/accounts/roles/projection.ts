// The `roles` projection: custom roles only (built-in ones are code). Deterministic, so a
// rebuild gives the same rows.
import { sql } from 'kysely';
import type { RoleEvent } from '../../../shared/accounts.js';
import type { Projection } from '../../eventstore/types.js';

type DataOf<T extends RoleEvent['type']> = Extract<RoleEvent, { type: T }>['data'];

export const rolesProjection: Projection = {
  name: 'roles',
  tables: ['roles'],
  handlers: {
    RoleCreated: async (event, trx) => {
      const d = event.data as DataOf<'RoleCreated'>;
      await sql`insert into roles (id, name, description, permissions, created_at, updated_at, version)
        values (${d.id}, ${d.name}, ${d.description}, ${JSON.stringify(d.permissions)}::jsonb,
          ${event.createdAt}, ${event.createdAt}, ${event.streamVersion})`.execute(trx);
    },
    RoleUpdated: async (event, trx) => {
      const d = event.data as DataOf<'RoleUpdated'>;
      await sql`update roles set name = ${d.name}, description = ${d.description},
          permissions = ${JSON.stringify(d.permissions)}::jsonb, updated_at = ${event.createdAt}, version = ${event.streamVersion}
        where id = ${d.id}`.execute(trx);
    },
    RoleDeleted: async (event, trx) => {
      await sql`delete from roles where id = ${(event.data as DataOf<'RoleDeleted'>).id}`.execute(trx);
    },
  },
};
