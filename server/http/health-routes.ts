// GET /api/health (no auth) and GET /api/client-config: what the browser needs to
// reach Firebase (public by nature: a web API key is not a secret), and whether the
// sign-in screen offers guest sign-in (a store setting, off unless a manager allows it).
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../app.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../db/database-unavailable.js';
import { isDraining } from '../launch/connection-drain.js';
import { readSettings } from '../accounts/settings/settings-queries.js';

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
        return reply
          .status(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
          .send({
            status: 'unavailable',
            database: ctx.database.kind,
            databaseStatus: 'down',
            version: ctx.config.version,
            error: DATABASE_UNAVAILABLE_MESSAGE,
          });
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
              guestSignIn: { type: 'boolean', description: 'The store allows guest (anonymous) sign-in' },
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
      // Only what the sign-in screen shows: the server refuses guests itself while it is off.
      // Without the database, sign-in must still load: no guest button then.
      guestSignIn: await readSettings(ctx.database.db).then(
        (settings) => settings.allowGuests,
        () => false,
      ),
    }),
  );
};
