// /api/webhooks: managers (settings:manage) list, create, change and remove endpoints, read
// their delivery log, send a test event and replay from a cursor or a moment. Thin routes.
import type { FastifyPluginAsync } from 'fastify';
import type { WebhookEndpointFields } from '../../shared/webhooks.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import type { Principal } from '../auth/principal.js';
import { assertMaySeeSite, atEverySite, maySeeSite } from '../auth/site-access.js';
import { ForbiddenError } from '../errors.js';
import { commandMeta } from '../http/command-meta.js';
import type { WebhookService } from './webhook-service.js';
import {
  createEndpointBody,
  createdEndpointSchema,
  deliverySchema,
  emptyBody,
  endpointIdParams,
  endpointSchema,
  errors,
  payloadSchema,
  replayBody,
  updateEndpointBody,
} from './schemas.js';

type WithId = { Params: { id: string } };
type CreateBody = Omit<WebhookEndpointFields, 'description' | 'categoryIds' | 'enabled'> &
  Partial<WebhookEndpointFields>;

/** Whether an endpoint's site filter keeps to the sites the principal may see (an empty one sends every site's). */
function withinSites(principal: Principal, siteIds: readonly string[] | undefined): boolean {
  return Boolean(siteIds?.length) && siteIds!.every((siteId) => maySeeSite(principal, siteId));
}

/**
 * Those whose role holds at some sites only send out events of their sites only: their
 * endpoints filter by site, within the sites they may see (roles per site).
 */
function requireSitesWithin(principal: Principal, siteIds: readonly string[] | undefined): void {
  if (atEverySite(principal)) return;
  if (!siteIds?.length) throw new ForbiddenError("Choose the sites this endpoint sends: you don't work at every site");
  for (const siteId of siteIds) assertMaySeeSite(principal, siteId, () => 'a site you may not see');
}

export const webhookRoutes: FastifyPluginAsync<{ webhooks: WebhookService }> = async (app, { webhooks }) => {
  const manage = requirePermission('settings:manage');

  /**
   * Someone limited to some sites reads and changes only the endpoints that send their sites'
   * events, and (a change of its sites) keeps them so.
   */
  async function requireEndpointWithin(principal: Principal, id: string, changed: string[] | undefined) {
    if (atEverySite(principal)) return;
    if (!withinSites(principal, (await webhooks.get(id)).siteIds))
      throw new ForbiddenError('This endpoint sends events of sites you may not see');
    if (changed !== undefined) requireSitesWithin(principal, changed);
  }
  const tags = ['webhooks'];

  app.get(
    '/webhooks',
    {
      onRequest: manage,
      schema: {
        summary: 'Webhook endpoints and where each is in the log',
        tags,
        response: {
          200: { type: 'object', properties: { endpoints: { type: 'array', items: endpointSchema } } },
          ...errors,
        },
      },
    },
    async (request) => {
      const endpoints = await webhooks.list();
      const principal = principalOf(request);
      // Someone limited to some sites lists the endpoints that send their sites' events only.
      if (atEverySite(principal)) return { endpoints };
      return { endpoints: endpoints.filter((e) => withinSites(principal, e.siteIds)) };
    },
  );

  app.get(
    '/webhooks/payload-schema',
    {
      onRequest: manage,
      schema: {
        summary: 'What an endpoint receives, and how to check its signature',
        tags,
        response: { 200: { type: 'object', additionalProperties: true } },
      },
    },
    async () => payloadSchema,
  );

  app.post<{ Body: CreateBody }>(
    '/webhooks',
    {
      onRequest: manage,
      // Never stored with the answer to an Idempotency-Key: a replay says it was shown once.
      config: { secretFields: ['secret'] },
      schema: {
        summary: 'Add an endpoint; answers its signing secret, shown once',
        tags,
        body: createEndpointBody,
        response: { 201: createdEndpointSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { url, eventTypes, description = '', categoryIds = [], siteIds = [], enabled = true } = request.body;
      requireSitesWithin(principalOf(request), siteIds);
      reply.status(201);
      return webhooks.create({ url, eventTypes, description, categoryIds, siteIds, enabled }, commandMeta(request));
    },
  );

  app.get<WithId>(
    '/webhooks/:id',
    {
      onRequest: manage,
      schema: { summary: 'One endpoint', tags, params: endpointIdParams, response: { 200: endpointSchema, ...errors } },
    },
    async (request) => {
      await requireEndpointWithin(principalOf(request), request.params.id, undefined);
      return webhooks.get(request.params.id);
    },
  );

  app.patch<WithId & { Body: Partial<WebhookEndpointFields> & { version?: number } }>(
    '/webhooks/:id',
    {
      onRequest: manage,
      schema: {
        summary: 'Change an endpoint (switch it on again after it was disabled)',
        tags,
        params: endpointIdParams,
        body: updateEndpointBody,
        response: { 200: endpointSchema, ...errors },
      },
    },
    async (request) => {
      const { version, ...changes } = request.body;
      await requireEndpointWithin(principalOf(request), request.params.id, changes.siteIds);
      return webhooks.update(request.params.id, changes, commandMeta(request), version);
    },
  );

  app.delete<WithId>(
    '/webhooks/:id',
    {
      onRequest: manage,
      schema: {
        summary: 'Remove an endpoint and its delivery log',
        tags,
        params: endpointIdParams,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await requireEndpointWithin(principalOf(request), request.params.id, undefined);
      await webhooks.remove(request.params.id, commandMeta(request));
      return reply.status(204).send();
    },
  );

  app.get<WithId>(
    '/webhooks/:id/deliveries',
    {
      onRequest: manage,
      schema: {
        summary: 'Recent deliveries, newest first',
        tags,
        params: endpointIdParams,
        response: {
          200: { type: 'object', properties: { deliveries: { type: 'array', items: deliverySchema } } },
          ...errors,
        },
      },
    },
    async (request) => {
      await webhooks.get(request.params.id);
      await requireEndpointWithin(principalOf(request), request.params.id, undefined);
      return { deliveries: await webhooks.deliveries(request.params.id) };
    },
  );

  app.post<WithId>(
    '/webhooks/:id/test',
    {
      onRequest: manage,
      schema: {
        summary: 'Send a test event (type webhook.test) in the background',
        tags,
        params: endpointIdParams,
        body: emptyBody,
        response: { 202: deliverySchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireEndpointWithin(principalOf(request), request.params.id, undefined);
      reply.status(202);
      return webhooks.sendTest(request.params.id);
    },
  );

  app.post<WithId & { Body: { cursor?: string; from?: string } }>(
    '/webhooks/:id/replay',
    {
      onRequest: manage,
      schema: {
        summary: 'Deliver again everything after a cursor, or from a moment',
        tags,
        params: endpointIdParams,
        body: replayBody,
        response: { 200: endpointSchema, ...errors },
      },
    },
    async (request) => {
      await requireEndpointWithin(principalOf(request), request.params.id, undefined);
      return webhooks.replay(request.params.id, request.body);
    },
  );
};
