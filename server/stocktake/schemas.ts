// JSON schemas of the /api/stocktakes routes: strict bodies, and the DTOs of shared/stocktake.ts.
import { STOCKTAKE_SCOPES } from '../../shared/stocktake.js';
import { namingParams } from '../http/validation.js';

const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
} as const;

const uuid = { type: 'string', format: 'uuid' } as const;

export const stocktakeParams = namingParams(
  { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuid } } as const,
  'Stocktake not found',
);

export const lineParams = namingParams(
  {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'itemId'],
    properties: { id: uuid, itemId: uuid },
  } as const,
  'Stocktake not found',
);

export const startBody = {
  type: 'object',
  additionalProperties: false,
  required: ['scope'],
  properties: {
    name: {
      type: 'string',
      maxLength: 100,
      description:
        'defaults to "Count: <category>", "Count: <category>, <category>", "Count: N items", "Count: low stock" or "Count: whole store"',
    },
    scope: { type: 'string', enum: STOCKTAKE_SCOPES },
    categoryId: { ...uuid, description: 'for scope "category"' },
    categoryIds: {
      type: 'array',
      items: uuid,
      minItems: 1,
      maxItems: 1_000,
      uniqueItems: true,
      description: 'for scope "categories"',
    },
    itemIds: {
      type: 'array',
      items: uuid,
      minItems: 1,
      maxItems: 10_000,
      uniqueItems: true,
      description: 'for scope "items"',
    },
    siteId: {
      ...uuid,
      description: "the site to count, all its locations (neither this nor locationId: the caller's site)",
    },
    locationId: { ...uuid, description: 'the location to count, with the locations inside it' },
  },
} as const;

export const countBody = {
  type: 'object',
  additionalProperties: false,
  required: ['itemId', 'counted', 'countedAt'],
  properties: {
    itemId: uuid,
    locationId: {
      ...uuid,
      description: "where it was counted (one of the session's locations); absent: the session's first location",
    },
    counted: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
    countedAt: {
      type: 'string',
      format: 'date-time',
      description: "when it was counted, by the counting device's clock",
    },
  },
} as const;

export const approveLineBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    countId: { ...uuid, description: 'which count to post, when the item was counted twice with different numbers' },
    locationId: {
      ...uuid,
      description: "which of the item's lines, when it is counted at several locations (a countId implies its own)",
    },
  },
} as const;

export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;

const nullableInt = { type: ['integer', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

const countSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    itemId: { type: 'string' },
    locationId: { type: 'string' },
    counted: { type: 'integer' },
    countedAt: { type: 'string' },
    countedBy: { type: 'string' },
    expected: nullableInt,
    difference: nullableInt,
  },
} as const;

export const countResponse = countSchema;

const summaryProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  scope: { type: 'string', enum: STOCKTAKE_SCOPES },
  categoryId: { type: ['string', 'null'] },
  siteId: { type: 'string' },
  siteName: { type: 'string' },
  locationId: { type: ['string', 'null'] },
  placeName: { type: 'string' },
  status: { type: 'string', enum: ['open', 'closed'] },
  startedAt: { type: 'string' },
  startedBy: { type: 'string' },
  closedAt: { type: ['string', 'null'] },
  toCount: { type: 'integer' },
  counted: { type: 'integer' },
  conflicts: { type: 'integer' },
  approved: { type: 'integer' },
  version: { type: 'integer' },
} as const;

export const listResponse = {
  type: 'object',
  properties: { stocktakes: { type: 'array', items: { type: 'object', properties: summaryProperties } } },
} as const;

export const sessionResponse = {
  type: 'object',
  properties: {
    ...summaryProperties,
    showsVariance: { type: 'boolean' },
    locations: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    },
    totals: {
      type: 'object',
      properties: {
        expected: nullableInt,
        counted: { type: 'integer' },
        difference: nullableInt,
        value: nullableNumber,
      },
    },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          itemId: { type: 'string' },
          locationId: { type: 'string' },
          locationName: { type: 'string' },
          name: { type: 'string' },
          sku: { type: 'string' },
          barcode: { type: ['string', 'null'] },
          price: { type: 'number' },
          status: { type: 'string', enum: ['uncounted', 'counted', 'conflict', 'approved'] },
          counted: nullableInt,
          countedAt: { type: ['string', 'null'] },
          expected: nullableInt,
          difference: nullableInt,
          value: nullableNumber,
          countedBy: { type: ['string', 'null'] },
          approvedAt: { type: ['string', 'null'] },
          approvedBy: { type: ['string', 'null'] },
          counts: { type: 'array', items: countSchema },
        },
      },
    },
  },
} as const;
