// POST /api/session: registration on first sign-in and the role claim check on every one.
import type { FastifyPluginAsync } from 'fastify';
import type { SessionBody } from '../../../shared/accounts.js';
import { principalOf } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import { errors, sessionBody, sessionResponse } from '../schemas.js';
import type { SessionService } from './session-service.js';

export const sessionRoutes: FastifyPluginAsync<{ sessions: SessionService }> = async (app, { sessions }) => {
  app.post<{ Body: SessionBody | null }>(
    '/session',
    {
      schema: {
        summary: 'Register on first sign-in; tells the client when to refresh its token for a new role claim',
        tags: ['accounts'],
        body: { ...sessionBody, type: ['object', 'null'] },
        response: { 200: sessionResponse, ...errors },
      },
    },
    async (request) => sessions.start(principalOf(request), request.body ?? {}, commandMeta(request), request.log),
  );
};
