// Outgoing webhooks as both sides see them: the event types an endpoint can ask for, the
// endpoint and delivery shapes of /api/webhooks, and the endpoint's own events.

/** What a manager picks; each names some of the log's event types (see WEBHOOK_EVENT_TYPES). */
export const WEBHOOK_EVENT_TYPES = [
  { key: 'item.created', label: 'Item created', events: ['ItemCreated'] },
  { key: 'item.updated', label: 'Item updated', events: ['ItemUpdated'] },
  { key: 'item.deleted', label: 'Item deleted', events: ['ItemDeleted'] },
  { key: 'stock.adjusted', label: 'Stock adjusted', events: ['StockAdjusted'] },
  { key: 'stock.moved', label: 'Stock moved between locations', events: ['StockMoved'] },
  { key: 'stock.low', label: 'Went low on stock', events: ['ItemWentLow'] },
  { key: 'stock.recovered', label: 'Recovered from low stock', events: ['ItemRecovered'] },
  {
    key: 'category.changed',
    label: 'Category created, changed or deleted',
    events: ['CategoryCreated', 'CategoryUpdated', 'CategoryDeleted'],
  },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]['key'];
/** '*' = every type above, including ones added later. */
export type WebhookSubscription = WebhookEventType | '*';

export const WEBHOOK_EVENT_KEYS: WebhookEventType[] = WEBHOOK_EVENT_TYPES.map((t) => t.key);

/** The webhook type of a log event, or null when no endpoint can receive it. */
export function webhookTypeOf(eventType: string): WebhookEventType | null {
  return WEBHOOK_EVENT_TYPES.find((t) => (t.events as readonly string[]).includes(eventType))?.key ?? null;
}

export interface WebhookEndpointFields {
  url: string;
  description: string;
  eventTypes: WebhookSubscription[];
  /** Only events of items in these categories (and of these categories); empty = all. */
  categoryIds: string[];
  /**
   * Only events of these sites, and those tied to no site (an item's name, a category);
   * empty or absent = every site. Never the store's totals (a low-stock crossing of them).
   */
  siteIds?: string[];
  enabled: boolean;
}

export interface WebhookEndpoint extends WebhookEndpointFields {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Why it was switched off by the server (failing for too long); null otherwise. */
  disabledReason: string | null;
  /** Delivery state: where it is in the log, and a failing run if any. */
  cursor: string;
  failingSince: string | null;
  nextAttemptAt: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'retrying' | 'failed';

export interface WebhookDelivery {
  /** The webhook-id header: the event id (a test event gets its own). */
  messageId: string;
  eventType: string;
  cursor: string | null;
  test: boolean;
  status: DeliveryStatus;
  attempts: number;
  responseCode: number | null;
  latencyMs: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Standard Webhooks body: `type`, `timestamp`, and our event with its cursor in `data`. */
export interface WebhookPayload {
  type: WebhookEventType | 'webhook.test';
  timestamp: string;
  data: {
    cursor: string | null;
    /** What changed, as the activity log says it: "-5 (sale) Milk, by Sam, note: table 4" (shared/change-sentence.ts). */
    summary: string;
    event: {
      id: string;
      type: string;
      stream: string;
      streamVersion: number;
      data: unknown;
      actor: string;
      createdAt: string;
    };
  };
}

export type WebhookEvent =
  | { type: 'WebhookEndpointCreated'; data: WebhookEndpointFields & { endpointId: string } }
  | { type: 'WebhookEndpointUpdated'; data: { changes: Partial<WebhookEndpointFields> } }
  /** The server gave up after failing for the whole retry window. */
  | { type: 'WebhookEndpointDisabled'; data: { reason: string } }
  | { type: 'WebhookEndpointDeleted'; data: { url: string } };

export const webhookStream = (id: string) => ({ id: `webhook-${id}`, type: 'webhook' });

export const WEBHOOK_DISABLED_REASON = 'Disabled after failing deliveries for too long';
