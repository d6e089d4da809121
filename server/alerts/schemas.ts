// JSON schemas of the /api/alerts routes: strict bodies, and the DTOs of shared/alerts.ts.
export const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema } as const;

export const itemIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['itemId'],
  properties: { itemId: { type: 'string', format: 'uuid' } },
} as const;

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
  },
} as const;

export const alertsResponse = { type: 'object', properties: { alerts: { type: 'array', items: alertSchema } } } as const;

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

/** Dismiss and restore take no input: no body, or an empty object. */
export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;
