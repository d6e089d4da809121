// Wires the webhooks feature into the app: the service behind /api/webhooks and this
// instance's deliverer, started when the app is ready and stopped (leases given back) when
// it closes. Signing secrets are sealed with the secrets key (webhook-secrets.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../app-context.js';
import { connectGuard } from './connect-guard.js';
import { WebhookDeliverer } from './deliverer.js';
import { EndpointQueries } from './endpoint-queries.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './webhook-service.js';
import { sealStoredWebhookSecrets } from './webhook-secrets.js';
import { createSecretBox } from '../secrets/secret-box.js';
import { secretsKeyFor } from '../secrets/secrets-key.js';

export const webhooksFeature: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { config, database, store, subscriptions } = ctx;
  const settings = config.webhooks;
  const secrets = createSecretBox(await secretsKeyFor(config));
  const sealed = await sealStoredWebhookSecrets(database.db, secrets);
  if (sealed) app.log.info(`sealed ${sealed} webhook signing secret(s) stored in the clear by an earlier version`);
  // One guard (and so one pool of connections) for deliveries and test events alike.
  const guard = connectGuard({ allowLoopback: settings.allowLocalHttp, hosts: settings.hostOverrides });
  const deliverer = new WebhookDeliverer({
    db: database.db,
    store,
    subscriptions,
    config: settings,
    log: app.log.child({ feature: 'webhooks' }),
    disable: (id, reason) => webhooks.disable(id, reason),
    secrets,
    guard,
  });
  const webhooks = new WebhookService(database.db, store, new EndpointQueries(database.db), {
    allowLocalHttp: settings.allowLocalHttp,
    guard,
    timeoutMs: settings.timeoutMs,
    secrets,
    wake: () => deliverer.wake(),
  });
  app.addHook('onReady', async () => deliverer.start());
  app.addHook('onClose', async () => deliverer.stop());
  await app.register(webhookRoutes, { webhooks });
};
