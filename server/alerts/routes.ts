// /api/alerts routes: the low-stock list with the caller's dismissals, dismiss and restore,
// and the caller's alert choices. Thin: a schema, a permission, one call.
import type { FastifyPluginAsync } from 'fastify';
import type { AlertSettings } from '../../shared/alerts.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { visibleSites } from '../auth/site-access.js';
import { commandMeta } from '../http/command-meta.js';
import type { AlertService } from './alert-service.js';
import {
  alertSchema,
  alertSettingsBody,
  alertSettingsSchema,
  alertsResponse,
  alertTargetBody,
  errors,
  itemIdParams,
} from './schemas.js';

type WithItem = { Params: { itemId: string }; Body: { siteId?: string } | null };

export const alertRoutes: FastifyPluginAsync<{ alerts: AlertService }> = async (app, { alerts }) => {
  const view = requirePermission('reports:view');
  const tags = ['alerts'];

  app.get(
    '/alerts',
    {
      onRequest: view,
      schema: {
        summary:
          'Items at or below their threshold (per site for items watched per site), most critical first, with my dismissals',
        tags,
        response: { 200: alertsResponse, ...errors },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return { alerts: await alerts.list(principal.uid, visibleSites(principal)) };
    },
  );

  app.post<WithItem>(
    '/alerts/:itemId/dismiss',
    {
      onRequest: view,
      schema: {
        summary:
          "Dismiss an item's low-stock alert for me (with siteId: its alert at that site), until it recovers and goes low again",
        tags,
        params: itemIdParams,
        body: alertTargetBody,
        response: { 200: alertSchema, ...errors },
      },
    },
    async (request) =>
      alerts.dismiss(principalOf(request).uid, request.params.itemId, commandMeta(request), request.body?.siteId),
  );

  app.post<WithItem>(
    '/alerts/:itemId/restore',
    {
      onRequest: view,
      schema: {
        summary: 'Show a dismissed alert again (with siteId: its alert at that site)',
        tags,
        params: itemIdParams,
        body: alertTargetBody,
        response: { 200: alertSchema, ...errors },
      },
    },
    async (request) =>
      alerts.restore(principalOf(request).uid, request.params.itemId, commandMeta(request), request.body?.siteId),
  );

  app.get(
    '/alerts/settings',
    {
      onRequest: view,
      schema: { summary: 'My alert choices', tags, response: { 200: alertSettingsSchema, ...errors } },
    },
    async (request) => alerts.settings(principalOf(request).uid),
  );

  app.put<{ Body: AlertSettings }>(
    '/alerts/settings',
    {
      onRequest: view,
      schema: {
        summary: 'Change my alert choices',
        tags,
        body: alertSettingsBody,
        response: { 200: alertSettingsSchema, ...errors },
      },
    },
    async (request) => alerts.changeSettings(principalOf(request).uid, request.body, commandMeta(request)),
  );
};
