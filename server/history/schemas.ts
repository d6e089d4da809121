// Schemas of the undo/revert, as-of and compare routes (shapes of shared/inventory-history.ts).
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) =>
  ({ type: 'object', additionalProperties: false, properties, required }) as const;
const text = { type: 'string' } as const;
const textOrNull = { type: ['string', 'null'] } as const;
const any = {} as const;

/** `revertedBy`: on the 409 for a change already reverted, who reverted it and when (ISO). */
export const errorSchema = obj(
  { error: text, quantity: { type: 'integer' }, revertedBy: obj({ name: text, at: text }) },
  ['error'],
);
export const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
} as const;

export const eventIdParams = obj({ eventId: { type: 'string', maxLength: 64 } });

/** An instant: ISO 8601 date-time. */
export const moment = { type: 'string', format: 'date-time' } as const;

export const asOfQuery = { asOf: moment } as const;

export const revertBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    reason: { type: 'string', maxLength: 500 },
    fields: { type: 'array', maxItems: 20, uniqueItems: true, items: { type: 'string', maxLength: 40 } },
  },
} as const;

const actor = obj({ uid: textOrNull, name: text });

export const revertPlanSchema = obj({
  eventId: text,
  kind: {
    type: 'string',
    enum: [
      'adjust',
      'move',
      'edit',
      'create',
      'delete',
      'category-create',
      'category-edit',
      'category-delete',
      'transfer-shipment',
      'transfer-receipt',
      'transfer-write-off',
    ],
  },
  resourceType: { type: 'string', enum: ['inventory', 'category', 'stocktake', 'transfer'] },
  resourceId: text,
  resourceName: text,
  summary: text,
  actor,
  timestamp: text,
  fields: {
    type: 'array',
    items: obj({
      field: text,
      restore: any,
      edited: any,
      current: any,
      changedSince: { anyOf: [{ type: 'null' }, obj({ by: text, at: text })] },
    }),
  },
  delta: { type: ['integer', 'null'] },
  revertedBy: { anyOf: [{ type: 'null' }, obj({ name: text, at: text })] },
  blocked: textOrNull,
});

export const revertResultSchema = obj({
  reverted: { type: 'array', items: text },
  revertingEventIds: { type: 'array', items: text },
  resourceType: { type: 'string', enum: ['inventory', 'category', 'stocktake', 'transfer'] },
  resourceId: text,
  summary: text,
});

export const changeAtSchema = obj({ eventId: text, type: text });

const itemChange = obj({
  itemId: text,
  name: text,
  sku: text,
  status: { type: 'string', enum: ['created', 'deleted', 'changed'] },
  categoryId: text,
  category: text,
  diffs: { type: 'array', items: obj({ field: text, from: any, to: any }) },
  stockMovement: { type: 'integer' },
  valueMovement: { type: 'number' },
});

export const changesSchema = obj({
  from: text,
  to: text,
  groups: {
    type: 'array',
    items: obj({
      categoryId: text,
      category: text,
      items: { type: 'array', items: itemChange },
      created: { type: 'integer' },
      deleted: { type: 'integer' },
      changed: { type: 'integer' },
      stockMovement: { type: 'integer' },
    }),
  },
  totals: obj({
    created: { type: 'integer' },
    deleted: { type: 'integer' },
    changed: { type: 'integer' },
    stockMovement: { type: 'integer' },
    valueMovement: { type: 'number' },
  }),
});

export const countsSchema = obj({
  firstRecordAt: textOrNull,
  days: { type: 'array', items: obj({ day: text, events: { type: 'integer' } }) },
});
