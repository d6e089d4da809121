// GET /api/health (no auth): whether this instance and its database can serve, for load
// balancers and the client's reconnect logic.
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../db/database-unavailable.js';
import { isDraining } from './connection-drain.js';

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
            properties: {
              status: { type: 'string' },
              database: { type: 'string' },
              databaseStatus: { type: 'string' },
              version: { type: 'string' },
            },
            required: ['status', 'database', 'databaseStatus', 'version'],
          },
          503: {
            type: 'object',
            properties: {
              status: { type: 'string' },
              database: { type: 'string' },
              databaseStatus: { type: 'string' },
              version: { type: 'string' },
              error: { type: 'string' },
            },
          },
        },
      },
    },
    async (_request, reply) => {
      if (isDraining(app.server)) {
        // Shutting down (a deploy): a load balancer sends new work to the other instances.
        return reply.status(503).header('connection', 'close').send({
          status: 'shutting down',
          database: ctx.database.kind,
          databaseStatus: 'up',
          version: ctx.config.version,
          error: 'Server is restarting, try another instance',
        });
      }
      try {
        await sql`select 1`.execute(ctx.database.db);
        return { status: 'ok', database: ctx.database.kind, databaseStatus: 'up', version: ctx.config.version };
      } catch {
        // A load balancer takes this instance out while its database is down and puts it back after.
        return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
          status: 'unavailable',
          database: ctx.database.kind,
          databaseStatus: 'down',
          version: ctx.config.version,
          error: DATABASE_UNAVAILABLE_MESSAGE,
        });
      }
    },
  );
};
