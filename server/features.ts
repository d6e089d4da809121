// The one place server features meet: their routes under /api and their projections.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import type { Projection } from './eventstore/types.js';
import { clientConfigRoutes } from './accounts/client-config-routes.js';
import { meRoutes } from './auth/me-routes.js';
import type { PrincipalResolver } from './auth/principal.js';
import { cachePrincipals } from './auth/principal-cache.js';
import { accountsProjections, accountsRoutes, createAccountsPrincipalResolver } from './accounts/accounts-feature.js';
import { identityToolkitFor } from './accounts/firebase-accounts.js';
import { categoriesProjection } from './categories/projection.js';
import { itemsProjection } from './inventory/projection.js';
import { activityProjection } from './activity/projection.js';
import { idempotencyPlugin } from './http/idempotency.js';
import { ItemQueries } from './inventory/item-queries.js';
import { ItemService } from './inventory/item-service.js';
import { inventoryRoutes } from './inventory/routes.js';
import { stockRoutes } from './inventory/stock-routes.js';
import { StockQueries } from './inventory/stock-queries.js';
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
import { ImportService } from './import/import-service.js';
import { importRoutes } from './import/routes.js';
import { SettingsService } from './accounts/settings/settings-service.js';
import { webhooksProjection } from './webhooks/projection.js';
import { webhooksFeature } from './webhooks/webhooks-feature.js';
import { apiTokensProjection } from './api-tokens/projection.js';
import { apiTokensFeature } from './api-tokens/api-tokens-feature.js';
import { historyProjection } from './history/projection.js';
import { historyRoutes } from './history/routes.js';
import { RevertService } from './history/revert-service.js';
import { ChangesQueries } from './history/changes-queries.js';
import { AsOfQueries } from './history/as-of-queries.js';
import { AsOfDashboardQueries } from './history/as-of-dashboard.js';
import { stocktakeProjection } from './stocktake/projection.js';
import { StocktakeQueries } from './stocktake/stocktake-queries.js';
import { StocktakeService } from './stocktake/stocktake-service.js';
import { stocktakeRoutes } from './stocktake/routes.js';
import { sitesProjection } from './sites/projection.js';
import { SiteThresholdQueries } from './alerts/site-threshold-queries.js';
import { siteThresholdRoutes } from './alerts/site-threshold-routes.js';
import { SiteThresholdService } from './alerts/site-threshold-service.js';
import { PlaceQueries } from './sites/place-queries.js';
import { SiteService } from './sites/site-service.js';
import { LocationService } from './sites/location-service.js';
import { placeRoutes } from './sites/routes.js';
import { transfersProjection } from './transfers/projection.js';
import { TransferQueries } from './transfers/transfer-queries.js';
import { TransferService } from './transfers/transfer-service.js';
import { TransferUndo } from './transfers/transfer-undo.js';
import { transferRoutes } from './transfers/routes.js';

/** Stock-adjustment transactions in flight at once per process on PostgreSQL (see group-commit.ts). */
const ADJUST_LANES = 4;
const ADJUST_OVERLAP = 16;

/** Every projection, in the order they run for an event. */
export const projections: Projection[] = [
  // Accounts first: users, roles and settings read nothing from the others.
  ...accountsProjections,
  // Sites and locations before items: stock is kept per location (stock_levels, in the items projection).
  sitesProjection,
  // Categories before items (items copy the category name), activity last (it reads both).
  categoriesProjection,
  itemsProjection,
  // Item and category versions for as-of reads, and the reverts ledger (reads no other table).
  historyProjection,
  activityProjection,
  // Transfers between sites and their log entries (read items, sites and locations for names).
  transfersProjection,
  // Low-stock episodes and dismissals, then the dashboard's roll-ups (both read items rows).
  alertsProjection,
  dashboardProjection,
  webhooksProjection,
  apiTokensProjection,
  // Sessions, lines and counts; after activity and items (its log entries name both).
  stocktakeProjection,
];

export async function registerFeatures(api: FastifyInstance, ctx: AppContext): Promise<void> {
  await api.register(idempotencyPlugin, { db: ctx.database.db, ...ctx.config.idempotency });
  await api.register(clientConfigRoutes, { ctx });
  await api.register(meRoutes);
  await api.register(accountsRoutes, {
    store: ctx.store,
    auth: ctx.verifier.auth,
    identityToolkit: identityToolkitFor(ctx.config),
  });
  const queries = new ItemQueries(ctx.database.db, ctx.store);
  // PGlite runs one transaction at a time anyway: one lane makes its batches as large as they come.
  const items = new ItemService(ctx.store, queries, {
    lanes: ctx.database.kind === 'pglite' ? 1 : ADJUST_LANES,
    overlapAt: ADJUST_OVERLAP,
    clock: ctx.clock,
  });
  const asOf = new AsOfQueries(ctx.database.db);
  await api.register(inventoryRoutes, { items, queries, asOf });
  await api.register(stockRoutes, { items, stock: new StockQueries(ctx.database.db) });
  await api.register(categoryRoutes, { categories: new CategoryService(ctx.database.db, ctx.store), asOf });
  await api.register(activityRoutes, { activity: new ActivityQueries(ctx.database.db) });
  await api.register(alertRoutes, { alerts: new AlertService(ctx.store, new AlertQueries(ctx.database.db)) });
  const siteThresholdQueries = new SiteThresholdQueries(ctx.database.db);
  await api.register(siteThresholdRoutes, {
    thresholds: new SiteThresholdService(ctx.store, siteThresholdQueries),
    queries: siteThresholdQueries,
  });
  await api.register(dashboardRoutes, {
    dashboard: new DashboardQueries(ctx.database.db),
    display: new DisplayQueries(ctx.database.db),
    asOf: (at) => new AsOfDashboardQueries(ctx.database.db, at),
    moment: (raw) => asOf.moment(raw),
  });
  await api.register(historyRoutes, {
    // A transfer's steps are undone by the transfers feature, from the same Revert and Undo.
    reverts: new RevertService(ctx.store, [new TransferUndo(ctx.store)]),
    changes: new ChangesQueries(ctx.database.db),
    asOf,
  });
  await api.register(importRoutes, {
    imports: new ImportService(ctx.store),
    limits: ctx.config.import,
    settings: new SettingsService(ctx.store),
  });
  const stocktakeQueries = new StocktakeQueries(ctx.database.db);
  await api.register(stocktakeRoutes, {
    stocktakes: new StocktakeService(ctx.store, stocktakeQueries),
    queries: stocktakeQueries,
  });
  const places = new PlaceQueries(ctx.database.db);
  await api.register(placeRoutes, {
    sites: new SiteService(ctx.store, places),
    locations: new LocationService(ctx.store, places),
    queries: places,
  });
  const transferQueries = new TransferQueries(ctx.database.db);
  await api.register(transferRoutes, {
    transfers: new TransferService(ctx.store, transferQueries),
    queries: transferQueries,
  });
  await api.register(webhooksFeature, { ctx });
  await api.register(apiTokensFeature, { ctx });
  await api.register(realtimeRoutes, { ctx, resolvePrincipal: ctx.resolvePrincipal ?? createPrincipalResolver(ctx) });
}

const resolvers = new WeakMap<AppContext, PrincipalResolver>();

/**
 * How a verified token becomes a principal (role and permissions) for every request: from
 * the accounts feature's projections, kept in a per-process cache that the user, role and
 * settings events committed on any instance invalidate (it subscribes to their batches).
 * Routes that take a cached principal check it in their own statement
 * (auth/principal-cache.ts). One resolver per app, shared by the HTTP routes and the feed.
 */
export function createPrincipalResolver(ctx: AppContext): PrincipalResolver {
  let resolver = resolvers.get(ctx);
  if (!resolver) {
    resolver = cachePrincipals(createAccountsPrincipalResolver(ctx.store.db), {
      subscribe: (listener) => ctx.subscriptions.subscribe(listener),
    });
    resolvers.set(ctx, resolver);
  }
  return resolver;
}
