// JSON schemas of /api/webhooks: strict bodies, the shapes of shared/webhooks.ts, and the
// payload every endpoint receives (documented in OpenAPI with how to check its signature).
import { WEBHOOK_EVENT_KEYS } from '../../shared/webhooks.js';
import { namingParams } from '../http/validation.js';

export const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
} as const;

export const endpointIdParams = namingParams(
  {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string', format: 'uuid' } },
  } as const,
  'Webhook endpoint not found',
);

const subscription = { type: 'string', enum: ['*', ...WEBHOOK_EVENT_KEYS] } as const;
const fieldProperties = {
  url: {
    type: 'string',
    minLength: 1,
    maxLength: 2000,
    description:
      'https (http to localhost only in emulator/demo mode); never a private or local address (loopback only in emulator/demo mode), checked again on the resolved address when sending',
  },
  description: { type: 'string', maxLength: 200 },
  eventTypes: { type: 'array', items: subscription, minItems: 1, uniqueItems: true, description: "'*' for every type" },
  categoryIds: {
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    uniqueItems: true,
    maxItems: 100,
    description: 'empty: every category',
  },
  siteIds: {
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    uniqueItems: true,
    maxItems: 100,
    description:
      "empty: every site; else only events of these sites and those tied to no site (never the store's low-stock crossings)",
  },
  enabled: { type: 'boolean' },
} as const;

export const createEndpointBody = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'eventTypes'],
  properties: fieldProperties,
} as const;

export const updateEndpointBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...fieldProperties,
    version: { type: 'integer', minimum: 1, description: 'the version you loaded (409 if it moved)' },
  },
} as const;

export const replayBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cursor: {
      type: 'string',
      pattern: '^\\d{1,20}:\\d{1,20}$',
      description: 'deliver every event after this cursor (from a payload)',
    },
    from: { type: 'string', format: 'date-time', description: 'deliver every event from this moment on' },
  },
  oneOf: [{ required: ['cursor'] }, { required: ['from'] }],
} as const;

export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

export const endpointSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    description: { type: 'string' },
    eventTypes: { type: 'array', items: { type: 'string' } },
    categoryIds: { type: 'array', items: { type: 'string' } },
    siteIds: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    disabledReason: { type: ['string', 'null'] },
    version: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    cursor: { type: 'string', description: 'delivered everything up to here' },
    failingSince: { type: ['string', 'null'] },
    nextAttemptAt: { type: ['string', 'null'] },
  },
} as const;

export const createdEndpointSchema = {
  type: 'object',
  properties: {
    endpoint: endpointSchema,
    secret: {
      type: ['string', 'null'],
      description: 'whsec_… signing secret: shown this once; null in a replay (same Idempotency-Key)',
    },
    secretShownOnce: {
      type: 'boolean',
      description:
        'true in a replay: the secret was shown once and is not kept (remove the endpoint and add it again if it was lost)',
    },
  },
} as const;

export const deliverySchema = {
  type: 'object',
  properties: {
    messageId: { type: 'string', description: 'the webhook-id header (the event id)' },
    eventType: { type: 'string' },
    cursor: { type: ['string', 'null'] },
    test: { type: 'boolean' },
    status: { type: 'string', enum: ['pending', 'delivered', 'retrying', 'failed'] },
    attempts: { type: 'integer' },
    responseCode: { type: ['integer', 'null'] },
    latencyMs: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

/** What an endpoint receives (POST, JSON). Documented on GET /webhooks/payload-schema. */
export const payloadSchema = {
  type: 'object',
  description: `Standard Webhooks (standardwebhooks.com). Headers: webhook-id (the event id; the same on every retry of
a message, so use it to drop duplicates), webhook-timestamp (unix seconds), webhook-signature ("v1,<base64 HMAC-SHA256 of
id.timestamp.body>" keyed with the secret's bytes after "whsec_"). Verify with any Standard Webhooks library, e.g.
new Webhook(secret).verify(rawBody, headers). Delivery is at least once, in log order per endpoint; retries back off
exponentially for up to 24 hours on timeouts, network errors, 429 and 5xx (Retry-After honoured).`,
  properties: {
    type: { type: 'string', enum: [...WEBHOOK_EVENT_KEYS, 'webhook.test'] },
    timestamp: { type: 'string', format: 'date-time' },
    data: {
      type: 'object',
      properties: {
        cursor: {
          type: ['string', 'null'],
          description: "the event's place in the log: POST /webhooks/{id}/replay {cursor} resends everything after it",
        },
        event: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            type: {
              type: 'string',
              description:
                'ItemCreated, ItemUpdated, ItemDeleted, StockAdjusted, StockMoved, ItemWentLow, ItemRecovered, Category…',
            },
            stream: { type: 'string', description: 'item-<id> or category-<id>' },
            streamVersion: { type: 'integer' },
            data: { type: 'object', additionalProperties: true },
            actor: { type: 'string', description: 'who did it ("{user} via {token name}" for API tokens)' },
            createdAt: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  },
} as const;
