// /api/transfers: thin — a schema, a guard, one call. Reading needs View inventory (and shows
// only transfers from or to a site the caller may see); every step needs Update stock levels,
// checked again by the service at the site the step is done at (auth/site-access.ts).
import type { FastifyPluginAsync } from 'fastify';
import type {
  CreateTransferBody,
  ReceiveTransferBody,
  TransferStatus,
  WriteOffTransferBody,
} from '../../shared/transfers.js';
import { requirePermission } from '../auth/auth-plugin.js';
import type { Principal } from '../auth/principal.js';
import { visibleSites } from '../auth/site-access.js';
import { UnauthorizedError } from '../errors.js';
import { commandMeta } from '../http/command-meta.js';
import {
  cancelTransferBody,
  createTransferBody,
  errors,
  receiveTransferBody,
  transferIdParams,
  transferSchema,
  transfersQuery,
  transferSummarySchema,
  writeOffTransferBody,
} from './schemas.js';
import type { TransferQueries } from './transfer-queries.js';
import type { TransferService } from './transfer-service.js';

const mayView = requirePermission('inventory:view');
const mayMoveStock = requirePermission('stock:update');

type WithId = { Params: { id: string } };
const tags = ['transfers'];

export const transferRoutes: FastifyPluginAsync<{ transfers: TransferService; queries: TransferQueries }> = async (
  app,
  { transfers, queries },
) => {
  const principalOf = (request: { principal?: Principal | null }) => {
    if (!request.principal) throw new UnauthorizedError();
    return request.principal;
  };

  app.get<{ Querystring: { status?: TransferStatus | 'open' | 'in-transit'; siteId?: string; limit?: number } }>(
    '/transfers',
    {
      onRequest: mayView,
      schema: {
        summary:
          'Transfers from or to the sites the caller may see, newest first; by status (open: not received yet, in-transit: shipped and not all received) and site',
        tags,
        querystring: transfersQuery,
        response: { 200: { type: 'array', items: transferSummarySchema }, ...errors },
      },
    },
    (request) => queries.list(request.query, visibleSites(principalOf(request))),
  );

  app.get<WithId>(
    '/transfers/:id',
    {
      onRequest: mayView,
      schema: {
        summary: 'One transfer with its lines: each line shipped, received, written off and still in transit',
        tags,
        params: transferIdParams,
        response: { 200: transferSchema, ...errors },
      },
    },
    (request) => queries.get(request.params.id, visibleSites(principalOf(request))),
  );

  app.post<{ Body: CreateTransferBody }>(
    '/transfers',
    {
      onRequest: mayMoveStock,
      schema: {
        summary:
          'Draft a transfer between two sites: lines of an item, a location of the source site and a quantity (one line per item). Nothing moves until it is shipped',
        tags,
        body: createTransferBody,
        response: { 201: transferSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await transfers.create(request.body, principalOf(request), commandMeta(request))),
  );

  app.post<WithId>(
    '/transfers/:id/ship',
    {
      onRequest: mayMoveStock,
      schema: {
        summary:
          "Ship a draft: every line's units leave their location and are in transit. 409 'Insufficient stock of … at …' for more than is there, with nothing shipped",
        tags,
        params: transferIdParams,
        response: { 200: transferSchema, ...errors },
      },
    },
    (request) => transfers.ship(request.params.id, principalOf(request), commandMeta(request)),
  );

  app.post<WithId & { Body: ReceiveTransferBody }>(
    '/transfers/:id/receive',
    {
      onRequest: mayMoveStock,
      schema: {
        summary:
          'Receive units in transit at a location of the destination site, per line; what is not received stays in transit. 409 for more than a line has in transit',
        tags,
        params: transferIdParams,
        body: receiveTransferBody,
        response: { 200: transferSchema, ...errors },
      },
    },
    (request) => transfers.receive(request.params.id, request.body, principalOf(request), commandMeta(request)),
  );

  app.post<WithId & { Body: WriteOffTransferBody }>(
    '/transfers/:id/write-off',
    {
      onRequest: mayMoveStock,
      schema: {
        summary:
          'Write off units in transit that will never arrive, per line (all the line has in transit when no quantity is given), with a reason: a loss',
        tags,
        params: transferIdParams,
        body: writeOffTransferBody,
        response: { 200: transferSchema, ...errors },
      },
    },
    (request) => transfers.writeOff(request.params.id, request.body, principalOf(request), commandMeta(request)),
  );

  app.post<WithId & { Body: { reason?: string } | null }>(
    '/transfers/:id/cancel',
    {
      onRequest: mayMoveStock,
      schema: {
        summary: 'Cancel a draft (a shipped transfer is received or written off instead)',
        tags,
        params: transferIdParams,
        body: cancelTransferBody,
        response: { 200: transferSchema, ...errors },
      },
    },
    (request) =>
      transfers.cancel(request.params.id, request.body?.reason ?? null, principalOf(request), commandMeta(request)),
  );
};
