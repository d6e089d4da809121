// /api/dashboard routes: the dashboard's figures and the wall display's snapshot, both
// computed on the server from projections. Read-only; View reports is enough.
import type { FastifyPluginAsync } from 'fastify';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { visibleSites } from '../auth/site-access.js';
import { ValidationError } from '../errors.js';
import type { PlaceQuery } from './display-place.js';
import type { DashboardQueries } from './dashboard-queries.js';
import type { DisplayQueries } from './display-queries.js';
import { displayErrors, displaySchema, errors, summarySchema } from './schemas.js';

interface DashboardOptions {
  dashboard: DashboardQueries;
  display: DisplayQueries;
  /** The dashboard as it was at a moment (server/history). */
  asOf: (at: Date) => DashboardQueries;
  /** An as-of moment checked against the store's history (server/history/as-of-queries.ts). */
  moment: (raw: string) => Promise<Date>;
}

export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (
  app,
  { dashboard, display, asOf, moment },
) => {
  const view = requirePermission('reports:view');
  const tags = ['dashboard'];

  app.get<{ Querystring: { asOf?: string } }>(
    '/dashboard',
    {
      onRequest: view,
      schema: {
        summary:
          'Totals, revenue (30 days vs the 30 before), top sellers, near expiry, recent activity, inventory health, 30-day stock value; with asOf, as they were then',
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { asOf: { type: 'string', format: 'date-time' } },
        },
        response: { 200: summarySchema, ...errors },
      },
    },
    async (request) => (request.query.asOf ? asOf(await moment(request.query.asOf)).summary() : dashboard.summary()),
  );

  app.get<{ Querystring: PlaceQuery }>(
    '/dashboard/display',
    {
      onRequest: view,
      schema: {
        summary:
          'The wall display: store name, low-stock alerts, stock by category, latest activity; with siteId or locationId, the alerts and stock at that place',
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { siteId: { type: 'string', format: 'uuid' }, locationId: { type: 'string', format: 'uuid' } },
        },
        response: { 200: displaySchema, ...displayErrors },
      },
    },
    async (request) => {
      if (request.query.siteId && request.query.locationId)
        throw new ValidationError('Choose a site or a location, not both');
      return display.snapshot(request.query, visibleSites(principalOf(request)));
    },
  );
};
