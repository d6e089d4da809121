// /api/dashboard routes: the dashboard's figures and the wall display's snapshot, both
// computed on the server from projections. Read-only; View reports is enough.
import type { FastifyPluginAsync } from 'fastify';
import { requirePermission } from '../auth/auth-plugin.js';
import type { DashboardQueries } from './dashboard-queries.js';
import type { DisplayQueries } from './display-queries.js';
import { displaySchema, errors, summarySchema } from './schemas.js';

export const dashboardRoutes: FastifyPluginAsync<{ dashboard: DashboardQueries; display: DisplayQueries }> = async (app, { dashboard, display }) => {
  const view = requirePermission('reports:view');
  const tags = ['dashboard'];

  app.get(
    '/dashboard',
    {
      onRequest: view,
      schema: {
        summary: 'Totals, revenue (30 days vs the 30 before), top sellers, near expiry, recent activity, inventory health, 30-day stock value',
        tags,
        response: { 200: summarySchema, ...errors },
      },
    },
    async () => dashboard.summary(),
  );

  app.get(
    '/dashboard/display',
    {
      onRequest: view,
      schema: { summary: 'The wall display: store name, low-stock alerts, stock by category, latest activity', tags, response: { 200: displaySchema, ...errors } },
    },
    async () => display.snapshot(),
  );
};
