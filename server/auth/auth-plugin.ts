// Verifies the bearer token on every /api route not marked `config: { public: true }`
// and offers `requirePermission` for routes. The server decides every permission itself.
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { PERMISSION_VERBS, type Permission } from '../../shared/permissions.js';
import { DomainError, ForbiddenError, UnauthorizedError } from '../errors.js';
import type { Principal, PrincipalResolver } from './principal.js';
import type { TokenVerifier } from './verify-token.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

export interface AuthPluginOptions {
  verifier: TokenVerifier;
  resolvePrincipal: PrincipalResolver;
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9._-]+)$/.exec(header);
  return match ? match[1]! : null;
}

export const authPlugin = fp<AuthPluginOptions>(async (app, options) => {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config?.public) return;
    if (!request.routeOptions.url) return; // unknown route: let it 404
    let uid: string | undefined;
    try {
      const token = bearerToken(request.headers.authorization);
      if (!token) throw new UnauthorizedError('Authentication required');
      const verified = await options.verifier.verify(token);
      uid = verified.uid;
      request.principal = await options.resolvePrincipal(verified);
    } catch (error) {
      // Every refused request is an auth decision worth a log line (never the token itself).
      if (error instanceof DomainError) {
        request.log.warn({ uid, method: request.method, route: request.routeOptions.url, status: error.status, reason: error.message }, 'request refused');
      }
      throw error;
    }
  });
});

/** A preHandler that refuses with 403 unless the principal has the permission. */
export function requirePermission(permission: Permission): preHandlerAsyncHookHandler {
  return async function (this: unknown, request: FastifyRequest, _reply: FastifyReply) {
    const principal = request.principal;
    if (!principal) throw new UnauthorizedError();
    if (!principal.permissions.includes(permission)) {
      request.log.warn(
        { uid: principal.uid, role: principal.role, permission, route: request.routeOptions.url, method: request.method },
        'permission denied',
      );
      throw new ForbiddenError(`You don't have permission to ${PERMISSION_VERBS[permission]}`);
    }
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
