// /api/events/{eventId}/revert (undo and revert), /api/changes (compare two moments) and
// /api/history/* (what the time control and a toast's Undo need). Thin: schema, permission,
// one call; who may revert what is the revert service's rule (own changes, or Revert changes).
import type { FastifyPluginAsync } from 'fastify';
import type { RevertBody } from '../../shared/inventory-history.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { commandMeta } from '../http/command-meta.js';
import { ValidationError } from '../errors.js';
import type { AsOfQueries } from './as-of-queries.js';
import { checkMoment } from './as-of-queries.js';
import { changesCsv, type ChangesQueries } from './changes-queries.js';
import { csvFormatOf, csvFormatProperties, sendCsv, type CsvFormatQuery } from '../http/csv-reply.js';
import type { RevertService } from './revert-service.js';
import {
  changeAtSchema,
  changesSchema,
  countsSchema,
  errors,
  eventIdParams,
  moment,
  revertBody,
  revertPlanSchema,
  revertResultSchema,
} from './schemas.js';

type WithEvent = { Params: { eventId: string } };
type Between = { Querystring: { from: string; to?: string } };

const betweenQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { from: moment, to: moment },
  required: ['from'],
} as const;

export const historyRoutes: FastifyPluginAsync<{
  reverts: RevertService;
  changes: ChangesQueries;
  asOf: AsOfQueries;
}> = async (app, { reverts, changes, asOf }) => {
  const view = requirePermission('inventory:view');
  const tags = ['history'];
  // The whole principal: a transfer step's undo asks where its holder may act (auth/site-access.ts).
  const who = (request: Parameters<typeof principalOf>[0]) => principalOf(request);
  const window = (q: Between['Querystring']) => {
    const to = checkMoment(q.to ? new Date(q.to) : new Date(), 'to');
    const from = checkMoment(new Date(q.from), 'from');
    if (from > to) throw new ValidationError('from must be before to');
    return { from, to };
  };

  app.get<WithEvent>(
    '/events/:eventId/revert',
    {
      onRequest: view,
      schema: {
        summary:
          'What reverting this change would do: fields changed since (by whom, when), whether it is blocked and why',
        tags,
        params: eventIdParams,
        response: { 200: revertPlanSchema, ...errors },
      },
    },
    async (request) => reverts.plan(request.params.eventId, who(request)),
  );

  app.post<WithEvent & { Body: RevertBody }>(
    '/events/:eventId/revert',
    {
      onRequest: view,
      schema: {
        summary:
          "Revert (undo) a change: appends compensating events citing it (`reverts`). Own changes, or with Revert changes. Once per change (409 after). A transfer's shipment, receipt or write-off is undone as a whole (also needs Update stock levels at the site it changes; 409 while a receipt's units are gone from its location, or a shipment was received since).",
        tags,
        params: eventIdParams,
        body: revertBody,
        response: { 201: revertResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await reverts.revert(request.params.eventId, request.body ?? {}, who(request), commandMeta(request))),
  );

  app.get<{ Querystring: { streamId: string; version: number } }>(
    '/history/change-at',
    {
      onRequest: view,
      schema: {
        summary: "The change that left a stream at a version (a write's answer carries the version): what Undo reverts",
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            streamId: { type: 'string', pattern: '^(item|category)-[0-9a-f-]{36}$' },
            version: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          }, // stream_version is an int
          required: ['streamId', 'version'],
        },
        response: { 200: changeAtSchema, ...errors },
      },
    },
    async (request) => reverts.changeAt(request.query.streamId, request.query.version),
  );

  app.get<{ Querystring: { key: string } }>(
    '/history/change-of-write',
    {
      onRequest: view,
      schema: {
        summary: 'The change your own write made, by the Idempotency-Key it was sent with: what its Undo reverts',
        tags,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { key: { type: 'string', pattern: '^[\\w.:-]{1,200}$' } },
          required: ['key'],
        },
        response: { 200: changeAtSchema, ...errors },
      },
    },
    async (request) => reverts.changeOfWrite(principalOf(request).uid, request.query.key),
  );

  app.get(
    '/history/counts',
    {
      onRequest: view,
      schema: {
        summary: 'Changes per UTC day over the last 90 days (the time control marks them)',
        tags,
        response: { 200: countsSchema, ...errors },
      },
    },
    async () => asOf.countsByDay(),
  );

  app.get<Between>(
    '/changes',
    {
      onRequest: view,
      schema: {
        summary:
          'Items created, deleted and changed between two moments (to defaults to now): field diffs, stock movement, by category, totals',
        tags,
        querystring: betweenQuery,
        response: { 200: changesSchema, ...errors },
      },
    },
    async (request) => {
      const { from, to } = window(request.query);
      return changes.between(from, to);
    },
  );

  app.get<{ Querystring: Between['Querystring'] & CsvFormatQuery }>(
    '/changes/export.csv',
    {
      onRequest: view,
      config: { export: true }, // never to guests (server/auth/guest-view.ts)
      schema: {
        summary:
          "The same report as CSV (text cells defused against formulas; delimiter and encoding: the file's format)",
        tags,
        querystring: { ...betweenQuery, properties: { ...betweenQuery.properties, ...csvFormatProperties } },
        response: { 200: { type: 'string' }, ...errors },
      },
    },
    async (request, reply) => {
      const { from, to } = window(request.query);
      const format = csvFormatOf(request.query);
      const lines = changesCsv(await changes.between(from, to), format);
      const name =
        `stockroom-changes-${from.toISOString().slice(0, 16)}-to-${to.toISOString().slice(0, 16)}.csv`.replace(
          /:/g,
          '',
        );
      return sendCsv(reply, name, format, () => lines);
    },
  );
};
