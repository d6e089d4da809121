// Stock per location: moves between locations of a site (POST /api/moves) and where an
// item's stock is (GET /api/inventory/{id}/locations). Thin: a schema, a permission, one call.
import type { FastifyPluginAsync } from 'fastify';
import type { MoveStockBody } from '../../shared/inventory.js';
import { requirePermission } from '../auth/auth-plugin.js';
import { principalCheck } from '../auth/principal-check.js';
import { requestSiteCheck } from '../auth/site-access.js';
import { replayIfAnswered } from '../http/answer-hook.js';
import { commandHooks, commandMeta } from '../http/command-meta.js';
import { moveStockCommand } from './item-commands.js';
import type { ItemService } from './item-service.js';
import { conflictSchema, errorSchema, itemIdParams, itemLocationsSchema, itemSchema, moveBody } from './schemas.js';
import type { StockQueries } from './stock-queries.js';

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: conflictSchema,
  422: errorSchema,
};

/**
 * Who may move stock: whoever may update stock levels, at the site of the move (both ends
 * are checked when the move is decided, its locations loaded: requestSiteCheck).
 */
const mayMoveStock = requirePermission('stock:update');

export const stockRoutes: FastifyPluginAsync<{ items: ItemService; stock: StockQueries }> = async (
  app,
  { items, stock },
) => {
  app.post<{ Body: MoveStockBody }>(
    '/moves',
    {
      onRequest: mayMoveStock,
      // Decided in the item's stock batch, like an adjustment (the cached principal's check and
      // the Idempotency-Key's stored answer ride along).
      config: { principal: 'checked-in-query', idempotency: 'by-handler' },
      schema: {
        summary:
          "Move units of an item from one location to another of the same site, at once: one StockMoved on the item. 409 'Insufficient stock at …' for more than is there or an archived location, 422 for an unknown location or locations of two sites, 400 for the same location twice",
        tags: ['inventory'],
        body: moveBody,
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request, reply) =>
      replayIfAnswered(request, reply, () =>
        items.move(
          request.body.itemId.toLowerCase(),
          moveStockCommand(request.body, requestSiteCheck(request, 'stock:update')),
          commandMeta(request),
          commandHooks(request),
        ),
      ),
  );

  app.get<{ Params: { id: string } }>(
    '/inventory/:id/locations',
    {
      onRequest: requirePermission('inventory:view'),
      // The cached principal's check rides along in the read's statement.
      config: { principal: 'checked-in-query' },
      schema: {
        summary:
          "Where the item's stock is: per site and location (0 where it was and is no more), its total and what is in transit",
        tags: ['inventory'],
        params: itemIdParams,
        response: { 200: itemLocationsSchema, ...errors },
      },
    },
    async (request) => stock.locationsOf(request.params.id, principalCheck(request)),
  );
};
