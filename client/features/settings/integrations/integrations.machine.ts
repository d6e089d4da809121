// The Integrations tab's data: webhook endpoints and API tokens, loaded together and
// reloaded after every change the tab makes (RELOAD) or on retry after a failed load.
import { assign, fromPromise, setup } from 'xstate';
import type { ApiToken } from '../../../../shared/api-tokens';
import type { WebhookEndpoint } from '../../../../shared/webhooks';
import { errorMessage } from '../../../lib/api-client';
import { integrationsApi } from './integrations-api';

export interface IntegrationsContext {
  endpoints: WebhookEndpoint[];
  tokens: ApiToken[];
  error: string | null;
}

export const integrationsMachine = setup({
  types: { context: {} as IntegrationsContext, events: {} as { type: 'RELOAD' } | { type: 'RETRY' } },
  actors: {
    load: fromPromise(async () => {
      const [endpoints, tokens] = await Promise.all([integrationsApi.endpoints(), integrationsApi.tokens()]);
      return { endpoints, tokens };
    }),
  },
}).createMachine({
  id: 'integrations',
  context: { endpoints: [], tokens: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: {
          target: 'error',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to load integrations') }),
        },
      },
    },
    ready: { on: { RELOAD: 'reloading' } },
    // Keeps showing the lists while they reload.
    reloading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => errorMessage(event.error, 'Failed to reload integrations') }),
        },
      },
      on: { RELOAD: { target: 'reloading', reenter: true } },
    },
    error: { on: { RETRY: 'loading' } },
  },
});
