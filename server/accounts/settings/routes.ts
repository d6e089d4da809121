// /api/settings routes: read by every signed-in user, changed with Manage settings.
import type { FastifyPluginAsync } from 'fastify';
import type { Settings } from '../../../shared/accounts.js';
import { requirePermission } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import { errors, settingsBody, settingsSchema } from '../schemas.js';
import type { SettingsService } from './settings-service.js';

export const settingsRoutes: FastifyPluginAsync<{ settings: SettingsService }> = async (app, { settings }) => {
  const tags = ['settings'];
  app.get(
    '/settings',
    { schema: { summary: 'Store settings', tags, response: { 200: settingsSchema, ...errors } } },
    async () => settings.read(),
  );

  app.put<{ Body: Partial<Settings> }>(
    '/settings',
    {
      onRequest: requirePermission('settings:manage'),
      schema: {
        summary: 'Change some store settings',
        tags,
        body: settingsBody,
        response: { 200: settingsSchema, ...errors },
      },
    },
    async (request) => settings.change(request.body, commandMeta(request), request.log),
  );
};
