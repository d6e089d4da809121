// JSON schemas for the inventory and category routes: request bodies in snake_case,
// responses in the shapes of shared/inventory.ts.
import { ADJUST_REASONS } from '../../shared/inventory.js';
import { namingParams } from '../http/validation.js';

const uuid = { type: 'string', format: 'uuid' } as const;
const idParams = { type: 'object', properties: { id: uuid }, required: ['id'] } as const;
/** An id that is not a uuid names no item: 404 'Item not found', as for an unknown one. */
export const itemIdParams = namingParams(idParams, 'Item not found');
export const categoryIdParams = namingParams(idParams, 'Category not found');
/** `field`: the body field a refusal is about (snake_case), when it is about one: a form marks that input. */
const errorField = {
  type: 'string',
  description: 'the request body field the error is about, when it is about one',
} as const;
export const errorSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, field: errorField },
  required: ['error'],
} as const;

export const itemSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    sku: { type: 'string' },
    category: { type: 'string' },
    categoryId: { type: 'string' },
    category_id: { type: 'string' },
    quantity: { type: 'integer' },
    price: { type: 'number' },
    threshold: { type: 'integer' },
    imageUrl: { type: ['string', 'null'] },
    image_url: { type: ['string', 'null'] },
    expiryDate: { type: ['string', 'null'] },
    barcode: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    version: { type: 'integer' },
    quantityHere: {
      type: 'integer',
      description: 'in a list filtered by siteId or locationId: the units there (quantity stays the total)',
    },
  },
} as const;

export const itemLocationsSchema = {
  type: 'object',
  properties: {
    itemId: { type: 'string' },
    total: { type: 'integer', description: 'the item quantity: the sum over its locations plus inTransit' },
    inTransit: { type: 'integer' },
    locations: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          siteId: { type: 'string' },
          siteName: { type: 'string' },
          locationId: { type: 'string' },
          locationName: { type: 'string' },
          locationCode: { type: 'string' },
          locationPath: {
            type: 'array',
            items: { type: 'string' },
            description: "names from the site's top level down to the location",
          },
          archived: { type: 'boolean' },
          quantity: { type: 'integer' },
        },
      },
    },
  },
} as const;

export const conflictSchema = {
  type: 'object',
  properties: {
    error: { type: 'string' },
    field: errorField,
    current: itemSchema,
    quantity: { type: 'integer', description: "the item's total" },
    available: { type: 'integer', description: 'what the location named by locationId holds' },
    locationId: { type: 'string' },
  },
  required: ['error'],
} as const;

const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;

const itemFields = {
  name: text(200, 1),
  description: text(2000),
  sku: text(64, 1),
  category_id: uuid,
  quantity: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
  price: { type: 'number', minimum: 0, maximum: 9_999_999_999 },
  threshold: { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
  image_url: { type: ['string', 'null'], maxLength: 2000 },
  expiry_date: { type: ['string', 'null'], maxLength: 10 },
  // Checked by shared/barcode.ts in the decision (check digits, at most 48 characters once
  // trimmed); the schema only bounds the size. Empty or null clears it.
  barcode: { type: ['string', 'null'], maxLength: 64 },
} as const;

export const createItemBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'sku', 'category_id', 'quantity', 'price', 'threshold'],
  properties: { ...itemFields, created_by: text(128), location_id: uuid },
} as const;

export const updateItemBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...itemFields, expected_version: { type: 'integer', minimum: 0 } },
} as const;

export const deleteBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { expected_version: { type: 'integer', minimum: 0 } },
} as const;

export const adjustBody = {
  type: 'object',
  additionalProperties: false,
  required: ['delta', 'reason'],
  properties: {
    delta: { type: 'integer', minimum: -1_000_000_000, maximum: 1_000_000_000, not: { const: 0 } },
    reason: { type: 'string', enum: ADJUST_REASONS },
    note: text(500),
    occurredAt: {
      type: 'string',
      format: 'date-time',
      description:
        "when the change was made, by the device's clock, for a change sent later (offline); at most 2 minutes ahead, at most 7 days old",
    },
    locationId: {
      ...uuid,
      description: 'where the stock is taken or put; without it, the default location of your site',
    },
  },
} as const;

export const moveBody = {
  type: 'object',
  additionalProperties: false,
  required: ['itemId', 'fromLocationId', 'toLocationId', 'quantity'],
  properties: {
    itemId: uuid,
    fromLocationId: uuid,
    toLocationId: uuid,
    quantity: { type: 'integer', minimum: 1, maximum: 1_000_000_000 },
    note: text(500),
  },
} as const;

export const categoryBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text(100, 1), description: { type: ['string', 'null'], maxLength: 1000 } },
} as const;

export const updateCategoryBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: text(100, 1),
    description: { type: ['string', 'null'], maxLength: 1000 },
    expected_version: { type: 'integer', minimum: 0 },
  },
} as const;

export const categorySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    itemCount: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    version: { type: 'integer' },
  },
} as const;

const namedLocation = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } as const;

export const historySchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      version: { type: 'integer' },
      type: { type: 'string' },
      actor: { type: 'object', properties: { uid: { type: ['string', 'null'] }, name: { type: 'string' } } },
      timestamp: { type: 'string' },
      reason: { type: ['string', 'null'] },
      note: { type: ['string', 'null'] },
      delta: { type: ['integer', 'null'] },
      countedBy: { type: ['string', 'null'] },
      changes: {
        type: 'array',
        items: { type: 'object', properties: { field: { type: 'string' }, from: {}, to: {} } },
      },
      eventId: { type: 'string' },
      reverts: {
        anyOf: [
          { type: 'null' },
          {
            type: 'object',
            properties: {
              eventId: { type: 'string' },
              summary: { type: 'string' },
              reason: { type: ['string', 'null'] },
            },
          },
        ],
      },
      revertedBy: {
        anyOf: [{ type: 'null' }, { type: 'object', properties: { name: { type: 'string' }, at: { type: 'string' } } }],
      },
      money: { type: 'object', properties: { currency: { type: 'string' }, locale: { type: 'string' } } },
      location: namedLocation,
      moved: {
        type: 'object',
        properties: { quantity: { type: 'integer' }, from: namedLocation, to: namedLocation },
      },
      transfer: {
        type: 'object',
        description: "a transfer's step on the item: which transfer, how many units (and why, for a write-off)",
        properties: {
          id: { type: 'string' },
          number: { type: ['integer', 'null'] },
          quantity: { type: 'integer' },
          reason: { type: 'string' },
        },
      },
    },
  },
} as const;
