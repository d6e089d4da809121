// JSON schemas for /api/sites and /api/locations: request bodies in snake_case, answers in the
// shapes of shared/sites.ts.
import { PLACE_CODE_MAX } from '../../shared/sites.js';
import { errorSchema } from '../inventory/schemas.js';
import { namingParams } from '../http/validation.js';

const uuid = { type: 'string', format: 'uuid' } as const;
const idParams = { type: 'object', properties: { id: uuid }, required: ['id'] } as const;
export const siteIdParams = namingParams(idParams, 'Site not found');
export const locationIdParams = namingParams(idParams, 'Location not found');

const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const nullableTime = { type: ['string', 'null'] } as const;
const expectedVersion = { type: 'integer', minimum: 0 } as const;

export const siteSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    code: { type: 'string' },
    address: { type: 'string' },
    timeZone: { type: 'string' },
    defaultLocationId: { type: ['string', 'null'] },
    archivedAt: nullableTime,
    version: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

export const locationSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    siteId: { type: 'string' },
    parentId: { type: ['string', 'null'] },
    name: { type: 'string' },
    code: { type: 'string' },
    barcode: { type: ['string', 'null'] },
    archivedAt: nullableTime,
    version: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

export const foundLocationSchema = {
  ...locationSchema,
  properties: { ...locationSchema.properties, path: { type: 'array', items: { type: 'string' } } },
} as const;

/** A refusal; on a version conflict, `current` is the site or location as it is now. */
const refusalSchema = {
  ...errorSchema,
  properties: { ...errorSchema.properties, current: { type: 'object', additionalProperties: true } },
} as const;

export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: refusalSchema,
} as const;

const siteFields = {
  name: text(100, 1),
  code: text(PLACE_CODE_MAX, 1),
  address: text(500),
  time_zone: { ...text(64, 1), description: 'an IANA time zone, for example Europe/Paris' },
} as const;

export const createSiteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'code', 'time_zone'],
  properties: siteFields,
} as const;

export const updateSiteBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...siteFields,
    default_location_id: { ...uuid, description: 'where stock goes at the site when no location is named' },
    expected_version: expectedVersion,
  },
} as const;

const locationFields = {
  name: text(100, 1),
  code: text(PLACE_CODE_MAX, 1),
  barcode: { type: ['string', 'null'], maxLength: 64, description: "the label's barcode; empty or null: none" },
} as const;

export const createLocationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['site_id', 'name', 'code'],
  properties: { ...locationFields, site_id: uuid, parent_id: { type: ['string', 'null'], format: 'uuid' } },
} as const;

export const updateLocationBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...locationFields, expected_version: expectedVersion },
} as const;

export const moveLocationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['parent_id'],
  properties: {
    parent_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: "the new parent, in the same site; null: the site's top level",
    },
    expected_version: expectedVersion,
  },
} as const;

export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;

export const locationsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { siteId: uuid },
} as const;

export const findLocationQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { siteId: uuid, code: text(PLACE_CODE_MAX, 1), barcode: text(64, 1) },
} as const;
