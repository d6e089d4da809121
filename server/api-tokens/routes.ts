// /api/tokens: managers (settings:manage) list, create and revoke API tokens. Thin routes.
import type { FastifyPluginAsync } from 'fastify';
import type { CreateApiToken } from '../../shared/api-tokens.js';
import { ALL_PERMISSIONS } from '../../shared/permissions.js';
import { principalOf, requirePermission } from '../auth/auth-plugin.js';
import { commandMeta } from '../http/command-meta.js';
import { namingParams } from '../http/validation.js';
import type { ApiTokenService } from './token-service.js';

const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema } as const;

const apiTokenSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    userId: { type: 'string' },
    userName: { type: 'string' },
    permissions: { type: 'array', items: { type: 'string' } },
    expiresAt: { type: 'string' },
    createdAt: { type: 'string' },
    revokedAt: { type: ['string', 'null'] },
    lastUsedAt: { type: ['string', 'null'], description: 'to the minute' },
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
  },
} as const;

const createdSchema = {
  type: 'object',
  properties: {
    apiToken: apiTokenSchema,
    token: {
      type: ['string', 'null'],
      description: 'srk_…, in the first answer only; null in a replay (same Idempotency-Key)',
    },
    secretShownOnce: {
      type: 'boolean',
      description:
        'true in a replay: the token was shown once and is not kept (revoke it and create another if it was lost)',
    },
  },
} as const;

const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'expiresAt', 'permissions'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    expiresAt: { type: 'string', format: 'date-time', description: 'within a year' },
    permissions: {
      type: 'array',
      items: { type: 'string', enum: ALL_PERMISSIONS },
      minItems: 1,
      uniqueItems: true,
      description: 'at most your own',
    },
  },
} as const;

const idParams = namingParams(
  {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string', format: 'uuid' } },
  } as const,
  'API token not found',
);

export const apiTokenRoutes: FastifyPluginAsync<{ tokens: ApiTokenService }> = async (app, { tokens }) => {
  const manage = requirePermission('settings:manage');
  const tags = ['api tokens'];
  const description =
    "Send `Authorization: Bearer srk_…` on any API route: the request runs as the token's owner with the token's permissions " +
    '(never more than the owner has now), under its own rate limit, and shows in history as "{user} via {token name}".';

  app.get(
    '/tokens',
    {
      onRequest: manage,
      schema: {
        summary: 'API tokens, newest first, with last use',
        description,
        tags,
        response: {
          200: { type: 'object', properties: { tokens: { type: 'array', items: apiTokenSchema } } },
          ...errors,
        },
      },
    },
    async () => ({
      tokens: await tokens.list(),
    }),
  );

  app.post<{ Body: CreateApiToken }>(
    '/tokens',
    {
      onRequest: manage,
      // Never stored with the answer to an Idempotency-Key: a replay says it was shown once.
      config: { secretFields: ['token'] },
      schema: {
        summary: 'Create a token; answers it (srk_…) this once',
        description,
        tags,
        body: createBody,
        response: { 201: createdSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return tokens.create(principalOf(request), request.body, commandMeta(request));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/tokens/:id',
    {
      onRequest: manage,
      schema: {
        summary: 'Revoke a token at once',
        tags,
        params: idParams,
        response: { 200: apiTokenSchema, ...errors },
      },
    },
    async (request) => tokens.revoke(request.params.id, commandMeta(request)),
  );
};
