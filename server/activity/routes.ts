// /api/activity: the activity log with filters, sorting and cursor pages, and its CSV export.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { isGuest } from '../auth/guest-view.js';
import { assertMayAtSites, visibleSites } from '../auth/site-access.js';
import { ForbiddenError } from '../errors.js';
import { csvFormatOf, csvFormatProperties, sendCsv, type CsvFormatQuery } from '../http/csv-reply.js';
import { errorSchema } from '../inventory/schemas.js';
import { activityEntrySchema } from './schemas.js';
import { csvHeader, csvRow, type ActivityFilter, type ActivityQueries } from './activity-queries.js';

const filterProperties = {
  action: { type: 'string', enum: ['create', 'update', 'delete'] },
  resourceType: { type: 'string', enum: ['inventory', 'category', 'stocktake', 'site', 'location'] },
  userId: { type: 'string', maxLength: 128 },
  q: { type: 'string', maxLength: 200 },
  siteId: { type: 'string', format: 'uuid' },
  locationId: { type: 'string', format: 'uuid' },
  sort: { type: 'string', enum: ['timestamp', 'user', 'action'], default: 'timestamp' },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
} as const;

/**
 * A guest neither picks a person's entries nor finds them by name (server/auth/guest-view.ts);
 * someone who sees some sites only reads the entries of those sites and of no site.
 */
function viewerFilter(request: FastifyRequest, asked: ActivityFilter): ActivityFilter {
  const sites = request.principal ? visibleSites(request.principal) : 'all';
  const filter = sites === 'all' ? asked : { ...asked, sites };
  if (!isGuest(request.principal)) return filter;
  if (filter.userId) throw new ForbiddenError("Guests can't filter the activity log by staff member");
  return { ...filter, hideNames: true };
}

export const activityRoutes: FastifyPluginAsync<{ activity: ActivityQueries }> = async (app, { activity }) => {
  const view = requirePermission('reports:view');

  /** The filter a request may ask for: a site or location that exists, at a site where the principal sees reports. */
  async function allowed(request: FastifyRequest, filter: ActivityFilter): Promise<ActivityFilter> {
    const sites = await activity.sitesOf(filter);
    if (sites.length > 0) {
      const names = new Map(sites.map((site) => [site.id, site.name]));
      assertMayAtSites(
        principalOf(request),
        'reports:view',
        sites.map((site) => site.id),
        (id) => names.get(id) ?? id,
      );
    }
    return viewerFilter(request, filter);
  }

  app.get<{ Querystring: ActivityFilter & { cursor?: string; limit: number } }>(
    '/activity',
    {
      onRequest: view,
      schema: {
        summary:
          'The activity log: filter by action, resource type, user, text, site and location; sort; page with nextCursor',
        tags: ['activity'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...filterProperties,
            cursor: { type: 'string', maxLength: 500 },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
          },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              entries: { type: 'array', items: activityEntrySchema },
              nextCursor: { type: ['string', 'null'] },
            },
          },
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request) => {
      const { cursor, limit, ...filter } = request.query;
      return activity.page(await allowed(request, filter), limit, cursor);
    },
  );

  app.get<{ Querystring: ActivityFilter & CsvFormatQuery }>(
    '/activity.csv',
    {
      onRequest: view,
      config: { export: true }, // never to guests (server/auth/guest-view.ts)
      schema: {
        summary:
          "The activity log as CSV (same filters and sort as /activity; delimiter and encoding: the file's format)",
        tags: ['activity'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...filterProperties, ...csvFormatProperties },
        },
        response: {
          200: { type: 'string', description: 'text/csv' },
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const { delimiter, encoding, ...filter } = request.query;
      const format = csvFormatOf({ delimiter, encoding });
      const checked = await allowed(request, filter);
      // Streamed page by page, so a log of any size exports without being held in memory.
      return sendCsv(reply, 'activity-log.csv', format, () =>
        (async function* () {
          yield csvHeader(format);
          for await (const entry of activity.all(checked)) yield csvRow(entry, format);
        })(),
      );
    },
  );
};
