// Wires the webhooks feature into the app: the service behind /api/webhooks and this
// instance's deliverer, started when the app is ready and stopped (leases given back) when
// it closes.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app.js';
import { connectGuard } from './connect-guard.js';
import { WebhookDeliverer } from './deliverer.js';
import { EndpointQueries } from './endpoint-queries.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './webhook-service.js';

export const webhooksFeature: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { config, database, store } = ctx;
  const settings = config.webhooks;
  const deliverer = new WebhookDeliverer({
    db: database.db,
    store,
    config: settings,
    log: app.log.child({ feature: 'webhooks' }),
    disable: (id, reason) => webhooks.disable(id, reason),
  });
  const webhooks = new WebhookService(database.db, store, new EndpointQueries(database.db), {
    allowLocalHttp: settings.allowLocalHttp,
    guard: connectGuard({ allowLoopback: settings.allowLocalHttp, hosts: settings.hostOverrides }),
    timeoutMs: settings.timeoutMs,
    wake: () => deliverer.wake(),
  });
  app.addHook('onReady', async () => deliverer.start());
  app.addHook('onClose', async () => deliverer.stop());
  await app.register(webhookRoutes, { webhooks });
};
