// Calls of the Integrations tab: webhook endpoints, their delivery log, and API tokens.
import type { ApiToken, CreateApiToken } from '../../../../shared/api-tokens';
import type { Category } from '../../../../shared/inventory';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointFields } from '../../../../shared/webhooks';
import { api } from '../../../lib/api-client';

export const integrationsApi = {
  endpoints: async () => (await api.get<{ endpoints: WebhookEndpoint[] }>('/webhooks')).endpoints,
  categories: () => api.get<Category[]>('/categories'),
  createEndpoint: (fields: Pick<WebhookEndpointFields, 'url' | 'eventTypes' | 'description' | 'categoryIds'>) =>
    api.post<{ endpoint: WebhookEndpoint; secret: string | null; secretShownOnce?: boolean }>('/webhooks', fields),
  updateEndpoint: async (id: string, changes: Partial<WebhookEndpointFields>) =>
    (await api.request<WebhookEndpoint>('PATCH', `/webhooks/${id}`, { body: changes })).data,
  removeEndpoint: (id: string) => api.delete(`/webhooks/${id}`),
  deliveries: async (id: string) =>
    (await api.get<{ deliveries: WebhookDelivery[] }>(`/webhooks/${id}/deliveries`)).deliveries,
  sendTest: (id: string) => api.post<WebhookDelivery>(`/webhooks/${id}/test`, {}),
  replay: (id: string, from: string) => api.post<WebhookEndpoint>(`/webhooks/${id}/replay`, { from }),
  tokens: async () => (await api.get<{ tokens: ApiToken[] }>('/tokens')).tokens,
  // The secret is null when a retry got the server's replay of the answer (it keeps no secret).
  createToken: (body: CreateApiToken) =>
    api.post<{ apiToken: ApiToken; token: string | null; secretShownOnce?: boolean }>('/tokens', body),
  revokeToken: (id: string) => api.delete<ApiToken>(`/tokens/${id}`),
};
