// Response schemas of the /api/dashboard routes (the DTOs of shared/dashboard.ts).
import { activityEntrySchema } from '../activity/schemas.js';
export const errorSchema = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } as const;
export const errors = { 401: errorSchema, 403: errorSchema } as const;
/** A display of a place may also name a place that is none (404) or two at once (400). */
export const displayErrors = { ...errors, 400: errorSchema, 404: errorSchema } as const;

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties }) as const;
const numberOrNull = { type: ['number', 'null'] } as const;
const money = obj({ currency: { type: 'string' }, locale: { type: 'string' } });

export const summarySchema = obj({
  generatedAt: { type: 'string' },
  totals: obj({
    items: { type: 'integer' },
    categories: { type: 'integer' },
    units: { type: 'integer' },
    value: { type: 'number' },
    lowStock: { type: 'integer' },
  }),
  revenue: obj({
    last30Days: { type: 'number' },
    previous30Days: { type: 'number' },
    changePercent: numberOrNull,
    unitsSold: { type: 'integer' },
    forecastNext30Days: numberOrNull,
    forecastBasisDays: { type: 'integer' },
  }),
  topSelling: {
    type: 'array',
    items: obj({
      itemId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      sold: { type: 'integer' },
      revenue: { type: 'number' },
    }),
  },
  nearExpiry: {
    type: 'array',
    items: obj({
      itemId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      quantity: { type: 'integer' },
      expiryDate: { type: 'string' },
      daysLeft: { type: 'integer' },
    }),
  },
  recentActivity: { type: 'array', items: activityEntrySchema },
  health: obj({
    stockLevelPercent: numberOrNull,
    itemsAboveThreshold: { type: 'integer' },
    turnover: numberOrNull,
    reorderAlerts: obj({ open: { type: 'integer' }, raisedLast30Days: { type: 'integer' } }),
    avgRestockHours: numberOrNull,
    restocksCounted: { type: 'integer' },
  }),
  stockValue: {
    type: 'array',
    items: obj({ date: { type: 'string' }, value: { type: 'number' }, units: { type: 'integer' } }),
  },
  money,
  lowStockBySite: {
    type: ['array', 'null'],
    items: obj({
      siteId: { type: 'string' },
      siteName: { type: 'string' },
      count: { type: 'integer' },
      out: { type: 'integer' },
    }),
  },
});

export const displaySchema = obj({
  generatedAt: { type: 'string' },
  storeName: { type: 'string' },
  alerts: {
    type: 'array',
    items: obj({
      itemId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      quantity: { type: 'integer' },
      threshold: { type: 'integer' },
      since: { type: 'string' },
      siteId: { type: ['string', 'null'] },
      siteName: { type: ['string', 'null'] },
    }),
  },
  alertCount: { type: 'integer' },
  categories: {
    type: 'array',
    items: obj({
      categoryId: { type: 'string' },
      name: { type: 'string' },
      itemCount: { type: 'integer' },
      units: { type: 'integer' },
      value: { type: 'number' },
      lowCount: { type: 'integer' },
    }),
  },
  recentActivity: { type: 'array', items: activityEntrySchema },
  money,
  place: {
    type: ['object', 'null'],
    properties: {
      kind: { type: 'string' },
      id: { type: 'string' },
      name: { type: 'string' },
      siteName: { type: 'string' },
    },
  },
});
