// JSON schemas of the /api/alerts routes: strict bodies, and the DTOs of shared/alerts.ts.
import { namingParams } from '../http/validation.js';
export const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
} as const;

/** An itemId that is not a uuid names no item: 404 'Item not found', as for an unknown one. */
export const itemIdParams = namingParams(
  {
    type: 'object',
    additionalProperties: false,
    required: ['itemId'],
    properties: { itemId: { type: 'string', format: 'uuid' } },
  } as const,
  'Item not found',
);

export const alertSchema = {
  type: 'object',
  properties: {
    itemId: { type: 'string' },
    name: { type: 'string' },
    sku: { type: 'string' },
    category: { type: 'string' },
    categoryId: { type: 'string' },
    quantity: { type: 'integer' },
    threshold: { type: 'integer' },
    since: { type: 'string' },
    dismissed: { type: 'boolean' },
    dismissedAt: { type: ['string', 'null'] },
    siteId: { type: ['string', 'null'] },
    siteName: { type: ['string', 'null'] },
  },
} as const;

export const alertsResponse = {
  type: 'object',
  properties: { alerts: { type: 'array', items: alertSchema } },
} as const;

const settingsProperties = {
  inAppToasts: { type: 'boolean' },
  notifyWhen: { type: 'string', enum: ['low', 'out'] },
} as const;

export const alertSettingsSchema = { type: 'object', properties: settingsProperties } as const;

export const alertSettingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['inAppToasts', 'notifyWhen'],
  properties: settingsProperties,
} as const;

/**
 * Dismiss and restore: no body, or an empty object, for the item's own alert; `siteId` for
 * its alert at a site (an alert listed with a siteId).
 */
export const alertTargetBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { siteId: { type: 'string', format: 'uuid' } },
} as const;
