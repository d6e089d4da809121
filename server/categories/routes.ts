// /api/categories routes: thin — a schema, a permission, one call.
import type { FastifyPluginAsync } from 'fastify';
import { requirePermission } from '../auth/auth-plugin.js';
import { principalCheck } from '../auth/principal-check.js';
import { commandMeta, expectedVersionOf } from '../http/command-meta.js';
import {
  categoryBody,
  categorySchema,
  categoryIdParams,
  errorSchema,
  itemSchema,
  updateCategoryBody,
} from '../inventory/schemas.js';
import type { CategoryService, CategorySort } from './category-service.js';
import type { CategoriesAsOf } from './categories-as-of.js';

type WithId = { Params: { id: string } };
/** The reads take a cached principal and check it in their own statement (auth/principal-check.ts). */
const checkedInQuery = { principal: 'checked-in-query' } as const;
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };

/** ?asOf=: the category pages as they were at a moment (server/history). */
const asOfQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { asOf: { type: 'string', format: 'date-time' } },
} as const;
type AsOf = { Querystring: { asOf?: string } };

export const categoryRoutes: FastifyPluginAsync<{ categories: CategoryService; asOf: CategoriesAsOf }> = async (
  app,
  { categories, asOf },
) => {
  const view = requirePermission('inventory:view');

  app.get<AsOf>(
    '/categories',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary: 'All categories with item counts (with asOf, as they were then)',
        tags: ['categories'],
        querystring: asOfQuery,
        response: { 200: { type: 'array', items: categorySchema }, ...errors },
      },
    },
    async (request) => {
      if (!request.query.asOf) return categories.list(principalCheck(request));
      await principalCheck(request).confirm();
      return asOf.categories(await asOf.moment(request.query.asOf));
    },
  );

  app.get<WithId & AsOf>(
    '/categories/:id',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary: 'One category (with asOf, as it was then)',
        tags: ['categories'],
        params: categoryIdParams,
        querystring: asOfQuery,
        response: { 200: categorySchema, ...errors },
      },
    },
    async (request) => {
      if (!request.query.asOf) return categories.require(request.params.id, principalCheck(request));
      await principalCheck(request).confirm();
      return asOf.category(await asOf.moment(request.query.asOf), request.params.id);
    },
  );

  app.get<
    WithId & {
      Querystring: {
        q?: string;
        sort: CategorySort;
        order: 'asc' | 'desc';
        page: number;
        pageSize: number;
        asOf?: string;
      };
    }
  >(
    '/categories/:id/items',
    {
      onRequest: view,
      config: checkedInQuery,
      schema: {
        summary: "A category's items: search over name and description, sort by name, price or stock, 12 a page",
        tags: ['categories'],
        params: categoryIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 200 },
            sort: { type: 'string', enum: ['name', 'price', 'stock'], default: 'name' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
            page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
            pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 12 },
            asOf: { type: 'string', format: 'date-time' },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              items: { type: 'array', items: itemSchema },
              total: { type: 'integer' },
              page: { type: 'integer' },
              pageSize: { type: 'integer' },
              totalPages: { type: 'integer' },
            },
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const { asOf: at, ...options } = request.query;
      if (!at) return categories.items(request.params.id, options, principalCheck(request));
      await principalCheck(request).confirm();
      return asOf.categoryItems(await asOf.moment(at), request.params.id, options);
    },
  );

  app.post<{ Body: { name: string; description?: string | null } }>(
    '/categories',
    {
      onRequest: requirePermission('inventory:create'),
      schema: {
        summary: 'Create a category',
        tags: ['categories'],
        body: categoryBody,
        response: { 201: categorySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await categories.create(
            { name: request.body.name, description: request.body.description ?? '' },
            commandMeta(request),
          ),
        ),
  );

  app.put<WithId & { Body: { name?: string; description?: string | null; expected_version?: number } }>(
    '/categories/:id',
    {
      onRequest: requirePermission('inventory:manage'),
      schema: {
        summary: 'Rename or describe a category (items follow the new name)',
        tags: ['categories'],
        params: categoryIdParams,
        body: updateCategoryBody,
        response: { 200: categorySchema, ...errors },
      },
    },
    async (request) => {
      const { expected_version, name, description } = request.body;
      return categories.update(
        request.params.id,
        { name, description: description === null ? '' : description },
        expectedVersionOf(request, expected_version),
        commandMeta(request),
      );
    },
  );

  app.delete<WithId & { Querystring: { expected_version?: number } }>(
    '/categories/:id',
    {
      onRequest: requirePermission('records:delete'),
      schema: {
        summary: "Delete an empty category (409 'Category is not empty' otherwise)",
        tags: ['categories'],
        params: categoryIdParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { expected_version: { type: 'integer', minimum: 0 } },
        },
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await categories.delete(
        request.params.id,
        expectedVersionOf(request, request.query.expected_version),
        commandMeta(request),
      );
      return reply.status(204).send();
    },
  );
};
