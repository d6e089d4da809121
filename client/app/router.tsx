// Every route of the app (route-table.ts lists them). The landing page, the sign-in pages
// and the signed-in app are separate chunks: a visitor on / downloads neither Firebase nor
// the signed-in app.
// Guards: signed-in routes sit under the signed-in app (redirect to /login); manager
// routes check permissions (redirect to /dashboard, or 'Access Denied' on /users, /roles,
// /settings/places).
import type { ComponentType, ReactElement } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { SEE_STOCKTAKES } from '../../shared/permissions';
import { wasSignedIn } from '../lib/auth-hint';
import { earlyReadsParsed, readEarly } from '../lib/first-data';
import { firstScreenReads } from './first-screen-data';
import { readWarmToken, warmStartChecked } from './warm-start';
import { lazyPage, preloadPage } from './lazy-page';
import { NotFoundPage } from './not-found-page';
import { RequirePermission } from './require-permission';
import { routesIn, type AppPath, type RouteGroup } from './route-table';

// The inventory screens load one by one: the Category page on a phone should not wait for
// the add wizard's or the changes report's code.
const inventoryPage = () => import('../features/inventory/components/inventory-page');
const categoryPage = () => import('../features/inventory/components/category-page');
const itemPage = () => import('../features/inventory/components/item-detail-page');
const addItemPage = () => import('../features/inventory/components/add-item-page');
const editItemPage = () => import('../features/inventory/components/edit-item-page');
const changesPage = () => import('../features/inventory/components/changes-page');
const auth = () => import('./auth-pages');
const dashboard = () => import('../features/dashboard/pages');
const alerts = () => import('../features/alerts/pages');
const settings = () => import('../features/settings/pages');
const profile = () => import('./profile-route');
const activity = () => import('./activity-route');
const users = () => import('../features/users/pages');
const roles = () => import('../features/roles/pages');
const places = () => import('../features/places/pages');
const transfers = () => import('../features/transfers/pages');
const csvImport = () => import('../features/import/pages');
const labels = () => import('../features/labels/pages');
const stocktake = () => import('./stocktake-route');
const signedInApp = () => import('./signed-in-app');

// The first screen's chunk starts downloading with the app. Left to the router, a signed-in
// page would ask for it only once Firebase and the session call were done: one more round
// trip before anything useful shows (Lighthouse's LCP on a phone).
const FIRST_SCREEN: [RegExp, () => Promise<Record<string, ComponentType>>][] = [
  [/^\/dashboard\/?$/, dashboard],
  [/^\/inventory\/?$/, inventoryPage],
  [/^\/inventory\/category\//, categoryPage],
  [/^\/inventory\/changes\/?$/, changesPage],
  [/^\/inventory\/add\/?$/, addItemPage],
  [/^\/inventory\/[^/]+\/edit\/?$/, editItemPage],
  [/^\/inventory\/(?!labels|import)[^/]+\/?$/, itemPage],
  [/^\/alerts\/?$/, alerts],
  [/^\/settings\/?$/, settings],
  [/^\/profile\/?$/, profile],
  [/^\/activity\/?$/, activity],
  [/^\/users\/?$/, users],
  [/^\/roles\/?$/, roles],
  [/^\/settings\/places\/?$/, places],
  [/^\/transfers(\/|$)/, transfers],
  [/^\/stocktake(\/|$)/, stocktake],
];
const firstScreen = FIRST_SCREEN.find(([path]) => path.test(window.location.pathname));

// The first screen's data is asked for now too, when a returning user's stored token allows it.
const reads = wasSignedIn() ? firstScreenReads(window.location.pathname, window.location.search) : [];
if (reads.length) {
  const token = readWarmToken().then((warm) => warm?.token ?? null);
  for (const read of reads) readEarly(read, token);
}

/**
 * The first screen's code (with the signed-in shell around it) has arrived. main.tsx shows
 * the loading screen until then and mounts the router after: mounted earlier, the router
 * would suspend on the shell's chunk, and React holds back the content that replaces a
 * Suspense fallback for up to 300 ms after the fallback showed (on a phone, time the first
 * screen could have been on view). With its data too, when it was asked early: the
 * screen's first render is then the screen with its data (see takeEarlyJson), not a loading
 * state and then a second render and layout.
 */
export const firstScreenLoaded: Promise<void> | null = firstScreen
  ? Promise.all([preloadPage(signedInApp), preloadPage(firstScreen[1]), warmStartChecked, earlyReadsParsed()]).then(
      () => undefined,
    )
  : null;

// Firebase is set up from /api/client-config once its chunk has arrived; asking now saves
// that round trip. Only where a session is loaded: a first-time visitor on / never needs it.
if (window.location.pathname !== '/' || wasSignedIn()) {
  const preload = document.createElement('link');
  preload.rel = 'preload';
  preload.as = 'fetch';
  preload.href = '/api/client-config';
  preload.crossOrigin = 'anonymous'; // as fetch() asks: cors mode, same-origin credentials
  document.head.appendChild(preload);
}

// Each path of the route table (route-table.ts) and its page: a path added there without a
// page here, or here without the table, does not compile.
const PAGES: Record<AppPath, ReactElement> = {
  '/': lazyPage(() => import('./landing-route'), 'LandingRoute'),
  '/login': lazyPage(auth, 'LoginRoute'),
  '/register': lazyPage(auth, 'RegisterRoute'),
  '/auth/callback': lazyPage(auth, 'AuthCallbackRoute'),
  '/dashboard': lazyPage(dashboard, 'DashboardPage'),
  '/inventory': lazyPage(inventoryPage, 'InventoryPage'),
  '/inventory/category/:categoryId': lazyPage(categoryPage, 'CategoryPage'),
  '/inventory/labels': lazyPage(labels, 'LabelsPage'),
  '/inventory/changes': lazyPage(changesPage, 'ChangesPage'),
  '/inventory/:id': lazyPage(itemPage, 'ItemDetailPage'),
  '/alerts': lazyPage(alerts, 'AlertsPage'),
  '/settings': lazyPage(settings, 'SettingsPage'),
  '/profile': lazyPage(profile, 'ProfileRoute'),
  '/activity': lazyPage(activity, 'ActivityRoute'),
  '/transfers': lazyPage(transfers, 'TransfersPage'),
  '/transfers/new': lazyPage(transfers, 'NewTransferPage'),
  '/transfers/:id': lazyPage(transfers, 'TransferDetailPage'),
  '/outbox': lazyPage(() => import('../offline/outbox-page'), 'OutboxPage'),
  '/inventory/add': lazyPage(addItemPage, 'AddItemPage'),
  '/inventory/import': lazyPage(csvImport, 'ImportPage'),
  '/inventory/:id/edit': lazyPage(editItemPage, 'EditItemPage'),
  '/stocktake': lazyPage(stocktake, 'StocktakeListRoute'),
  '/stocktake/:id': lazyPage(stocktake, 'StocktakeSessionRoute'),
  '/users': lazyPage(users, 'UsersPage'),
  '/roles': lazyPage(roles, 'RolesPage'),
  '/settings/places': lazyPage(places, 'PlacesPage'),
  // The wall display: signed in (any account or a guest), but outside the shell.
  '/display': lazyPage(() => import('./display-route'), 'DisplayRoute'),
  '*': <NotFoundPage />,
};

const pagesOf = (group: RouteGroup): RouteObject[] =>
  routesIn(group).map(({ path }) => ({ path, element: PAGES[path as AppPath] }));

const routes: RouteObject[] = [
  ...pagesOf('open'),
  { element: lazyPage(auth, 'PublicOnly'), children: pagesOf('signedOut') },
  {
    element: lazyPage(signedInApp, 'SignedInApp'),
    children: [
      ...pagesOf('signedIn'),
      {
        element: <RequirePermission permission="inventory:manage" otherwise="redirect" />,
        children: pagesOf('inventoryManage'),
      },
      { element: <RequirePermission permission={SEE_STOCKTAKES} otherwise="deny" />, children: pagesOf('stocktakes') },
      { element: <RequirePermission permission="users:manage" otherwise="deny" />, children: pagesOf('usersManage') },
      {
        element: <RequirePermission permission="settings:manage" otherwise="deny" />,
        children: pagesOf('settingsManage'),
      },
    ],
  },
  ...pagesOf('standalone'),
];

/**
 * The routes, matched by the declarative router: no route uses loaders, actions or blockers,
 * so the data router (createBrowserRouter, about 50 KB of the first bundle) is not needed.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
