// Who is making a request: the verified token plus the role and permissions the server
// grants. The resolver decides the role; the default trusts the role claim (set by us via
// firebase-admin), and the accounts feature replaces it with its own users projection.
import type { Kysely } from 'kysely';
import type { Permission } from '../../shared/permissions.js';
import { permissionsOfRole } from '../../shared/permissions.js';
import type { Actor } from '../eventstore/types.js';
import type { VerifiedToken } from './verify-token.js';

export interface Principal {
  uid: string;
  email: string | null;
  name: string | null;
  provider: string;
  role: string;
  permissions: Permission[];
  token: VerifiedToken;
  /** The versions of the account records it was resolved from (see principal-cache.ts). */
  stamp?: PrincipalStamp;
  /** Served from the process's cache and not yet checked against the database for this request. */
  tentative?: boolean;
  /** Signed in with this API token (server/api-tokens): its permissions, its rate limit, "{user} via {token}". */
  apiToken?: { id: string; name: string };
  /**
   * Where its role holds (shared/site-roles.ts): absent or null at every site; else only at
   * the sites listed, each with what the role given there allows. Read through
   * site-access.ts, never directly: a site question is asked there.
   */
  siteGrants?: readonly SiteGrant[] | null;
}

/** A site and the permissions a principal holds there (its role there, within its own role). */
export interface SiteGrant {
  siteId: string;
  role: string;
  permissions: readonly Permission[];
}

/**
 * The stream versions of the rows a principal is made of: the user's row (its site roles
 * too), their role's row (custom roles only), the settings row (guest access) and the custom
 * roles they hold at sites; null where there is no row. Every
 * change to any of them moves its version, so an unchanged stamp means an unchanged principal.
 */
export interface PrincipalStamp {
  user: number | null;
  role: number | null;
  settings: number | null;
  /** The versions of the custom roles held at sites, summed (migration 026); 0 or absent when none. */
  siteRoles?: number | null;
}

export interface ResolveOptions {
  /** A principal from the cache will do; the route checks its stamp in its own query (principal-check.ts). */
  cached?: boolean;
  /** Resolve on this connection (inside a transaction that holds the only PGlite connection). */
  db?: Kysely<any>;
}

/** Resolves fresh from the database unless `options.cached` allows a cached principal. */
export type PrincipalResolver = (token: VerifiedToken, options?: ResolveOptions) => Promise<Principal>;

export const claimPrincipalResolver: PrincipalResolver = async (token) => {
  const role = token.provider === 'anonymous' ? 'guest' : (token.roleClaim ?? 'staff');
  return {
    uid: token.uid,
    email: token.email,
    name: token.name,
    provider: token.provider,
    role,
    permissions: permissionsOfRole(role),
    token,
  };
};

export function actorOf(principal: Principal | null): Actor {
  if (!principal) return { uid: null, name: 'Unknown User' };
  const name = principal.name || principal.email || 'Unknown User';
  return { uid: principal.uid, name: principal.apiToken ? `${name} via ${principal.apiToken.name}` : name };
}
