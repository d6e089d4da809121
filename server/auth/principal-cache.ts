// Keeps signed-in users' principals (role, permissions, the disabled check already passed)
// in the process, so a read or a stock adjustment need not resolve them again. Tokens are
// still verified on every request; only the lookup of the account records is saved.
//
// A cache alone cannot promise that a role change or a disable made on another instance
// takes effect on the very next request here: this process hears of other instances'
// events through its subscription to committed events, read shortly after a NOTIFY, and a
// request may arrive in between. So a cached principal is only ever tentative. It carries
// the versions of the rows it was made from (its stamp, see principal.ts), and the route
// that accepts a cached principal reads the current versions in the same statement as its
// own query (principal-check.ts): a few primary-key lookups riding along, no extra round
// trip. If they differ, the request resolves the principal afresh and checks its
// permissions again before it answers or writes anything. Every other route resolves
// afresh, as before. The event-driven invalidation (user, role and settings events read
// after commit, from every instance) and the TTL only keep the cache from going stale for
// long, so the stamp check rarely has to fall back.
import type { StoredEvent } from '../eventstore/types.js';
import type { Principal, PrincipalResolver } from './principal.js';
import type { VerifiedToken } from './verify-token.js';

export interface PrincipalCacheOptions {
  /** Entries older than this are resolved afresh (a backstop; default 60 s). */
  ttlMs?: number;
  /** Most users kept; the oldest entry goes first (default 10,000). */
  maxEntries?: number;
  /** Where committed events arrive from every instance, batch by batch (server/subscriptions). */
  subscribe?: (listener: (events: StoredEvent[]) => void) => () => void;
  now?: () => number;
}

interface Entry {
  principal: Principal;
  /** What the resolver took from the token (the fallback role and name come from it). */
  tokenKey: string;
  at: number;
}

export interface CachingResolver extends PrincipalResolver {
  /** Forgets one user's principal, or everyone's. */
  invalidate(uid?: string): void;
  /** Whether a principal of this user is kept (expired or not). */
  has(uid: string): boolean;
  readonly size: number;
  close(): void;
}

const tokenKeyOf = (token: VerifiedToken) => JSON.stringify([token.provider, token.roleClaim, token.email, token.name]);

/** Stream types whose events can change a principal: users, roles, settings (guest access). */
const PRINCIPAL_STREAMS = new Set(['user', 'role', 'settings']);

export function cachePrincipals(resolve: PrincipalResolver, options: PrincipalCacheOptions = {}): CachingResolver {
  const { ttlMs = 60_000, maxEntries = 10_000, now = Date.now } = options;
  const entries = new Map<string, Entry>();

  function invalidate(uid?: string): void {
    if (uid === undefined) entries.clear();
    else entries.delete(uid);
  }

  const unsubscribe = options.subscribe?.((events) => {
    for (const event of events) {
      if (!PRINCIPAL_STREAMS.has(event.streamType)) continue;
      // A user's own stream names them; a role or the settings can touch anyone.
      if (event.streamType === 'user' && event.streamId.startsWith('user-'))
        invalidate(event.streamId.slice('user-'.length));
      else invalidate();
    }
  });

  const resolver = (async (token, resolveOptions = {}) => {
    const tokenKey = tokenKeyOf(token);
    if (resolveOptions.cached) {
      const entry = entries.get(token.uid);
      if (entry && entry.tokenKey === tokenKey && now() - entry.at < ttlMs) {
        return { ...entry.principal, token, tentative: true };
      }
    }
    const principal = await resolve(token, { db: resolveOptions.db });
    // Only principals with a stamp can be checked later; a refused one (disabled, guests
    // off) throws above and is never kept, so lifting the refusal shows at once too.
    if (principal.stamp) {
      entries.delete(token.uid);
      entries.set(token.uid, { principal: { ...principal, tentative: false }, tokenKey, at: now() });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    }
    return principal;
  }) as CachingResolver;
  resolver.invalidate = invalidate;
  resolver.has = (uid) => entries.has(uid);
  Object.defineProperty(resolver, 'size', { get: () => entries.size });
  resolver.close = () => unsubscribe?.();
  return resolver;
}
