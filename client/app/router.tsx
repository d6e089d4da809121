// Every route of spec section 2. The landing page, the sign-in pages and the signed-in app
// are separate chunks: a visitor on / downloads neither Firebase nor the signed-in app.
// Guards: signed-in routes sit under the signed-in app (redirect to /login); manager
// routes check permissions (redirect to /dashboard, or 'Access Denied' on /users, /roles).
import { createBrowserRouter } from 'react-router-dom';
import { lazyPage } from './lazy-page';
import { NotFoundPage } from './not-found-page';
import { RequirePermission } from './require-permission';

const inventory = () => import('../features/inventory/pages');
const auth = () => import('./auth-pages');
const dashboard = () => import('../features/dashboard/pages');
const alerts = () => import('../features/alerts/pages');

export const router = createBrowserRouter([
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
    element: lazyPage(() => import('./signed-in-app'), 'SignedInApp'),
    children: [
      { path: '/dashboard', element: lazyPage(dashboard, 'DashboardPage') },
      { path: '/inventory', element: lazyPage(inventory, 'InventoryPage') },
      { path: '/inventory/category/:categoryId', element: lazyPage(inventory, 'CategoryPage') },
      { path: '/inventory/:id', element: lazyPage(inventory, 'ItemDetailPage') },
      { path: '/alerts', element: lazyPage(alerts, 'AlertsPage') },
      { path: '/settings', element: lazyPage(() => import('../features/settings/pages'), 'SettingsPage') },
      { path: '/profile', element: lazyPage(() => import('./profile-route'), 'ProfileRoute') },
      { path: '/activity', element: lazyPage(() => import('./activity-route'), 'ActivityRoute') },
      {
        element: <RequirePermission permission="inventory:manage" otherwise="redirect" />,
        children: [
          { path: '/inventory/add', element: lazyPage(inventory, 'AddItemPage') },
          { path: '/inventory/:id/edit', element: lazyPage(inventory, 'EditItemPage') },
        ],
      },
      {
        element: <RequirePermission permission="users:manage" otherwise="deny" />,
        children: [
          { path: '/users', element: lazyPage(() => import('../features/users/pages'), 'UsersPage') },
          { path: '/roles', element: lazyPage(() => import('../features/roles/pages'), 'RolesPage') },
        ],
      },
    ],
  },
  // The wall display: signed in (any account or a guest), but outside the shell.
  { path: '/display', element: lazyPage(() => import('./display-route'), 'DisplayRoute') },
  { path: '*', element: <NotFoundPage /> },
]);
