// GET /api/me: who the server thinks the caller is, with the permissions it grants.
import type { FastifyPluginAsync } from 'fastify';
import { principalOf } from './auth-plugin.js';

export const meRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        summary: 'The signed-in user as the server sees them',
        response: {
          200: {
            type: 'object',
            properties: {
              uid: { type: 'string' },
              email: { type: ['string', 'null'] },
              name: { type: ['string', 'null'] },
              provider: { type: 'string' },
              role: { type: 'string' },
              permissions: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return {
        uid: p.uid,
        email: p.email,
        name: p.name,
        provider: p.provider,
        role: p.role,
        permissions: p.permissions,
      };
    },
  );
};
