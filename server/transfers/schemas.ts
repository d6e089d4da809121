// JSON schemas for /api/transfers: request bodies in camelCase, as POST /api/moves takes them,
// and answers in the shapes of shared/transfers.ts.
import { MAX_TRANSFER_LINES, TRANSFER_STATUSES } from '../../shared/transfers.js';
import { errorSchema } from '../inventory/schemas.js';
import { namingParams } from '../http/validation.js';

const uuid = { type: 'string', format: 'uuid' } as const;
const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const units = { type: 'integer', minimum: 1, maximum: 1_000_000_000 } as const;
const nullableTime = { type: ['string', 'null'] } as const;

export const transferIdParams = namingParams(
  { type: 'object', properties: { id: uuid }, required: ['id'] } as const,
  'Transfer not found',
);

export const transfersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: {
      type: 'string',
      enum: [...TRANSFER_STATUSES, 'open', 'in-transit'],
      description: 'open: draft, shipped or partly received; in-transit: shipped or partly received',
    },
    siteId: { ...uuid, description: 'transfers from or to this site' },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 200 },
  },
} as const;

export const createTransferBody = {
  type: 'object',
  additionalProperties: false,
  required: ['fromSiteId', 'toSiteId', 'lines'],
  properties: {
    fromSiteId: uuid,
    toSiteId: uuid,
    note: text(500),
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TRANSFER_LINES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['itemId', 'fromLocationId', 'quantity'],
        properties: { itemId: uuid, fromLocationId: uuid, quantity: units },
      },
    },
  },
} as const;

export const receiveTransferBody = {
  type: 'object',
  additionalProperties: false,
  required: ['toLocationId', 'lines'],
  properties: {
    toLocationId: { ...uuid, description: 'a location of the destination site' },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TRANSFER_LINES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['itemId', 'quantity'],
        properties: { itemId: uuid, quantity: units },
      },
    },
  },
} as const;

export const writeOffTransferBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'lines'],
  properties: {
    reason: text(200, 1),
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TRANSFER_LINES,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['itemId'],
        properties: { itemId: uuid, quantity: { ...units, description: 'absent: all the line has in transit' } },
      },
    },
  },
} as const;

export const cancelTransferBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { reason: text(200) },
} as const;

const summaryProperties = {
  id: { type: 'string' },
  number: { type: 'integer' },
  fromSiteId: { type: 'string' },
  fromSiteName: { type: 'string' },
  toSiteId: { type: 'string' },
  toSiteName: { type: 'string' },
  note: { type: ['string', 'null'] },
  status: { type: 'string', enum: TRANSFER_STATUSES },
  lineCount: { type: 'integer' },
  units: { type: 'integer' },
  received: { type: 'integer' },
  writtenOff: { type: 'integer' },
  inTransit: { type: 'integer' },
  createdBy: { type: 'string' },
  createdAt: { type: 'string' },
  updatedAt: { type: 'string' },
  shippedAt: nullableTime,
  closedAt: nullableTime,
  version: { type: 'integer' },
} as const;

export const transferSummarySchema = { type: 'object', properties: summaryProperties } as const;

export const transferSchema = {
  type: 'object',
  properties: {
    ...summaryProperties,
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          itemId: { type: 'string' },
          itemName: { type: 'string' },
          sku: { type: 'string' },
          fromLocationId: { type: 'string' },
          fromLocationName: { type: 'string' },
          quantity: { type: 'integer' },
          received: { type: 'integer' },
          writtenOff: { type: 'integer' },
          inTransit: { type: 'integer' },
        },
      },
    },
  },
} as const;

/** A refusal; one about a line names its item, and the units at its location or in transit. */
const refusalSchema = {
  ...errorSchema,
  properties: {
    ...errorSchema.properties,
    itemId: { type: 'string' },
    locationId: { type: 'string' },
    available: { type: 'integer' },
    inTransit: { type: 'integer' },
  },
} as const;

export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: refusalSchema,
  422: errorSchema,
} as const;
