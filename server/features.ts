// The one place server features meet: their routes under /api and their projections.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app.js';
import type { Projection } from './eventstore/types.js';
import { meRoutes } from './auth/me-routes.js';
import type { PrincipalResolver } from './auth/principal.js';
import { accountsProjections, accountsRoutes, createAccountsPrincipalResolver } from './accounts/accounts-feature.js';
import { categoriesProjection } from './categories/projection.js';
import { itemsProjection } from './inventory/projection.js';
import { activityProjection } from './activity/projection.js';
import { idempotencyPlugin } from './http/idempotency.js';
import { ItemQueries } from './inventory/item-queries.js';
import { ItemService } from './inventory/item-service.js';
import { inventoryRoutes } from './inventory/routes.js';
import { CategoryService } from './categories/category-service.js';
import { categoryRoutes } from './categories/routes.js';
import { ActivityQueries } from './activity/activity-queries.js';
import { activityRoutes } from './activity/routes.js';
import { realtimeRoutes } from './realtime/realtime-routes.js';
import { alertsProjection } from './alerts/projection.js';
import { AlertQueries } from './alerts/alert-queries.js';
import { AlertService } from './alerts/alert-service.js';
import { alertRoutes } from './alerts/routes.js';
import { dashboardProjection } from './dashboard/projection.js';
import { DashboardQueries } from './dashboard/dashboard-queries.js';
import { DisplayQueries } from './dashboard/display-queries.js';
import { dashboardRoutes } from './dashboard/routes.js';

/** Every projection, in the order they run for an event. */
export const projections: Projection[] = [
  // Accounts first: users, roles and settings read nothing from the others.
  ...accountsProjections,
  // Categories before items (items copy the category name), activity last (it reads both).
  categoriesProjection,
  itemsProjection,
  activityProjection,
  // Low-stock episodes and dismissals, then the dashboard's roll-ups (both read items rows).
  alertsProjection,
  dashboardProjection,
];

export async function registerFeatures(api: FastifyInstance, ctx: AppContext): Promise<void> {
  await api.register(idempotencyPlugin, { db: ctx.database.db });
  await api.register(meRoutes);
  await api.register(accountsRoutes, { store: ctx.store, auth: ctx.verifier.auth });
  const queries = new ItemQueries(ctx.database.db, ctx.store);
  await api.register(inventoryRoutes, { items: new ItemService(ctx.store, queries), queries });
  await api.register(categoryRoutes, { categories: new CategoryService(ctx.database.db, ctx.store) });
  await api.register(activityRoutes, { activity: new ActivityQueries(ctx.database.db) });
  await api.register(alertRoutes, { alerts: new AlertService(ctx.store, new AlertQueries(ctx.database.db)) });
  await api.register(dashboardRoutes, { dashboard: new DashboardQueries(ctx.database.db), display: new DisplayQueries(ctx.database.db) });
  await api.register(realtimeRoutes, { ctx, resolvePrincipal: ctx.resolvePrincipal ?? createPrincipalResolver(ctx) });
}

/** How a verified token becomes a principal (role and permissions) for every request. */
export function createPrincipalResolver(ctx: AppContext): PrincipalResolver {
  // Role and status from the accounts feature's users projection, read on every request.
  return createAccountsPrincipalResolver(ctx.store.db);
}
