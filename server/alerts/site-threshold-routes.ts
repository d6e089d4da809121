// /api/inventory/{id}/site-thresholds: an item's stock and low-stock thresholds per site, and
// setting or clearing its own threshold at one site. Reading needs View inventory; setting
// needs Manage inventory at that site (site-access.ts).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { assertMayAtSites, mayAtSite, maySeeSite, visibleSites } from '../auth/site-access.js';
import { NotFoundError } from '../errors.js';
import { commandMeta } from '../http/command-meta.js';
import { namingParams } from '../http/validation.js';
import type { SiteThresholdQueries } from './site-threshold-queries.js';
import type { SiteThresholdService } from './site-threshold-service.js';
import { errors } from './schemas.js';

const uuid = { type: 'string', format: 'uuid' } as const;

const itemParams = namingParams(
  { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuid } } as const,
  'Item not found',
);
const siteParams = namingParams(
  {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'siteId'],
    properties: { id: uuid, siteId: uuid },
  } as const,
  'Item or site not found',
);

const siteThresholdSchema = {
  type: 'object',
  properties: {
    siteId: { type: 'string' },
    siteName: { type: 'string' },
    siteCode: { type: 'string' },
    quantity: { type: 'integer' },
    kept: { type: 'boolean' },
    ownThreshold: { type: ['integer', 'null'] },
    threshold: { type: 'integer' },
    low: { type: 'boolean' },
  },
} as const;

const thresholdsResponse = {
  type: 'object',
  properties: {
    itemId: { type: 'string' },
    itemThreshold: { type: 'integer' },
    watchedPerSite: { type: 'boolean' },
    sites: { type: 'array', items: siteThresholdSchema },
  },
} as const;

const thresholdBody = {
  type: 'object',
  additionalProperties: false,
  required: ['threshold'],
  properties: { threshold: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647 } },
} as const;

type WithItem = { Params: { id: string } };
type WithSite = { Params: { id: string; siteId: string } };

export const siteThresholdRoutes: FastifyPluginAsync<{
  thresholds: SiteThresholdService;
  queries: SiteThresholdQueries;
}> = async (app, { thresholds, queries }) => {
  const tags = ['inventory'];
  const view = requirePermission('inventory:view');

  app.get<WithItem>(
    '/inventory/:id/site-thresholds',
    {
      onRequest: view,
      schema: {
        summary: "The item's stock and low-stock threshold at each site (its own there, or the item's)",
        tags,
        params: itemParams,
        response: { 200: thresholdsResponse, ...errors },
      },
    },
    async (request) => queries.forItem(request.params.id, visibleSites(principalOf(request))),
  );

  const set = async (request: FastifyRequest<WithSite>, value: number | null) => {
    const principal = principalOf(request);
    const { id, siteId } = request.params;
    const sites = visibleSites(principal);
    // A site the user may not see is none to them.
    if (!maySeeSite(principal, siteId)) throw new NotFoundError('Site not found');
    if (!mayAtSite(principal, 'inventory:manage', siteId)) {
      const name = await thresholds.siteName(siteId);
      assertMayAtSites(principal, 'inventory:manage', [siteId], () => name);
    }
    return thresholds.set(id, siteId, value, commandMeta(request), sites);
  };

  app.put<WithSite & { Body: { threshold: number | null } }>(
    '/inventory/:id/site-thresholds/:siteId',
    {
      onRequest: view,
      schema: {
        summary: "Set the item's own low-stock threshold at a site (null: use the item's threshold there again)",
        tags,
        params: siteParams,
        body: thresholdBody,
        response: { 200: thresholdsResponse, ...errors },
      },
    },
    async (request) => set(request, request.body.threshold),
  );

  app.delete<WithSite>(
    '/inventory/:id/site-thresholds/:siteId',
    {
      onRequest: view,
      schema: {
        summary: "Clear the item's own low-stock threshold at a site: it uses the item's threshold there again",
        tags,
        params: siteParams,
        response: { 200: thresholdsResponse, ...errors },
      },
    },
    async (request) => set(request, null),
  );
};
