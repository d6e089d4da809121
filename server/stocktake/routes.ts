// /api/stocktakes routes. Counting is Update stock levels; starting and approving is Run
// stocktakes; seeing sessions is either (as the live feed's stocktake events are). People who
// only count see no expected quantities (a blind count: a counter who knows the expected
// number tends to find it). Thin: schema, permission, one call.
import type { FastifyPluginAsync } from 'fastify';
import { SEE_STOCKTAKES } from '../../shared/permissions.js';
import type { ApproveLineBody, StartStocktakeBody, SubmitCountBody } from '../../shared/stocktake.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { mayAtSite, visibleSites } from '../auth/site-access.js';
import { commandMeta } from '../http/command-meta.js';
import {
  approveLineBody,
  countBody,
  countResponse,
  emptyBody,
  errors,
  lineParams,
  listResponse,
  sessionResponse,
  startBody,
  stocktakeParams,
} from './schemas.js';
import type { StocktakeQueries } from './stocktake-queries.js';
import type { StocktakeService } from './stocktake-service.js';

type WithId = { Params: { id: string } };
type WithLine = { Params: { id: string; itemId: string }; Body: ApproveLineBody | null };

export const stocktakeRoutes: FastifyPluginAsync<{ stocktakes: StocktakeService; queries: StocktakeQueries }> = async (
  app,
  { stocktakes, queries },
) => {
  const count = requirePermission('stock:update');
  const run = requirePermission('stocktake:run');
  const see = requirePermission(SEE_STOCKTAKES);
  const tags = ['stocktakes'];

  app.get(
    '/stocktakes',
    {
      onRequest: see,
      schema: { summary: 'Stocktake sessions, newest first', tags, response: { 200: listResponse, ...errors } },
    },
    async (request) => ({ stocktakes: await queries.list(50, visibleSites(principalOf(request))) }),
  );

  app.post<{ Body: StartStocktakeBody }>(
    '/stocktakes',
    {
      onRequest: run,
      schema: {
        summary:
          'Start a count of a category, several categories, some items, the low-stock items or the whole store, at a site (all its locations) or one location (with those inside it)',
        tags,
        body: startBody,
        response: { 201: sessionResponse, ...errors },
      },
    },
    async (request, reply) => {
      const id = await stocktakes.start(request.body, commandMeta(request), principalOf(request));
      return reply.status(201).send(await queries.session(id, true));
    },
  );

  app.get<WithId>(
    '/stocktakes/:id',
    {
      onRequest: see,
      schema: {
        summary: 'A session: progress, counts, items counted twice with different numbers, variance and totals',
        tags,
        params: stocktakeParams,
        response: { 200: sessionResponse, ...errors },
      },
    },
    async (request) => {
      // Expected quantities for those who run counts at the session's site; another site's session is refused.
      const principal = principalOf(request);
      return queries.session(
        request.params.id,
        (siteId) => mayAtSite(principal, 'stocktake:run', siteId),
        visibleSites(principal),
      );
    },
  );

  app.post<WithId & { Body: SubmitCountBody }>(
    '/stocktakes/:id/counts',
    {
      onRequest: count,
      schema: {
        summary:
          'Record a count, with the moment it was counted (send an Idempotency-Key: a repeat is answered, not applied again)',
        tags,
        params: stocktakeParams,
        body: countBody,
        response: { 201: countResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await stocktakes.count(request.params.id, request.body, commandMeta(request), principalOf(request))),
  );

  app.post<WithLine>(
    '/stocktakes/:id/lines/:itemId/approve',
    {
      onRequest: run,
      schema: {
        summary:
          "Approve one item's count at a location: posts a `count` adjustment there of counted minus the quantity there at the moment of counting",
        tags,
        params: lineParams,
        body: approveLineBody,
        response: { 200: sessionResponse, ...errors },
      },
    },
    async (request) => {
      const { id, itemId } = request.params;
      await stocktakes.approveLine(id, itemId, request.body ?? {}, commandMeta(request), principalOf(request));
      return queries.session(id, true);
    },
  );

  app.post<WithId>(
    '/stocktakes/:id/approve',
    {
      onRequest: run,
      schema: {
        summary: 'Approve every counted item (refused while counts disagree) and close the session',
        tags,
        params: stocktakeParams,
        body: emptyBody,
        response: { 200: sessionResponse, ...errors },
      },
    },
    async (request) => {
      await stocktakes.approveAll(request.params.id, commandMeta(request), principalOf(request));
      return queries.session(request.params.id, true);
    },
  );
};
