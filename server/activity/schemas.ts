// The activity entry's response schema, shared by /api/activity and the dashboard.
export const activityEntrySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    userId: { type: ['string', 'null'] },
    userName: { type: 'string' },
    action: { type: 'string' },
    resourceType: { type: 'string' },
    resourceId: { type: 'string' },
    resourceName: { type: 'string' },
    timestamp: { type: 'string' },
    details: { type: 'string' },
    summary: {
      type: 'array',
      items: { type: 'object', properties: { text: { type: 'string' }, role: { type: 'string' } }, required: ['text'] },
    },
    eventId: { type: ['string', 'null'] },
    reverted: { type: 'boolean' },
    eventType: { type: ['string', 'null'] },
  },
} as const;
