// Every route of the client as data: its path, the guard it sits behind, and the optional
// query parameters its screen reads. router.tsx builds the router from this table (a path
// missing here has no page there, and the reverse is a type error), and the Chromium test
// that opens every screen (tests/e2e/idle-requests.test.ts) reads it too, so a new route
// and its query parameters are covered by declaring them here. Plain data: no React, no
// browser globals, so tests can import it in Node.

import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places';

/**
 * Where a route sits: `open` for anyone, `signedOut` for the sign-in pages (they send a
 * signed-in user on), `signedIn` inside the signed-in shell, the three permission guards
 * inside the shell, and `standalone` for signed-in screens outside it (the wall display).
 */
export type RouteGroup =
  | 'open'
  | 'signedOut'
  | 'signedIn'
  | 'inventoryManage'
  | 'stocktakes'
  | 'usersManage'
  | 'settingsManage'
  | 'standalone';

/**
 * An example value for a path or query parameter: text, where `{item}`, `{category}`,
 * `{stocktake}` stand for a real id of that kind and `{moment}` for a past moment (ISO).
 */
export type RouteExample = string;

export interface AppRoute {
  readonly path: string;
  readonly group: RouteGroup;
  /** An example for each `:param` of the path. */
  readonly params?: Readonly<Record<string, RouteExample>>;
  /** The optional query parameters the screen reads, each with one example or several. */
  readonly query?: Readonly<Record<string, RouteExample | readonly RouteExample[]>>;
}

/** Main store and its location (shared/places.ts), written out: this table imports nothing. */
const MAIN_SITE = '00000000-0000-4000-8000-000000000001';
const MAIN_LOCATION = '00000000-0000-4000-8000-000000000002';

export const APP_ROUTES = [
  { path: '/', group: 'open' },
  { path: '/login', group: 'signedOut' },
  { path: '/register', group: 'signedOut' },
  { path: '/auth/callback', group: 'open' },
  { path: '/dashboard', group: 'signedIn', query: { asOf: '{moment}' } },
  // ?barcode= is the scanner's unknown-code search; ?siteId=&locationId= the list at a place
  // (Main store and Main location, which every store has).
  {
    path: '/inventory',
    group: 'signedIn',
    query: {
      asOf: '{moment}',
      barcode: '4006381333931',
      siteId: MAIN_SITE_ID,
      locationId: MAIN_LOCATION_ID,
    },
  },
  {
    path: '/inventory/category/:categoryId',
    group: 'signedIn',
    params: { categoryId: '{category}' },
    query: { asOf: '{moment}' },
  },
  // ?site= or ?location=: labels of locations (a site's, or a location and those inside it);
  // the examples are Main store and its location, which every store has (shared/places.ts).
  {
    path: '/inventory/labels',
    group: 'signedIn',
    query: { category: '{category}', items: '{item}', site: MAIN_SITE, location: MAIN_LOCATION },
  },
  // Without ?from= the report starts a week back, fixed once (a default that moved with
  // every render made the page ask the server again and again).
  { path: '/inventory/changes', group: 'signedIn', query: { from: '{moment}', to: '{moment}' } },
  { path: '/inventory/:id', group: 'signedIn', params: { id: '{item}' }, query: { asOf: '{moment}' } },
  { path: '/alerts', group: 'signedIn' },
  {
    path: '/settings',
    group: 'signedIn',
    query: { tab: ['general', 'notifications', 'appearance', 'permissions', 'integrations'] },
  },
  { path: '/profile', group: 'signedIn' },
  { path: '/activity', group: 'signedIn', query: { siteId: MAIN_SITE, locationId: MAIN_LOCATION } },
  // Transfers between sites: everyone who sees stock reads them; the pages offer the steps
  // (and the form) to those who may update stock.
  { path: '/transfers', group: 'signedIn' },
  { path: '/transfers/new', group: 'signedIn' },
  // An id that names no transfer: its page says so.
  { path: '/transfers/:id', group: 'signedIn', params: { id: '00000000-0000-4000-8000-000000000000' } },
  { path: '/outbox', group: 'signedIn' },
  { path: '/inventory/add', group: 'inventoryManage', query: { barcode: '4006381333931' } },
  { path: '/inventory/import', group: 'inventoryManage' },
  { path: '/inventory/:id/edit', group: 'inventoryManage', params: { id: '{item}' } },
  { path: '/stocktake', group: 'stocktakes' },
  { path: '/stocktake/:id', group: 'stocktakes', params: { id: '{stocktake}' } },
  { path: '/users', group: 'usersManage' },
  { path: '/roles', group: 'usersManage' },
  // Sites and locations, under Setup (its dock entry stays lit here).
  { path: '/settings/places', group: 'settingsManage' },
  { path: '/display', group: 'standalone' },
  { path: '*', group: 'open' },
] as const satisfies readonly AppRoute[];

export type AppPath = (typeof APP_ROUTES)[number]['path'];

/** The routes of one group, in table order. */
export function routesIn(group: RouteGroup): AppRoute[] {
  return (APP_ROUTES as readonly AppRoute[]).filter((route) => route.group === group);
}
