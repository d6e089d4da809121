// Authentication for a feed connection: verify the ID token, resolve the principal with
// the app's own resolver (so disabled accounts and the guest setting apply), and turn each
// way that can fail into the close code and reason the client is told.
import { CLOSE_CODES, TOKEN_PROTOCOL_PREFIX } from '../../shared/realtime.js';
import type { Principal, PrincipalResolver } from '../auth/principal.js';
import type { TokenVerifier, VerifiedToken } from '../auth/verify-token.js';
import { DomainError } from '../errors.js';

/** A reason to close a connection, with the code from CLOSE_CODES (or a standard one). */
export class FeedClose extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface FeedIdentity {
  token: VerifiedToken;
  principal: Principal;
  /** Signed in with an API token (srk_...): kept to check it again (revoked, expired, owner changed). */
  apiToken?: string;
}

/** API tokens (server/api-tokens): the same sign-in the HTTP routes use for `srk_` bearers. */
export interface FeedApiTokens {
  matches(token: string): boolean;
  authenticate(token: string): Promise<Principal>;
}

export async function authenticate(
  rawToken: string,
  verifier: TokenVerifier,
  resolvePrincipal: PrincipalResolver,
  apiTokens?: FeedApiTokens,
): Promise<FeedIdentity> {
  if (apiTokens?.matches(rawToken)) return authenticateApiToken(rawToken, apiTokens);
  let token: VerifiedToken;
  try {
    token = await verifier.verify(rawToken);
  } catch {
    // The verifier says only "invalid or expired"; an expired token gets its own code so the
    // client knows a refreshed token will do. The unverified exp is read for that choice only.
    const exp = unverifiedExpiry(rawToken);
    if (exp !== null && exp <= Date.now()) throw new FeedClose(CLOSE_CODES.tokenExpired, 'Token expired');
    throw new FeedClose(CLOSE_CODES.authRequired, 'Invalid token');
  }
  if (token.expiresAt <= Date.now()) throw new FeedClose(CLOSE_CODES.tokenExpired, 'Token expired');
  return { token, principal: await resolve(token, resolvePrincipal) };
}

/**
 * A script or till on the feed with its API token: the token's own principal (its
 * permissions, never more than its owner's now). The connection ends when the token
 * expires, like an ID token's.
 */
export async function authenticateApiToken(rawToken: string, apiTokens: FeedApiTokens): Promise<FeedIdentity> {
  let principal: Principal;
  try {
    principal = await apiTokens.authenticate(rawToken);
  } catch (error) {
    throw closeForRefusal(error, { provider: 'api-token' });
  }
  // The authenticator hands the resolver the token's expiry in seconds, the feed counts in ms.
  const expiresAt = principal.token.expiresAt < 1e12 ? principal.token.expiresAt * 1000 : principal.token.expiresAt;
  return { token: { ...principal.token, expiresAt }, principal, apiToken: rawToken };
}

/** Re-resolves the principal (periodically and after user, role or settings events). */
export async function resolve(token: VerifiedToken, resolvePrincipal: PrincipalResolver): Promise<Principal> {
  try {
    return await resolvePrincipal(token);
  } catch (error) {
    throw closeForRefusal(error, token);
  }
}

function closeForRefusal(error: unknown, token: Pick<VerifiedToken, 'provider'>): FeedClose {
  if (error instanceof DomainError && (error.status === 403 || error.status === 401)) {
    if (error.status === 401) return new FeedClose(CLOSE_CODES.authRequired, error.message);
    // A resolver refuses a signed-in token for a disabled account, or for a guest (anonymous,
    // or an account with the guest role) when guests are turned off.
    const guest = token.provider === 'anonymous' || /guest/i.test(error.message);
    const code = guest ? CLOSE_CODES.guestsDisabled : CLOSE_CODES.accountDisabled;
    return new FeedClose(code, error.message);
  }
  if (error instanceof FeedClose) return error;
  return new FeedClose(1011, 'Server error');
}

function unverifiedExpiry(rawToken: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(rawToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The token offered in Sec-WebSocket-Protocol as `token.<jwt>`, if any. */
export function tokenFromProtocols(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (value.startsWith(TOKEN_PROTOCOL_PREFIX)) return value.slice(TOKEN_PROTOCOL_PREFIX.length) || null;
  }
  return null;
}

/** Close reasons are limited to 123 bytes by the protocol. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}
