// Wires API tokens into the app: the sign-in the auth plugin uses for `srk_` bearer tokens,
// and the /api/tokens routes.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { PrincipalResolver } from '../auth/principal.js';
import { apiTokenRoutes } from './routes.js';
import { createApiTokenAuthenticator } from './token-auth.js';
import { isApiToken } from './token-secret.js';
import { ApiTokenService } from './token-service.js';

export function apiTokenSignIn(ctx: AppContext, resolvePrincipal: PrincipalResolver) {
  return { matches: isApiToken, authenticate: createApiTokenAuthenticator(ctx.database.db, resolvePrincipal) };
}

export const apiTokensFeature: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(apiTokenRoutes, { tokens: new ApiTokenService(ctx.database.db, ctx.store) });
};
