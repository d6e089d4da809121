// GET /api/client-config (no auth): what the browser needs to reach Firebase (public by
// nature: a web API key is not a secret), and whether the sign-in screen offers guest
// sign-in (a store setting, off unless a manager allows it).
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { readSettings } from './settings/settings-queries.js';

export const clientConfigRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
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
