// /api/inventory routes: thin — a schema, a permission, one call.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AdjustStockBody, CreateItemBody, UpdateItemBody } from '../../shared/inventory.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { principalCheck } from '../auth/principal-check.js';
import {
  assertMayAtSites,
  assertMaySeeSite,
  atEverySite,
  maySeeSite,
  requestSiteCheck,
  visibleSites,
} from '../auth/site-access.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { replayIfAnswered } from '../http/answer-hook.js';
import { commandHooks, commandMeta, expectedVersionOf } from '../http/command-meta.js';
import { csvFormatOf, csvFormatProperties, sendCsv, type CsvFormatQuery } from '../http/csv-reply.js';
import { adjustStockCommand, createItemCommand, updateItemCommand } from './item-commands.js';
import type { ItemQueries } from './item-queries.js';
import type { ItemsAsOf } from './items-as-of.js';
import { exportsByLocation, itemCsvHeader, itemCsvRow, type ItemExportFilter } from './item-export.js';
import type { ItemService } from './item-service.js';
import { siteOfCaller } from './places-sql.js';
import {
  adjustBody,
  conflictSchema,
  createItemBody,
  errorSchema,
  historySchema,
  itemIdParams,
  itemSchema,
  updateItemBody,
} from './schemas.js';

type WithId = { Params: { id: string } };
/** The hot routes take a cached principal and check it in their own statement (auth/principal-check.ts). */
const checkedInQuery = { principal: 'checked-in-query' } as const;
const itemList = { type: 'array', items: itemSchema } as const;
const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: conflictSchema,
  422: errorSchema,
};
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
  // A total is the store's: those whose role holds at some sites only count at a location.
  if ('quantity' in body && request.principal && !atEverySite(request.principal))
    throw new ForbiddenError('Your role holds at some sites only: adjust the stock at a location instead');
  if (permissions.includes('inventory:manage')) return;
  if (quantityOnly && permissions.includes('stock:update')) return;
  request.log.warn({ uid: request.principal?.uid, route: request.routeOptions.url }, 'permission denied');
  throw new ForbiddenError(
    quantityOnly ? "You don't have permission to update stock levels" : "You don't have permission to manage inventory",
  );
}

export const inventoryRoutes: FastifyPluginAsync<{
  items: ItemService;
  queries: ItemQueries;
  asOf: ItemsAsOf;
}> = async (app, { items, queries, asOf }) => {
  const view = requirePermission('inventory:view');

  /**
   * A list filtered by a site or location the caller may not see is refused (roles per site).
   * Nothing to ask for those at every site.
   */
  async function refuseUnseenPlace(request: FastifyRequest, siteId?: string, locationId?: string) {
    const principal = request.principal;
    if (!principal || atEverySite(principal)) return;
    if (siteId && !maySeeSite(principal, siteId)) {
      const name = await queries.siteName(siteId);
      assertMaySeeSite(principal, siteId, () => name);
    }
    if (locationId) {
      const site = await queries.siteOfLocation(locationId);
      if (site) assertMaySeeSite(principal, site.id, () => site.name);
    }
  }

  app.get<{ Querystring: { limit: number; cursor?: string; asOf?: string; siteId?: string; locationId?: string } }>(
    '/inventory',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary:
          'List items, newest first. The next page: follow the Link header (rel="next") or pass X-Next-Cursor as cursor. With asOf, the items as they were at that moment. With siteId or locationId, the items placed there (at a location: there or at a location inside it), each with quantityHere, its units there (quantity stays the total); with asOf too, as they were placed then.',
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
            cursor: { type: 'string', maxLength: 200 },
            asOf: { type: 'string', format: 'date-time' },
            siteId: { type: 'string', format: 'uuid' },
            locationId: { type: 'string', format: 'uuid' },
          },
        },
        response: { 200: itemList, ...errors },
      },
    },
    async (request, reply) => {
      const { limit, cursor, asOf: at, siteId, locationId } = request.query;
      await refuseUnseenPlace(request, siteId, locationId);
      let page;
      if (at) {
        await principalCheck(request).confirm();
        page = await asOf.items(await asOf.moment(at), limit, cursor, { siteId, locationId });
      } else {
        // Someone who sees some sites only lists the items placed there (roles per site).
        const sites = siteId || locationId || !request.principal ? 'all' : visibleSites(request.principal);
        page = await queries.list(limit, cursor, principalCheck(request), {
          siteId,
          locationId,
          ...(sites === 'all' ? {} : { siteIds: sites }),
        });
      }
      if (page.nextCursor) {
        const moment = at ? `&asOf=${encodeURIComponent(at)}` : '';
        const place = `${siteId ? `&siteId=${siteId}` : ''}${locationId ? `&locationId=${locationId}` : ''}`;
        reply.header('x-next-cursor', page.nextCursor);
        reply.header('link', `</api/inventory?limit=${limit}&cursor=${page.nextCursor}${moment}${place}>; rel="next"`);
      }
      return page.items;
    },
  );

  app.get<{ Querystring: { asOf?: string } }>(
    '/inventory/low-stock',
    {
      onRequest: view,
      schema: {
        summary: 'Items at or below their threshold (with asOf, at that moment)',
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { asOf: { type: 'string', format: 'date-time' } },
        },
        response: { 200: itemList, ...errors },
      },
    },
    async (request) => (request.query.asOf ? asOf.lowStock(await asOf.moment(request.query.asOf)) : queries.lowStock()),
  );

  app.get<{ Querystring: { q: string; limit: number } }>(
    '/inventory/search',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary: 'Typo-tolerant search over name, SKU, barcode, description and category',
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['q'],
          properties: {
            q: { type: 'string', maxLength: 200 },
            limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          },
        },
        response: { 200: itemList, ...errors },
      },
    },
    async (request) => queries.search(request.query.q, request.query.limit, principalCheck(request)),
  );

  app.get<{ Querystring: ItemExportFilter & CsvFormatQuery }>(
    '/inventory/export.csv',
    {
      onRequest: view,
      config: { export: true }, // never to guests (server/auth/guest-view.ts)
      schema: {
        summary:
          "Items as CSV, in the columns the import reads. categoryId, q, sort and order: a category page's filters; q alone: the Inventory page's search; none: every item. byLocation, siteId or locationId: a row per item and location (site and location codes, the units there), of the items placed at the site or location given. delimiter and encoding: the file's format (a semicolon file writes decimal commas)",
        tags: ['inventory'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            categoryId: { type: 'string', format: 'uuid' },
            q: { type: 'string', maxLength: 200 },
            sort: { type: 'string', enum: ['name', 'price', 'stock'], default: 'name' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
            byLocation: { type: 'boolean', description: 'a row per item and location' },
            siteId: { type: 'string', format: 'uuid', description: 'the items placed at this site, by location' },
            locationId: {
              type: 'string',
              format: 'uuid',
              description: 'the items placed at this location or at a location inside it',
            },
            ...csvFormatProperties,
          },
        },
        response: {
          200: { type: 'string', description: 'text/csv' },
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const { delimiter, encoding, ...filter } = request.query;
      const format = csvFormatOf({ delimiter, encoding });
      // Streamed page by page, like the activity export: no store is too big to export.
      const byPlace = exportsByLocation(filter);
      return sendCsv(reply, 'inventory.csv', format, async () => {
        // Those who see some sites only export those sites' stock (roles per site).
        const rows = await queries.export({ ...filter, visibleSites: visibleSites(principalOf(request)) });
        return (async function* () {
          yield itemCsvHeader(format, byPlace);
          for await (const row of rows) yield itemCsvRow(row, format, byPlace);
        })();
      });
    },
  );

  app.get<{ Params: { code: string } }>(
    '/inventory/by-barcode/:code',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary:
          "The item with this barcode (what a scan looks up); 404 'Item not found' for an unknown or malformed code",
        tags: ['inventory'],
        params: { type: 'object', properties: { code: { type: 'string', maxLength: 200 } }, required: ['code'] },
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => queries.requireByBarcode(request.params.code, principalCheck(request)),
  );

  app.get<WithId & { Querystring: { asOf?: string } }>(
    '/inventory/:id',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary: 'One item; with asOf, the item as it was at that moment',
        tags: ['inventory'],
        params: itemIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { asOf: { type: 'string', format: 'date-time' } },
        },
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => {
      const check = principalCheck(request);
      if (!request.query.asOf) return queries.require(request.params.id, check);
      await check.confirm();
      return queries.asOf(request.params.id, await asOf.moment(request.query.asOf));
    },
  );

  app.get<WithId>(
    '/inventory/:id/history',
    {
      onRequest: view,
      schema: {
        summary: "The item's events with who, when, why and what changed",
        tags: ['inventory'],
        params: itemIdParams,
        response: { 200: historySchema, ...errors },
      },
    },
    async (request) => {
      const sites = request.principal ? visibleSites(request.principal) : 'all';
      return queries.history(request.params.id, sites === 'all' ? undefined : sites);
    },
  );

  app.post<{ Body: CreateItemBody }>(
    '/inventory',
    {
      onRequest: requirePermission('inventory:create'),
      schema: {
        summary: 'Create an item (created_by is ignored: the signed-in user is recorded)',
        tags: ['inventory'],
        body: createItemBody,
        response: { 201: itemSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await items.create(
            createItemCommand(
              request.body,
              siteOfCaller(request.principal),
              requestSiteCheck(request, 'inventory:create'),
            ),
            commandMeta(request),
          ),
        ),
  );

  app.put<WithId & { Body: UpdateItemBody }>(
    '/inventory/:id',
    {
      // Before validation, so a refused user learns nothing about the body's shape.
      preValidation: async (request) => requireEditPermission(request),
      schema: {
        summary:
          'Update an item (partial). Send If-Match or expected_version: a stale version gets 409 with the current item.',
        tags: ['inventory'],
        params: itemIdParams,
        body: updateItemBody,
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request) => {
      const { expected_version, ...body } = request.body;
      if (Object.keys(body).length === 0) throw new ValidationError('Nothing to update');
      return items.update(
        request.params.id,
        updateItemCommand(
          body,
          siteOfCaller(request.principal),
          requestSiteCheck(request, ['inventory:manage', 'stock:update']),
        ),
        expectedVersionOf(request, expected_version),
        commandMeta(request),
      );
    },
  );

  app.delete<WithId & { Querystring: { expected_version?: number } }>(
    '/inventory/:id',
    {
      onRequest: requirePermission('records:delete'),
      schema: {
        summary: 'Delete an item. If-Match or ?expected_version guard against deleting a changed item.',
        tags: ['inventory'],
        params: itemIdParams,
        querystring: versionQuery,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      // An item is the store's: someone limited to some sites deletes only what is kept at theirs.
      const principal = principalOf(request);
      if (!atEverySite(principal)) {
        const holding = await queries.sitesHolding(request.params.id);
        const names = new Map(holding.map((site) => [site.id, site.name]));
        assertMayAtSites(
          principal,
          'records:delete',
          holding.map((site) => site.id),
          (id) => names.get(id) ?? id,
        );
      }
      await items.delete(
        request.params.id,
        expectedVersionOf(request, request.query.expected_version),
        commandMeta(request),
      );
      return reply.status(204).send();
    },
  );

  app.post<WithId & { Body: AdjustStockBody }>(
    '/inventory/:id/adjust',
    {
      onRequest: requirePermission('stock:update'),
      // Its batch checks the cached principal, and looks up and stores the Idempotency-Key's answer (commandHooks).
      config: { ...checkedInQuery, idempotency: 'by-handler' },
      schema: {
        summary:
          "Adjust stock atomically by a delta, at locationId or the default location of your site; 409 'Insufficient stock at …' below 0 there, 409 for an archived location, 422 for an unknown one",
        tags: ['inventory'],
        params: itemIdParams,
        body: adjustBody,
        response: { 200: itemSchema, ...errors },
      },
    },
    async (request, reply) =>
      replayIfAnswered(request, reply, () =>
        items.adjust(
          request.params.id,
          adjustStockCommand(request.body, siteOfCaller(request.principal), requestSiteCheck(request, 'stock:update')),
          commandMeta(request),
          commandHooks(request),
        ),
      ),
  );
};
