// /api/inventory routes: thin — a schema, a permission, one call.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AdjustStockBody, CreateItemBody, UpdateItemBody } from '../../shared/inventory.js';
import { requirePermission } from '../auth/auth-plugin.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { commandMeta, expectedVersionOf } from '../http/command-meta.js';
import type { ItemQueries } from './item-queries.js';
import type { ItemService } from './item-service.js';
import {
  adjustBody,
  conflictSchema,
  createItemBody,
  errorSchema,
  historySchema,
  idParams,
  itemSchema,
  updateItemBody,
} from './schemas.js';

type WithId = { Params: { id: string } };
const itemList = { type: 'array', items: itemSchema } as const;
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: conflictSchema };
const versionQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { expected_version: { type: 'integer', minimum: 0 } },
} as const;

/** A PUT that only sets quantity is a stock count: Update stock levels is enough for it. */
function requireEditPermission(request: FastifyRequest<{ Body: UpdateItemBody }>) {
  const permissions = request.principal?.permissions ?? [];
  const body = request.body && typeof request.body === 'object' ? request.body : {};
  const fields = Object.keys(body).filter((k) => k !== 'expected_version');
  const quantityOnly = fields.length === 1 && fields[0] === 'quantity';
  if (permissions.includes('inventory:manage')) return;
  if (quantityOnly && permissions.includes('stock:update')) return;
  request.log.warn({ uid: request.principal?.uid, route: request.routeOptions.url }, 'permission denied');
  throw new ForbiddenError(quantityOnly ? "You don't have permission to update stock levels" : "You don't have permission to manage inventory");
}

export const inventoryRoutes: FastifyPluginAsync<{ items: ItemService; queries: ItemQueries }> = async (app, { items, queries }) => {
  const view = requirePermission('inventory:view');

  app.get<{ Querystring: { limit: number; cursor?: string } }>(
    '/inventory',
    {
      onRequest: view,
      schema: {
        summary: 'List items, newest first. The next page: follow the Link header (rel="next") or pass X-Next-Cursor as cursor.',
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 }, cursor: { type: 'string', maxLength: 200 } },
        },
        response: { 200: itemList, ...errors },
      },
    },
    async (request, reply) => {
      const page = await queries.list(request.query.limit, request.query.cursor);
      if (page.nextCursor) {
        reply.header('x-next-cursor', page.nextCursor);
        reply.header('link', `</api/inventory?limit=${request.query.limit}&cursor=${page.nextCursor}>; rel="next"`);
      }
      return page.items;
    },
  );

  app.get(
    '/inventory/low-stock',
    { onRequest: view, schema: { summary: 'Items at or below their threshold', tags: ['inventory'], response: { 200: itemList, ...errors } } },
    async () => queries.lowStock(),
  );

  app.get<{ Querystring: { q: string; limit: number } }>(
    '/inventory/search',
    {
      onRequest: view,
      schema: {
        summary: 'Typo-tolerant search over name, SKU, description and category',
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['q'],
          properties: { q: { type: 'string', maxLength: 200 }, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
        },
        response: { 200: itemList, ...errors },
      },
    },
    async (request) => queries.search(request.query.q, request.query.limit),
  );

  app.get<WithId & { Querystring: { asOf?: string } }>(
    '/inventory/:id',
    {
      onRequest: view,
      schema: {
        summary: 'One item; with asOf, the item as it was at that moment',
        tags: ['inventory'],
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { asOf: { type: 'string', format: 'date-time' } },
        },
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => {
      if (request.query.asOf) return queries.asOf(request.params.id, new Date(request.query.asOf));
      return queries.require(request.params.id);
    },
  );

  app.get<WithId>(
    '/inventory/:id/history',
    {
      onRequest: view,
      schema: { summary: "The item's events with who, when, why and what changed", tags: ['inventory'], params: idParams, response: { 200: historySchema, ...errors } },
    },
    async (request) => queries.history(request.params.id),
  );

  app.post<{ Body: CreateItemBody }>(
    '/inventory',
    {
      onRequest: requirePermission('inventory:create'),
      schema: { summary: 'Create an item (created_by is ignored: the signed-in user is recorded)', tags: ['inventory'], body: createItemBody, response: { 201: itemSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await items.create(request.body, commandMeta(request))),
  );

  app.put<WithId & { Body: UpdateItemBody }>(
    '/inventory/:id',
    {
      // Before validation, so a refused user learns nothing about the body's shape.
      preValidation: async (request) => requireEditPermission(request),
      schema: {
        summary: 'Update an item (partial). Send If-Match or expected_version: a stale version gets 409 with the current item.',
        tags: ['inventory'],
        params: idParams,
        body: updateItemBody,
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => {
      const { expected_version, ...body } = request.body;
      if (Object.keys(body).length === 0) throw new ValidationError('Nothing to update');
      return items.update(request.params.id, body, expectedVersionOf(request, expected_version), commandMeta(request));
    },
  );

  app.delete<WithId & { Querystring: { expected_version?: number } }>(
    '/inventory/:id',
    {
      onRequest: requirePermission('records:delete'),
      schema: {
        summary: 'Delete an item. If-Match or ?expected_version guard against deleting a changed item.',
        tags: ['inventory'],
        params: idParams,
        querystring: versionQuery,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await items.delete(request.params.id, expectedVersionOf(request, request.query.expected_version), commandMeta(request));
      return reply.status(204).send();
    },
  );

  app.post<WithId & { Body: AdjustStockBody }>(
    '/inventory/:id/adjust',
    {
      onRequest: requirePermission('stock:update'),
      schema: {
        summary: "Adjust stock atomically by a delta; 409 'Insufficient stock' below 0",
        tags: ['inventory'],
        params: idParams,
        body: adjustBody,
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => items.adjust(request.params.id, request.body, commandMeta(request)),
  );
};
