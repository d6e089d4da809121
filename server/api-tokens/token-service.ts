// Runs API token commands: create (capped by the creator's own permissions; the token is
// returned once, only its hash is stored) and revoke. Lists every token with its last use.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { apiTokenStream, type ApiToken, type ApiTokenEvent, type CreateApiToken } from '../../shared/api-tokens.js';
import { PERMISSION_VERBS, type Permission } from '../../shared/permissions.js';
import type { Principal } from '../auth/principal.js';
import type { EventStore } from '../eventstore/event-store.js';
import type { EventMetadata } from '../eventstore/types.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { hashToken, newTokenSecret } from './token-secret.js';

const MAX_LIFETIME_MS = 366 * 86_400_000;

interface Row {
  id: string;
  name: string;
  user_id: string;
  user_name: string;
  permissions: unknown;
  expires_at: Date;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expired: boolean;
  version: number;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const list = (v: unknown) =>
  Array.isArray(v)
    ? v.map(String)
    : String(v)
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

function toApiToken(r: Row): ApiToken {
  return {
    id: r.id,
    name: r.name,
    userId: r.user_id,
    userName: r.user_name,
    permissions: list(r.permissions) as Permission[],
    expiresAt: iso(r.expires_at)!,
    createdAt: iso(r.created_at)!,
    revokedAt: iso(r.revoked_at),
    lastUsedAt: iso(r.last_used_at),
    status: r.revoked_at ? 'revoked' : r.expired ? 'expired' : 'active',
  };
}

export type CreatedApiToken =
  { apiToken: ApiToken; token: string } | { apiToken: ApiToken; token: null; secretShownOnce: true };

export class ApiTokenService {
  constructor(
    private readonly db: Kysely<any>,
    private readonly store: EventStore,
  ) {}

  async list(id?: string): Promise<ApiToken[]> {
    const rows =
      await sql<Row>`select t.id::text as id, t.name, t.user_id, t.user_name, t.permissions, t.expires_at, t.created_at,
        t.revoked_at, u.last_used_at, t.expires_at <= now() as expired, t.version
      from api_tokens t left join api_token_usage u on u.token_id = t.id
      ${id ? sql`where t.id = ${id}` : sql``}
      order by t.created_at desc, t.id`.execute(this.db);
    return rows.rows.map(toApiToken);
  }

  /**
   * Creates a token and answers it, this once. A retry whose Idempotency-Key the event store
   * has seen (its stored HTTP answer expired, or was never written) gets the token created
   * then, without its value: only the hash was kept.
   */
  async create(
    creator: Principal,
    body: CreateApiToken,
    meta: EventMetadata,
    now = new Date(),
  ): Promise<CreatedApiToken> {
    // A token that could mint tokens would outlive its own revocation.
    if (creator.apiToken) throw new ForbiddenError('An API token cannot create API tokens');
    const beyond = body.permissions.find((p) => !creator.permissions.includes(p));
    if (beyond)
      throw new ForbiddenError(
        `A token cannot have more than your permissions: you don't have permission to ${PERMISSION_VERBS[beyond]}`,
      );
    const expiresAt = new Date(body.expiresAt);
    if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now)
      throw new ValidationError('Expiry must be in the future');
    if (expiresAt.getTime() - now.getTime() > MAX_LIFETIME_MS)
      throw new ValidationError('Expiry must be within a year');
    const name = body.name.trim();
    if (!name) throw new ValidationError('Name is required');
    const id = randomUUID();
    const token = newTokenSecret();
    const event: ApiTokenEvent = {
      type: 'ApiTokenCreated',
      data: {
        tokenId: id,
        name,
        userId: creator.uid,
        userName: creator.name || creator.email || 'Unknown User',
        role: creator.role,
        tokenHash: hashToken(token),
        permissions: [...new Set(body.permissions)],
        expiresAt: expiresAt.toISOString(),
      },
    };
    const appended = await this.store.append(apiTokenStream(id), 0, [event], meta);
    if (appended.replayed) {
      const [earlier] = await this.list(appended.streamId.slice(apiTokenStream('').id.length));
      if (!earlier) throw new NotFoundError('API token not found');
      return { apiToken: earlier, token: null, secretShownOnce: true };
    }
    const [apiToken] = await this.list(id);
    return { apiToken: apiToken!, token };
  }

  /** Revoked at once: the next request with it, on any instance, is refused. */
  async revoke(id: string, meta: EventMetadata): Promise<ApiToken> {
    const [current] = await this.list(id);
    if (!current) throw new NotFoundError('API token not found');
    if (!current.revokedAt) {
      const row = await sql<{ version: number }>`select version from api_tokens where id = ${id}`.execute(this.db);
      const event: ApiTokenEvent = { type: 'ApiTokenRevoked', data: { name: current.name } };
      await this.store.append(apiTokenStream(id), row.rows[0]!.version, [event], meta);
    }
    return (await this.list(id))[0]!;
  }
}
