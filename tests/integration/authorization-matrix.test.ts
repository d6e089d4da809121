// The authorization matrix: every /api route of the app, called with no token, an expired
// token, a token for another project, and as guest, staff and manager (real emulator
// accounts), each with the status it must get. Routes are read from the running Fastify
// app, so a route added without an entry here fails this test, and so does an entry whose
// route is gone.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_LOCATION_ID, MAIN_SITE_ID } from '../../shared/places.js';
import { CLOSE_CODES } from '../../shared/realtime.js';
import { backends } from '../helpers/backends.js';
import { forgeToken, uniqueEmail } from '../helpers/emulator-accounts.js';
import { connectFeed } from '../helpers/feed-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { cast, type SignedIn } from './accounts-fixtures.js';

const CALLERS = ['none', 'expired', 'otherProject', 'guest', 'staff', 'manager'] as const;
type Caller = (typeof CALLERS)[number];

interface Fixtures {
  itemId: string;
  categoryId: string;
  /** Ids that name nothing: a request allowed through gets 404. */
  missingUuid: string;
  missingUid: string;
  missingRole: string;
}

interface Entry {
  /** Expected status per signed-in caller (the three bad tokens always expect 401 unless public). */
  guest: number;
  staff: number;
  manager: number;
  public?: boolean;
  /** The path to call, when the route has parameters or needs a query. */
  path?: (f: Fixtures) => string;
  body?: (f: Fixtures) => unknown;
  /** The WebSocket feed: judged by the first message or the close code. */
  ws?: boolean;
}

const unique = () => randomUUID().slice(0, 8);
const everyone = (status: number): Pick<Entry, 'guest' | 'staff' | 'manager'> => ({
  guest: status,
  staff: status,
  manager: status,
});
const managersOnly = (status: number): Pick<Entry, 'guest' | 'staff' | 'manager'> => ({
  guest: 403,
  staff: 403,
  manager: status,
});

/** Keyed by "METHOD /api/path" exactly as Fastify declares the route. */
const MATRIX: Record<string, Entry> = {
  // Public
  'GET /api/health': { ...everyone(200), public: true },
  'GET /api/client-config': { ...everyone(200), public: true },
  // The API reference: the page, its own files, and the document as JSON and YAML.
  'GET /api/docs': { ...everyone(200), public: true },
  'GET /api/docs/': { ...everyone(200), public: true },
  'GET /api/docs/json': { ...everyone(200), public: true },
  'GET /api/docs/yaml': { ...everyone(200), public: true },
  'GET /api/docs/static/theme/stockroom.css': { ...everyone(200), public: true },
  'GET /api/docs/static/theme/stockroom-theme.js': { ...everyone(200), public: true },
  // A redirect to the page itself (followed: 200).
  'GET /api/docs/static/index.html': { ...everyone(200), public: true },
  'GET /api/docs/static/swagger-initializer.js': { ...everyone(200), public: true },
  'GET /api/docs/*': { ...everyone(200), public: true, path: () => '/api/docs/static/swagger-ui.css' },

  // Who am I
  'GET /api/me': everyone(200),
  'POST /api/session': { ...everyone(200), body: () => ({}) },

  // Accounts: users, roles, settings and the session
  'GET /api/users': managersOnly(200),
  'POST /api/users': {
    ...managersOnly(201),
    body: () => ({ name: 'Matrix Person', email: uniqueEmail('matrix'), password: 'secret123', role: 'staff' }),
  },
  'PUT /api/users/:id/role': {
    ...managersOnly(404),
    path: (f) => `/api/users/${f.missingUid}/role`,
    body: () => ({ role: 'staff' }),
  },
  'PUT /api/users/:id/site-roles': {
    ...managersOnly(404),
    path: (f) => `/api/users/${f.missingUid}/site-roles`,
    body: () => ({ siteRoles: [{ siteId: MAIN_SITE_ID, role: 'staff' }] }),
  },
  'POST /api/users/:id/disable': { ...managersOnly(404), path: (f) => `/api/users/${f.missingUid}/disable` },
  'POST /api/users/:id/enable': { ...managersOnly(404), path: (f) => `/api/users/${f.missingUid}/enable` },
  'POST /api/users/:id/manager-request/approve': {
    ...managersOnly(404),
    path: (f) => `/api/users/${f.missingUid}/manager-request/approve`,
  },
  'POST /api/users/:id/manager-request/reject': {
    ...managersOnly(404),
    path: (f) => `/api/users/${f.missingUid}/manager-request/reject`,
  },
  'GET /api/roles': everyone(200),
  'POST /api/roles': {
    ...managersOnly(201),
    body: () => ({
      name: `Matrix ${unique()}`,
      description: 'Made by the matrix test',
      permissions: ['inventory:view'],
    }),
  },
  'PUT /api/roles/:id': {
    ...managersOnly(404),
    path: (f) => `/api/roles/${f.missingRole}`,
    body: () => ({ name: `Matrix ${unique()}`, description: 'Edited', permissions: ['inventory:view'] }),
  },
  'DELETE /api/roles/:id': { ...managersOnly(404), path: (f) => `/api/roles/${f.missingRole}` },
  'GET /api/settings': everyone(200),
  'PUT /api/settings': { ...managersOnly(200), body: () => ({ storeName: 'Matrix Store' }) },
  'GET /api/profile': everyone(200),
  // Guests have no profile to edit (no View personal profile).
  'PUT /api/profile': { guest: 403, staff: 200, manager: 200, body: () => ({ name: `Matrix ${unique()}` }) },
  'PUT /api/profile/preferences': { ...everyone(200), body: () => ({ browserNotifications: true }) },

  // Inventory: guests read, staff create and adjust, managers everything.
  'GET /api/inventory': everyone(200),
  'POST /api/inventory': {
    guest: 403,
    staff: 201,
    manager: 201,
    body: (f) => ({
      name: 'Matrix item',
      sku: `MX-${unique()}`,
      category_id: f.categoryId,
      quantity: 3,
      price: 1.5,
      threshold: 1,
    }),
  },
  'GET /api/inventory/low-stock': everyone(200),
  'GET /api/inventory/search': { ...everyone(200), path: () => '/api/inventory/search?q=matrix' },
  // Exports are never for guests: a copy of the store leaves with no one anonymous.
  'GET /api/inventory/export.csv': { ...everyone(200), guest: 403 },
  // A code no item carries: anyone who may read items gets the lookup's 404.
  'GET /api/inventory/by-barcode/:code': { ...everyone(404), path: () => '/api/inventory/by-barcode/4006381333931' },
  'GET /api/inventory/:id': { ...everyone(200), path: (f) => `/api/inventory/${f.itemId}` },
  'PUT /api/inventory/:id': {
    ...managersOnly(200),
    path: (f) => `/api/inventory/${f.itemId}`,
    body: () => ({ description: `Edited ${unique()}` }),
  },
  'DELETE /api/inventory/:id': { ...managersOnly(404), path: (f) => `/api/inventory/${f.missingUuid}` },
  'POST /api/inventory/:id/adjust': {
    guest: 403,
    staff: 200,
    manager: 200,
    path: (f) => `/api/inventory/${f.itemId}/adjust`,
    body: () => ({ delta: 1, reason: 'restock' }),
  },
  'GET /api/inventory/:id/history': { ...everyone(200), path: (f) => `/api/inventory/${f.itemId}/history` },
  'GET /api/inventory/:id/locations': { ...everyone(200), path: (f) => `/api/inventory/${f.itemId}/locations` },
  // Per-site thresholds: anyone may read them; setting one is Manage inventory at that site.
  // A site that names nothing is the manager's 404.
  'GET /api/inventory/:id/site-thresholds': {
    ...everyone(200),
    path: (f) => `/api/inventory/${f.itemId}/site-thresholds`,
  },
  'PUT /api/inventory/:id/site-thresholds/:siteId': {
    ...managersOnly(404),
    path: (f) => `/api/inventory/${f.itemId}/site-thresholds/${f.missingUuid}`,
    body: () => ({ threshold: 2 }),
  },
  'DELETE /api/inventory/:id/site-thresholds/:siteId': {
    ...managersOnly(404),
    path: (f) => `/api/inventory/${f.itemId}/site-thresholds/${f.missingUuid}`,
  },
  // Moves need Update stock levels; a location that names nothing is 422 for anyone allowed.
  'POST /api/moves': {
    guest: 403,
    staff: 422,
    manager: 422,
    body: (f) => ({ itemId: f.itemId, fromLocationId: f.missingUuid, toLocationId: randomUUID(), quantity: 1 }),
  },
  'GET /api/categories': everyone(200),
  'POST /api/categories': { guest: 403, staff: 201, manager: 201, body: () => ({ name: `Matrix ${unique()}` }) },
  'GET /api/categories/:id': { ...everyone(200), path: (f) => `/api/categories/${f.categoryId}` },
  'PUT /api/categories/:id': {
    ...managersOnly(200),
    path: (f) => `/api/categories/${f.categoryId}`,
    body: () => ({ description: `Edited ${unique()}` }),
  },
  'DELETE /api/categories/:id': { ...managersOnly(404), path: (f) => `/api/categories/${f.missingUuid}` },
  'GET /api/categories/:id/items': { ...everyone(200), path: (f) => `/api/categories/${f.categoryId}/items` },
  'GET /api/activity': everyone(200),
  'GET /api/activity.csv': { ...everyone(200), guest: 403 },

  // Dashboard, wall display and alerts: View reports, which guests have too.
  'GET /api/dashboard': everyone(200),
  'GET /api/dashboard/display': everyone(200),
  'GET /api/alerts': everyone(200),
  // Dismissals and alert choices are each user's own; a missing item is 404 for anyone allowed.
  'POST /api/alerts/:itemId/dismiss': { ...everyone(404), path: (f) => `/api/alerts/${f.missingUuid}/dismiss` },
  'POST /api/alerts/:itemId/restore': { ...everyone(404), path: (f) => `/api/alerts/${f.missingUuid}/restore` },
  'GET /api/alerts/settings': everyone(200),
  'PUT /api/alerts/settings': { ...everyone(200), body: () => ({ inAppToasts: true, notifyWhen: 'out' }) },

  // The realtime feed: the HTTP upgrade is public, the token comes in the first message.
  'GET /api/ws': { ...everyone(200), ws: true },
  // CSV import: managers (inventory create and manage).
  'POST /api/inventory/import/dry-run': {
    ...managersOnly(200),
    body: () => ({ fileName: 'matrix.csv', columns: ['name'], rows: [{ row: 2, cells: ['Matrix thing'] }] }),
  },
  'POST /api/inventory/import/categories': {
    ...managersOnly(200),
    body: () => ({ importId: randomUUID(), fileName: 'matrix.csv', names: [`Matrix ${unique()}`] }),
  },
  'POST /api/inventory/import/commit': {
    ...managersOnly(200),
    body: () => ({
      importId: randomUUID(),
      fileName: 'matrix.csv',
      columns: ['name'],
      rows: [{ row: 2, problem: 'Unterminated quote' }],
    }),
  },

  // History: anyone who reads the inventory sees the store as it was and what changed.
  'GET /api/history/change-at': {
    ...everyone(200),
    path: (f) => `/api/history/change-at?streamId=item-${f.itemId}&version=1`,
  },
  'GET /api/history/change-of-write': {
    ...everyone(404),
    path: () => '/api/history/change-of-write?key=matrix-no-such-write',
  },
  'GET /api/history/counts': everyone(200),
  'GET /api/changes': {
    ...everyone(200),
    path: () => `/api/changes?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  },
  'GET /api/changes/export.csv': {
    ...everyone(200),
    guest: 403,
    path: () => `/api/changes/export.csv?from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
  },
  'GET /api/events/:eventId/revert': { ...everyone(404), path: (f) => `/api/events/${f.missingUuid}/revert` },
  'POST /api/events/:eventId/revert': {
    ...everyone(404),
    path: (f) => `/api/events/${f.missingUuid}/revert`,
    body: () => ({}),
  },

  // Integrations (webhooks and API tokens): managers only; an id that names nothing is 404.
  'GET /api/webhooks': managersOnly(200),
  'GET /api/webhooks/payload-schema': managersOnly(200),
  'POST /api/webhooks': { ...managersOnly(201), body: () => ({ url: 'http://127.0.0.1:9/matrix', eventTypes: ['*'] }) },
  'GET /api/webhooks/:id': { ...managersOnly(404), path: (f) => `/api/webhooks/${f.missingUuid}` },
  'PATCH /api/webhooks/:id': {
    ...managersOnly(404),
    path: (f) => `/api/webhooks/${f.missingUuid}`,
    body: () => ({ enabled: false }),
  },
  'DELETE /api/webhooks/:id': { ...managersOnly(404), path: (f) => `/api/webhooks/${f.missingUuid}` },
  'GET /api/webhooks/:id/deliveries': {
    ...managersOnly(404),
    path: (f) => `/api/webhooks/${f.missingUuid}/deliveries`,
  },
  'POST /api/webhooks/:id/test': {
    ...managersOnly(404),
    path: (f) => `/api/webhooks/${f.missingUuid}/test`,
    body: () => ({}),
  },
  'POST /api/webhooks/:id/replay': {
    ...managersOnly(404),
    path: (f) => `/api/webhooks/${f.missingUuid}/replay`,
    body: () => ({ from: new Date().toISOString() }),
  },
  'GET /api/tokens': managersOnly(200),
  'POST /api/tokens': {
    ...managersOnly(201),
    body: () => ({
      name: `Matrix ${unique()}`,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      permissions: ['inventory:view'],
    }),
  },
  'DELETE /api/tokens/:id': { ...managersOnly(404), path: (f) => `/api/tokens/${f.missingUuid}` },

  // Stocktakes: staff see sessions and count; Run stocktakes (managers) starts and approves.
  'GET /api/stocktakes': { guest: 403, staff: 200, manager: 200 },
  'POST /api/stocktakes': { ...managersOnly(201), body: (f) => ({ scope: 'category', categoryId: f.categoryId }) },
  'GET /api/stocktakes/:id': { guest: 403, staff: 404, manager: 404, path: (f) => `/api/stocktakes/${f.missingUuid}` },
  'POST /api/stocktakes/:id/counts': {
    guest: 403,
    staff: 404,
    manager: 404,
    path: (f) => `/api/stocktakes/${f.missingUuid}/counts`,
    body: (f) => ({ itemId: f.itemId, counted: 1, countedAt: new Date().toISOString() }),
  },
  'POST /api/stocktakes/:id/lines/:itemId/approve': {
    ...managersOnly(404),
    path: (f) => `/api/stocktakes/${f.missingUuid}/lines/${f.itemId}/approve`,
    body: () => ({}),
  },
  'POST /api/stocktakes/:id/approve': {
    ...managersOnly(404),
    path: (f) => `/api/stocktakes/${f.missingUuid}/approve`,
    body: () => ({}),
  },
  // Sites and locations: whoever sees stock reads them (guests too); Manage settings manages them.
  'GET /api/sites': everyone(200),
  'POST /api/sites': {
    ...managersOnly(201),
    body: () => ({ name: `Matrix site ${unique()}`, code: `MX${unique()}`, time_zone: 'UTC' }),
  },
  'GET /api/sites/:id': { ...everyone(200), path: () => `/api/sites/${MAIN_SITE_ID}` },
  'PATCH /api/sites/:id': {
    ...managersOnly(200),
    path: () => `/api/sites/${MAIN_SITE_ID}`,
    body: () => ({ address: `${unique()} Matrix Road` }),
  },
  'POST /api/sites/:id/archive': { ...managersOnly(404), path: (f) => `/api/sites/${f.missingUuid}/archive` },
  'POST /api/sites/:id/restore': { ...managersOnly(404), path: (f) => `/api/sites/${f.missingUuid}/restore` },
  'GET /api/locations': everyone(200),
  'GET /api/locations/by-code': { ...everyone(404), path: () => `/api/locations/by-code?barcode=NO-SUCH-LABEL` },
  'GET /api/locations/:id': { ...everyone(200), path: () => `/api/locations/${MAIN_LOCATION_ID}` },
  'POST /api/locations': {
    ...managersOnly(201),
    body: () => ({ site_id: MAIN_SITE_ID, name: `Matrix shelf ${unique()}`, code: `MX${unique()}` }),
  },
  'PATCH /api/locations/:id': {
    ...managersOnly(404),
    path: (f) => `/api/locations/${f.missingUuid}`,
    body: () => ({ name: 'Nowhere' }),
  },
  'POST /api/locations/:id/move': {
    ...managersOnly(404),
    path: (f) => `/api/locations/${f.missingUuid}/move`,
    body: () => ({ parent_id: null }),
  },
  'POST /api/locations/:id/archive': { ...managersOnly(404), path: (f) => `/api/locations/${f.missingUuid}/archive` },
  'POST /api/locations/:id/restore': { ...managersOnly(404), path: (f) => `/api/locations/${f.missingUuid}/restore` },
  // Transfers: whoever sees stock reads them; Update stock levels makes each step (a site that
  // names nothing is 422, a transfer that names nothing 404, for anyone allowed).
  'GET /api/transfers': everyone(200),
  'GET /api/transfers/:id': { ...everyone(404), path: (f) => `/api/transfers/${f.missingUuid}` },
  'POST /api/transfers': {
    guest: 403,
    staff: 422,
    manager: 422,
    body: (f) => ({
      fromSiteId: MAIN_SITE_ID,
      toSiteId: f.missingUuid,
      lines: [{ itemId: f.itemId, fromLocationId: MAIN_LOCATION_ID, quantity: 1 }],
    }),
  },
  'POST /api/transfers/:id/ship': {
    guest: 403,
    staff: 404,
    manager: 404,
    path: (f) => `/api/transfers/${f.missingUuid}/ship`,
  },
  'POST /api/transfers/:id/receive': {
    guest: 403,
    staff: 404,
    manager: 404,
    path: (f) => `/api/transfers/${f.missingUuid}/receive`,
    body: (f) => ({ toLocationId: MAIN_LOCATION_ID, lines: [{ itemId: f.itemId, quantity: 1 }] }),
  },
  'POST /api/transfers/:id/write-off': {
    guest: 403,
    staff: 404,
    manager: 404,
    path: (f) => `/api/transfers/${f.missingUuid}/write-off`,
    body: (f) => ({ reason: 'lost', lines: [{ itemId: f.itemId }] }),
  },
  'POST /api/transfers/:id/cancel': {
    guest: 403,
    staff: 404,
    manager: 404,
    path: (f) => `/api/transfers/${f.missingUuid}/cancel`,
    body: () => ({}),
  },
};

/** "METHOD /api/path" of every route the app serves (HEAD twins of GET routes left out). */
export function routesOf(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│\s]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + match[2]!;
    stack[depth] = path;
    for (const method of (match[3] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean)) {
      if (method !== 'HEAD' && path.startsWith('/api')) routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

/** The WebSocket feed's answer as a status: hello = 200, the auth close codes = 401 or 403. */
async function feedStatus(server: TestServer, token: string | undefined): Promise<number> {
  const feed = await connectFeed(server.url, token ? { token } : {});
  // Without a token the server waits for an `auth` message, then closes (after 10 s).
  const outcome = await Promise.race([
    feed.closed.then(({ code }) => ({ code })),
    feed
      .waitFor((m) => m.some((x) => x.type === 'hello' || x.type === 'event'), 15_000, 'hello')
      .then(() => ({ code: 0 })),
  ]);
  await feed.close();
  if (outcome.code === 0) return 200;
  const unauthenticated: number[] = [CLOSE_CODES.authRequired, CLOSE_CODES.tokenExpired];
  const forbidden: number[] = [CLOSE_CODES.forbidden, CLOSE_CODES.accountDisabled, CLOSE_CODES.guestsDisabled];
  if (unauthenticated.includes(outcome.code)) return 401;
  if (forbidden.includes(outcome.code)) return 403;
  return outcome.code;
}

describe.each(backends())('authorization matrix on $name', (backend) => {
  let server: TestServer;
  let people: { guest: SignedIn; staff: SignedIn; manager: SignedIn };
  let fixtures: Fixtures;
  let served: string[];
  beforeAll(async () => {
    server = await startTestServer(backend);
    people = await cast(server);
    served = routesOf(server.app.printRoutes({ commonPrefix: false }));
    const manager = people.manager.idToken;
    const category = await server.request('POST', '/api/categories', {
      token: manager,
      body: { name: 'Matrix category' },
    });
    const item = await server.request('POST', '/api/inventory', {
      token: manager,
      body: {
        name: 'Matrix item',
        sku: 'MX-BASE',
        category_id: category.body.id,
        quantity: 10,
        price: 2,
        threshold: 1,
      },
    });
    fixtures = {
      itemId: item.body.id,
      categoryId: category.body.id,
      missingUuid: randomUUID(),
      missingUid: `nobody${unique()}`,
      missingRole: `role-${randomUUID()}`,
    };
  });
  afterAll(() => server?.close());

  it('reads the routes from the app', () => {
    // A guard on the parser itself: if the tree format changed, this says so plainly.
    expect(served).toEqual(
      expect.arrayContaining(['GET /api/health', 'POST /api/session', 'PUT /api/users/:id/role', 'GET /api/me']),
    );
  });

  it('has an entry for every /api route the app serves', () => {
    const missing = served.filter((route) => !(route in MATRIX));
    expect(missing, 'routes without an entry in the authorization matrix').toEqual([]);
  });

  it('gives every caller the expected status on every route', async () => {
    const now = Math.floor(Date.now() / 1000);
    const tokens: Record<Caller, string | undefined> = {
      none: undefined,
      expired: forgeToken({
        exp: now - 60,
        iat: now - 3700,
        auth_time: now - 3700,
        user_id: people.manager.uid,
        sub: people.manager.uid,
      }),
      otherProject: forgeToken({
        aud: 'demo-other',
        iss: 'https://securetoken.google.com/demo-other',
        user_id: people.manager.uid,
        sub: people.manager.uid,
      }),
      guest: people.guest.idToken,
      staff: people.staff.idToken,
      manager: people.manager.idToken,
    };
    const failures: string[] = [];
    for (const route of served) {
      const entry = MATRIX[route];
      if (!entry) continue; // reported by the test above
      const [method, pattern] = route.split(' ') as [string, string];
      const path = entry.path ? entry.path(fixtures) : pattern;
      for (const caller of CALLERS) {
        const signedIn = caller === 'guest' || caller === 'staff' || caller === 'manager';
        const expected = signedIn ? entry[caller] : entry.public ? 200 : 401;
        let status: number;
        if (entry.ws) {
          status = await feedStatus(server, tokens[caller]);
        } else {
          const res = await server.request(method, path, { token: tokens[caller], body: entry.body?.(fixtures) });
          status = res.status;
          // A refusal always says why, in the one error shape.
          if ((status === 401 || status === 403) && typeof res.body?.error !== 'string')
            failures.push(`${route} as ${caller}: no error message`);
        }
        if (status !== expected) failures.push(`${route} as ${caller}: expected ${expected}, got ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('has no entry for a route the app does not serve', () => {
    // An entry whose route is gone (removed, renamed, a typo in its key) checks nothing while
    // it reads as coverage.
    const unserved = Object.keys(MATRIX).filter((key) => !served.includes(key));
    expect(unserved, 'authorization matrix entries naming a route the app does not serve').toEqual([]);
  });
});
