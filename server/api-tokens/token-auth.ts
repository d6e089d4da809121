// Signs a request in with an API token: looked up by its hash in the database on every
// request (so a revoke or an expiry holds on the very next request, on every instance),
// then the owner's principal is resolved afresh (a disabled owner is refused, a demoted one
// loses what they lost) and cut down to the token's permissions. Last use is recorded at
// most once a minute per token and instance, off the request's path.
import { sql, type Kysely } from 'kysely';
import type { Permission } from '../../shared/permissions.js';
import type { Principal, PrincipalResolver } from '../auth/principal.js';
import { UnauthorizedError } from '../errors.js';
import { hashToken } from './token-secret.js';

interface TokenRow {
  id: string;
  name: string;
  user_id: string;
  user_name: string;
  role: string;
  permissions: unknown;
  expired: boolean;
  revoked: boolean;
  expires_at: Date;
}

const LAST_USE_EVERY_MS = 60_000;

export type ApiTokenAuthenticator = (token: string, db?: Kysely<any>) => Promise<Principal>;

export function createApiTokenAuthenticator(
  db: Kysely<any>,
  resolvePrincipal: PrincipalResolver,
): ApiTokenAuthenticator {
  const lastWritten = new Map<string, number>();

  function recordUse(tokenId: string): void {
    const now = Date.now();
    if (now - (lastWritten.get(tokenId) ?? 0) < LAST_USE_EVERY_MS) return;
    lastWritten.set(tokenId, now);
    void sql`insert into api_token_usage (token_id, last_used_at) values (${tokenId}, now())
      on conflict (token_id) do update set last_used_at = excluded.last_used_at`
      .execute(db)
      .catch(() => lastWritten.delete(tokenId));
  }

  return async (token, onDb) => {
    const rows = await sql<TokenRow>`select id::text as id, name, user_id, user_name, role, permissions, expires_at,
        expires_at <= now() as expired, revoked_at is not null as revoked
      from api_tokens where token_hash = ${hashToken(token)}`.execute(onDb ?? db);
    const row = rows.rows[0];
    if (!row) throw new UnauthorizedError('Invalid API token');
    if (row.revoked) throw new UnauthorizedError('This API token was revoked');
    if (row.expired) throw new UnauthorizedError('This API token has expired');
    const owner = await resolvePrincipal(
      {
        uid: row.user_id,
        email: null,
        name: row.user_name,
        picture: null,
        roleClaim: row.role,
        provider: 'api-token',
        expiresAt: new Date(row.expires_at).getTime() / 1000,
      },
      { db: onDb },
    );
    const granted = (
      Array.isArray(row.permissions)
        ? row.permissions
        : String(row.permissions)
            .replace(/^\{|\}$/g, '')
            .split(',')
    ) as Permission[];
    recordUse(row.id);
    return {
      ...owner,
      // Never more than the owner has now, never more than the token was given.
      permissions: owner.permissions.filter((p) => granted.includes(p)),
      tentative: false,
      stamp: undefined,
      apiToken: { id: row.id, name: row.name },
    };
  };
}
