// /api/profile routes: the caller's own account. Reading needs only a registered account;
// editing name and email needs View personal profile (guests have no profile to edit), and
// a new email also a fresh sign-in of the person themself (profile-service.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { AlertPreferences } from '../../../shared/accounts.js';
import { bearerToken, principalOf, requirePermission } from '../../auth/auth-plugin.js';
import { commandMeta } from '../../http/command-meta.js';
import {
  errors,
  preferencesBody,
  preferencesSchema,
  profileBody,
  profileSchema,
  profileUpdateSchema,
} from '../schemas.js';
import type { ProfileService } from './profile-service.js';

export const profileRoutes: FastifyPluginAsync<{ profiles: ProfileService }> = async (app, { profiles }) => {
  const tags = ['profile'];
  app.get(
    '/profile',
    { schema: { summary: 'My account and alert preferences', tags, response: { 200: profileSchema, ...errors } } },
    async (request) => profiles.get(principalOf(request), commandMeta(request), request.log),
  );

  app.put<{ Body: { name?: string; email?: string } }>(
    '/profile',
    {
      onRequest: requirePermission('profile:view'),
      schema: {
        summary: 'Change my name, or ask to change my email',
        description:
          'The name changes at once. A new email (unused by any account) needs a sign-in within the last 5 minutes, never an API token ' +
          "(401 'Sign in again to change your email or password': re-authenticate and retry); it is not set at once: the new address " +
          'gets a link to confirm, and the email changes when it is followed.',
        tags,
        body: profileBody,
        response: { 200: profileUpdateSchema, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const idToken = principal.apiToken ? null : bearerToken(request.headers.authorization);
      return profiles.update(principal, request.body, idToken, commandMeta(request), request.log);
    },
  );

  app.put<{ Body: AlertPreferences }>(
    '/profile/preferences',
    {
      schema: {
        summary: 'My alert preferences',
        tags,
        body: preferencesBody,
        response: { 200: preferencesSchema, ...errors },
      },
    },
    async (request) => profiles.setPreferences(principalOf(request), request.body, commandMeta(request)),
  );
};
