// Verifies the bearer token on every /api route not marked `config: { public: true }`
// and offers `requirePermission` for routes. The server decides every permission itself.
// Routes marked `config: { principal: 'checked-in-query' }` accept a cached principal and
// check it in their own statement (principal-check.ts); all others resolve it afresh.
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, preHandlerHookHandler } from 'fastify';
import { hasPermission, PERMISSION_VERBS, type PermissionNeed } from '../../shared/permissions.js';
import { DomainError, ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Principal, PrincipalResolver, PrincipalStamp } from './principal.js';
import type { TokenVerifier } from './verify-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Resolves this request's principal afresh from the database (optionally on a transaction). */
    refreshPrincipal: ((db?: Kysely<any>) => Promise<Principal>) | null;
    /** The permissions requirePermission checked, to check again if the principal changes. */
    checkedPermissions: PermissionNeed[] | null;
    /** Why a cached principal, checked again, was refused: every later check refuses the same. */
    principalRefusal: unknown;
  }
  interface FastifyContextConfig {
    public?: boolean;
    /** The handler checks a cached principal's stamp in its own query (see principal-check.ts). */
    principal?: 'checked-in-query';
  }
}

export interface AuthPluginOptions {
  verifier: TokenVerifier;
  resolvePrincipal: PrincipalResolver;
  /** Signs in `srk_` API tokens (server/api-tokens); checked in the database on every request. */
  apiTokens?: { matches(token: string): boolean; authenticate(token: string, db?: Kysely<any>): Promise<Principal> };
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
  return match ? match[1]! : null;
}

/** Every refused request is an auth decision worth a log line (never the token itself). */
function logRefusal(request: FastifyRequest, uid: string | undefined, error: unknown): void {
  if (error instanceof DomainError) {
    request.log.warn(
      { uid, method: request.method, route: request.routeOptions.url, status: error.status, reason: error.message },
      'request refused',
    );
  }
}

export const authPlugin = fp<AuthPluginOptions>(async (app, options) => {
  app.decorateRequest('principal', null);
  app.decorateRequest('refreshPrincipal', null);
  app.decorateRequest('checkedPermissions', null);
  app.decorateRequest('principalRefusal', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config?.public) return;
    if (!request.routeOptions.url) return; // unknown route: let it 404
    let uid: string | undefined;
    try {
      const token = bearerToken(request.headers.authorization);
      if (!token) throw new UnauthorizedError('Authentication required');
      if (options.apiTokens?.matches(token)) {
        const apiTokens = options.apiTokens;
        request.principal = await apiTokens.authenticate(token);
        uid = request.principal.uid;
        request.refreshPrincipal = (db) => apiTokens.authenticate(token, db);
        return;
      }
      const verified = await options.verifier.verify(token);
      uid = verified.uid;
      request.refreshPrincipal = async (db) => {
        try {
          return await options.resolvePrincipal(verified, { db });
        } catch (error) {
          logRefusal(request, verified.uid, error);
          throw error;
        }
      };
      const cached = request.routeOptions.config?.principal === 'checked-in-query';
      request.principal = await options.resolvePrincipal(verified, { cached });
    } catch (error) {
      logRefusal(request, uid, error);
      throw error;
    }
  });
  // A backstop for a route that accepted a cached principal and answered without checking
  // it: check it now, before a success goes out (reads only; a write checks in its transaction).
  // Only those routes can hold a cached principal, so only they carry the hook.
  async function backstop(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (request.principal?.tentative && reply.statusCode < 400) {
      request.log.warn({ route: request.routeOptions.url }, 'cached principal was not checked by the route');
      await confirmPrincipal(request);
    }
    return payload;
  }
  app.addHook('onRoute', (route) => {
    if (route.config?.principal !== 'checked-in-query') return;
    const own = route.preSerialization;
    route.preSerialization = [backstop, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
  });
});

/**
 * Settles a cached principal: unchanged if `stamp` (read in the route's own statement)
 * matches the one it was cached with; otherwise resolved afresh, on `db` if given, and
 * every permission checked so far checked again. Throws the refusal (403) if it no longer
 * passes. Returns the principal the request now runs as.
 */
export async function confirmPrincipal(
  request: FastifyRequest,
  stamp?: PrincipalStamp | null,
  db?: Kysely<any>,
): Promise<Principal> {
  if (request.principalRefusal) throw request.principalRefusal;
  const principal = request.principal;
  if (!principal) throw new UnauthorizedError();
  if (!principal.tentative) return principal;
  if (stamp && principal.stamp && sameStamp(stamp, principal.stamp)) {
    request.principal = { ...principal, tentative: false };
    return request.principal;
  }
  // Not tentative from here on, whatever happens: the error handler must not check again.
  request.principal = { ...principal, tentative: false, permissions: [] };
  try {
    const fresh = await request.refreshPrincipal!(db);
    request.principal = fresh;
    for (const permission of request.checkedPermissions ?? []) refuseWithout(request, fresh, permission);
    return fresh;
  } catch (error) {
    // A command tried again (its batch failed) must meet the same refusal, not a settled principal.
    request.principalRefusal = error;
    throw error;
  }
}

function sameStamp(a: PrincipalStamp, b: PrincipalStamp): boolean {
  return (
    a.user === b.user &&
    a.role === b.role &&
    a.settings === b.settings &&
    (a.siteRoles ?? null) === (b.siteRoles ?? null)
  );
}

function refuseWithout(request: FastifyRequest, principal: Principal, permission: PermissionNeed): void {
  if (hasPermission(principal.permissions, permission)) return;
  request.log.warn(
    { uid: principal.uid, role: principal.role, permission, route: request.routeOptions.url, method: request.method },
    'permission denied',
  );
  const verbs = (typeof permission === 'string' ? [permission] : permission).map((p) => PERMISSION_VERBS[p]);
  throw new ForbiddenError(`You don't have permission to ${verbs.join(' or ')}`);
}

/**
 * An onRequest or preHandler hook that refuses with 403 unless the principal has the
 * permission (or, given several, any one of them). Callback-style: on every request of a
 * guarded route, a principal that has the permission passes without a promise of its own.
 */
export function requirePermission(permission: PermissionNeed): preHandlerHookHandler {
  return function (this: unknown, request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    try {
      const principal = request.principal;
      if (!principal) throw new UnauthorizedError();
      (request.checkedPermissions ??= []).push(permission);
      // A cached principal without the permission may just have been given it: ask afresh.
      if (!hasPermission(principal.permissions, permission) && principal.tentative) {
        confirmPrincipal(request).then(
          (fresh) => {
            try {
              refuseWithout(request, fresh, permission);
              done();
            } catch (error) {
              done(error as Error);
            }
          },
          (error: Error) => done(error),
        );
        return;
      }
      refuseWithout(request, principal, permission);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
