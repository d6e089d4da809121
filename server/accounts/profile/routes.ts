// /api/profile routes: the caller's own account. Reading needs only a registered account;
// editing name and email needs View personal profile (guests have no profile to edit).
import type { FastifyPluginAsync } from 'fastify';
import type { AlertPreferences } from '../../../shared/accounts.js';
import { principalOf, requirePermission } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import { errors, preferencesBody, preferencesSchema, profileBody, profileSchema } from '../schemas.js';
import type { ProfileService } from './profile-service.js';

export const profileRoutes: FastifyPluginAsync<{ profiles: ProfileService }> = async (app, { profiles }) => {
  const tags = ['profile'];
  app.get('/profile', { schema: { summary: 'My account and alert preferences', tags, response: { 200: profileSchema, ...errors } } }, async (request) =>
    profiles.get(principalOf(request)),
  );

  app.put<{ Body: { name?: string; email?: string } }>(
    '/profile',
    {
      onRequest: requirePermission('profile:view'),
      schema: { summary: 'Change my name or email (the email must be unused)', tags, body: profileBody, response: { 200: profileSchema, ...errors } },
    },
    async (request) => profiles.update(principalOf(request), request.body, commandMeta(request), request.log),
  );

  app.put<{ Body: AlertPreferences }>(
    '/profile/preferences',
    { schema: { summary: 'My alert preferences', tags, body: preferencesBody, response: { 200: preferencesSchema, ...errors } } },
    async (request) => profiles.setPreferences(principalOf(request), request.body, commandMeta(request)),
  );
};
