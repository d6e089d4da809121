// GET /api/health (no auth) and GET /api/client-config: what the browser needs to
// reach Firebase (public by nature: a web API key is not a secret).
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app.js';

export const healthRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        summary: 'Service health',
        security: [],
        response: {
          200: {
            type: 'object',
            properties: { status: { type: 'string' }, database: { type: 'string' }, version: { type: 'string' } },
            required: ['status', 'database', 'version'],
          },
          503: {
            type: 'object',
            properties: { status: { type: 'string' }, database: { type: 'string' }, version: { type: 'string' } },
          },
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(ctx.database.db);
        return { status: 'ok', database: ctx.database.kind, version: ctx.config.version };
      } catch {
        return reply.status(503).send({ status: 'error', database: ctx.database.kind, version: ctx.config.version });
      }
    },
  );

  app.get(
    '/client-config',
    {
      config: { public: true },
      schema: {
        summary: 'Firebase settings for the web client',
        security: [],
        response: {
          200: {
            type: 'object',
            properties: {
              projectId: { type: 'string' },
              apiKey: { type: 'string' },
              authDomain: { type: 'string' },
              authEmulatorUrl: { type: ['string', 'null'] },
            },
          },
        },
      },
    },
    async () => ({
      projectId: ctx.config.firebaseProjectId,
      apiKey: ctx.config.firebaseApiKey,
      authDomain: `${ctx.config.firebaseProjectId}.firebaseapp.com`,
      authEmulatorUrl: ctx.config.authEmulatorPublicUrl,
    }),
  );
};
