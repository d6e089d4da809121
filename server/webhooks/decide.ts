// Webhook endpoint decisions: pure functions from (command, state) to events. The URL and
// event types are checked by endpoint-rules.ts before a command gets here.
import type { WebhookEndpointFields, WebhookEvent } from '../../shared/webhooks.js';
import { NotFoundError } from '../errors.js';

export interface EndpointState extends WebhookEndpointFields {
  id: string;
  version: number;
}

export type WebhookCommand =
  | { type: 'Create'; endpointId: string; fields: WebhookEndpointFields }
  | { type: 'Update'; changes: Partial<WebhookEndpointFields> }
  | { type: 'Disable'; reason: string }
  | { type: 'Delete' };

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function decideWebhook(command: WebhookCommand, state: EndpointState | null): WebhookEvent[] {
  if (command.type === 'Create') {
    return [{ type: 'WebhookEndpointCreated', data: { endpointId: command.endpointId, ...command.fields } }];
  }
  if (!state) throw new NotFoundError('Webhook endpoint not found');
  switch (command.type) {
    case 'Update': {
      const changes: Partial<WebhookEndpointFields> = {};
      for (const [key, value] of Object.entries(command.changes) as Array<[keyof WebhookEndpointFields, never]>) {
        if (value !== undefined && !sameValue(state[key], value)) changes[key] = value;
      }
      return Object.keys(changes).length ? [{ type: 'WebhookEndpointUpdated', data: { changes } }] : [];
    }
    case 'Disable':
      // Already off (a manager switched it off meanwhile): nothing to record.
      return state.enabled ? [{ type: 'WebhookEndpointDisabled', data: { reason: command.reason } }] : [];
    case 'Delete':
      return [{ type: 'WebhookEndpointDeleted', data: { url: state.url } }];
  }
}
