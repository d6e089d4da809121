// The `api_tokens` read table, from the api-token-<id> streams.
import { sql } from 'kysely';
import type { ApiTokenEvent } from '../../shared/api-tokens.js';
import type { Projection, StoredEvent } from '../eventstore/types.js';

type Data<T extends ApiTokenEvent['type']> = Extract<ApiTokenEvent, { type: T }>['data'];

export const apiTokensProjection: Projection = {
  name: 'api-tokens',
  tables: ['api_tokens'],
  handlers: {
    ApiTokenCreated: async (event: StoredEvent<Data<'ApiTokenCreated'>>, trx) => {
      const d = event.data;
      await sql`insert into api_tokens (id, name, user_id, user_name, role, token_hash, permissions, expires_at, created_at, version)
        values (${d.tokenId}, ${d.name}, ${d.userId}, ${d.userName}, ${d.role}, ${d.tokenHash},
          array(select jsonb_array_elements_text(${JSON.stringify(d.permissions)}::jsonb)), ${d.expiresAt}, ${event.createdAt}, ${event.streamVersion})`.execute(
        trx,
      );
    },
    ApiTokenRevoked: async (event, trx) => {
      await sql`update api_tokens set revoked_at = ${event.createdAt}, version = ${event.streamVersion}
        where id = ${event.streamId.slice('api-token-'.length)}`.execute(trx);
    },
  },
};
