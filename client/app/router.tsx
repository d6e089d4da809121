// Every route of spec section 2. The landing page, the sign-in pages and the signed-in app
// are separate chunks: a visitor on / downloads neither Firebase nor the signed-in app.
// Guards: signed-in routes sit under the signed-in app (redirect to /login); manager
// routes check permissions (redirect to /dashboard, or 'Access Denied' on /users, /roles).
import type { ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { SEE_STOCKTAKES } from '../../shared/permissions';
import { wasSignedIn } from '../lib/auth-hint';
import { earlyReadsParsed, readEarly } from '../lib/first-data';
import { firstScreenReads } from './first-screen-data';
import { readWarmToken, warmStartChecked } from './warm-start';
import { lazyPage, preloadPage } from './lazy-page';
import { NotFoundPage } from './not-found-page';
import { RequirePermission } from './require-permission';

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
  ? Promise.all([preloadPage(signedInApp), preloadPage(firstScreen[1]), warmStartChecked, earlyReadsParsed()]).then(() => undefined)
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

const routes: RouteObject[] = [
  { path: '/', element: lazyPage(() => import('./landing-route'), 'LandingRoute') },
  {
    element: lazyPage(auth, 'PublicOnly'),
    children: [
      { path: '/login', element: lazyPage(auth, 'LoginRoute') },
      { path: '/register', element: lazyPage(auth, 'RegisterRoute') },
    ],
  },
  { path: '/auth/callback', element: lazyPage(auth, 'AuthCallbackRoute') },
  {
    element: lazyPage(signedInApp, 'SignedInApp'),
    children: [
      { path: '/dashboard', element: lazyPage(dashboard, 'DashboardPage') },
      { path: '/inventory', element: lazyPage(inventoryPage, 'InventoryPage') },
      { path: '/inventory/category/:categoryId', element: lazyPage(categoryPage, 'CategoryPage') },
      { path: '/inventory/labels', element: lazyPage(labels, 'LabelsPage') },
      { path: '/inventory/changes', element: lazyPage(changesPage, 'ChangesPage') },
      { path: '/inventory/:id', element: lazyPage(itemPage, 'ItemDetailPage') },
      { path: '/alerts', element: lazyPage(alerts, 'AlertsPage') },
      { path: '/settings', element: lazyPage(settings, 'SettingsPage') },
      { path: '/profile', element: lazyPage(profile, 'ProfileRoute') },
      { path: '/activity', element: lazyPage(activity, 'ActivityRoute') },
      { path: '/outbox', element: lazyPage(() => import('../offline/outbox-page'), 'OutboxPage') },
      {
        element: <RequirePermission permission="inventory:manage" otherwise="redirect" />,
        children: [
          { path: '/inventory/add', element: lazyPage(addItemPage, 'AddItemPage') },
          { path: '/inventory/import', element: lazyPage(csvImport, 'ImportPage') },
          { path: '/inventory/:id/edit', element: lazyPage(editItemPage, 'EditItemPage') },
        ],
      },
      {
        element: <RequirePermission permission={SEE_STOCKTAKES} otherwise="deny" />,
        children: [
          { path: '/stocktake', element: lazyPage(stocktake, 'StocktakeListRoute') },
          { path: '/stocktake/:id', element: lazyPage(stocktake, 'StocktakeSessionRoute') },
        ],
      },
      {
        element: <RequirePermission permission="users:manage" otherwise="deny" />,
        children: [
          { path: '/users', element: lazyPage(users, 'UsersPage') },
          { path: '/roles', element: lazyPage(roles, 'RolesPage') },
        ],
      },
    ],
  },
  // The wall display: signed in (any account or a guest), but outside the shell.
  { path: '/display', element: lazyPage(() => import('./display-route'), 'DisplayRoute') },
  { path: '*', element: <NotFoundPage /> },
];

/**
 * The routes, matched by the declarative router: no route uses loaders, actions or blockers,
 * so the data router (createBrowserRouter, about 50 KB of the first bundle) is not needed.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
