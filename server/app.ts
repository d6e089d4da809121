// Builds the Fastify app: plugins, routes, and the one error handler. main.ts and the
// tests both call buildApp, so tests exercise exactly what production runs.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import { randomUUID } from 'node:crypto';
import type { AppContext, AppParts } from './app-context.js';
import { DomainError, ValidationError } from './errors.js';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from './db/database-unavailable.js';
import { authPlugin } from './auth/auth-plugin.js';
import { guestView } from './auth/guest-view.js';
import { siteView } from './auth/site-view.js';
import { describeValidationError, validationErrorField, validatorCompiler } from './http/validation.js';
import { healthRoutes } from './http/health-routes.js';
import { isClientRoute, sendIndexHtml, staticClient } from './http/static-client.js';
import { rateLimits } from './http/rate-limits.js';
import { securityHeaders } from './http/security-headers.js';
import { apiDocs } from './http/api-docs.js';
import { clientInlineScriptSources } from './http/inline-script-hashes.js';
import { createPrincipalResolver, registerFeatures } from './features.js';
import { apiTokenSignIn } from './api-tokens/api-tokens-feature.js';
import { subscriptionsFor } from './subscriptions/database-subscriptions.js';

export async function buildApp(parts: AppParts): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: parts.config.logLevel,
      // Tokens and passwords never reach the log.
      redact: ['req.headers.authorization', 'req.headers["sec-websocket-protocol"]', '*.password', '*.token'],
      ...(parts.logStream ? { stream: parts.logStream } : {}),
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // With logging off (LOG_LEVEL=silent) a per-request child logger could never write a
    // line: the app's own silent logger serves every request instead of a fresh child each.
    childLoggerFactory: (logger, bindings, options) =>
      logger.level === 'silent' && !options.level ? logger : logger.child(bindings, options),
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy (TRUST_PROXY), request.ip is the client's address from X-Forwarded-For.
    trustProxy: parts.config.trustProxy,
    // Long path ids reach the schema (a clear 400) instead of the router's bare 414.
    routerOptions: { maxParamLength: 1000 },
    ajv: { customOptions: { removeAdditional: false } },
  });
  // What runs after commit (the feed, the principal cache, webhooks) subscribes in its
  // feature's wiring; reading starts once every feature is wired, and stops with the app.
  const subscriptions =
    parts.subscriptions ??
    subscriptionsFor(parts.database, parts.store, {
      pollMs: parts.config.realtime.pollMs,
      log: app.log.child({ feature: 'subscriptions' }),
    });
  const ctx: AppContext = { ...parts, subscriptions };
  app.addHook('onReady', async () => subscriptions.start());
  app.addHook('onClose', async () => subscriptions.stop());
  app.setValidatorCompiler(validatorCompiler);
  // A body's schema error names its field too ({ error, field }), so a form can mark that input.
  app.setSchemaErrorFormatter(
    (errors, part) =>
      new ValidationError(
        describeValidationError(errors as any, part),
        part === 'body' ? (validationErrorField(errors as any) ?? undefined) : undefined,
      ),
  );

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      // A restart or failover of the database: the client's retry policy waits and tries again.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ error: DATABASE_UNAVAILABLE_MESSAGE });
    }
    if (error instanceof DomainError) {
      return reply.status(error.status).send({ error: error.message, ...error.body });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ error: 'Internal server error' });
    }
    if ((error as FastifyError).validation) return reply.status(400).send({ error: error.message });
    if (status === 429) return reply.status(429).send({ error: error.message });
    return reply.status(status).send({ error: error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    // Client-side routes (any GET outside /api and /assets) get the app's index.html.
    if (ctx.clientDir && isClientRoute(request)) return sendIndexHtml(reply);
    return reply.status(404).send({ error: 'Not found' });
  });

  // Helmet's headers, worked out once (see security-headers.ts).
  await app.register(securityHeaders, {
    // Google sign-in hands its result back from a popup: the page must keep its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    contentSecurityPolicy: {
      directives: {
        // Local http (emulator, dev) must not be rewritten to https; production sits behind TLS anyway.
        upgradeInsecureRequests: ctx.config.authEmulatorHost ? null : [],
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:', 'http://127.0.0.1:*', 'http://localhost:*', 'https://*.googleapis.com'],
        // Item pictures only over https (shared/image-url.ts), old http ones included.
        imgSrc: ["'self'", 'data:', 'https:'],
        frameSrc: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*', 'https://*.firebaseapp.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // 'wasm-unsafe-eval' lets the barcode scanner compile its WebAssembly decoder (our own
        // file, from 'self'); it allows no JavaScript eval.
        // The inline scripts of index.html by hash (inline-script-hashes.ts).
        scriptSrc: [
          "'self'",
          "'wasm-unsafe-eval'",
          'https://apis.google.com',
          ...clientInlineScriptSources(ctx.clientDir),
        ],
      },
    },
  });
  // Per uid when signed in, per address otherwise; before the auth plugin (see rate-limits.ts).
  await app.register(rateLimits, { perMinute: ctx.config.rateLimitPerMinute });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Stockroom API',
        version: ctx.config.version,
        description:
          'Every call but the health check and client settings needs `Authorization: Bearer <token>`: a signed-in user\'s Firebase ID token, or an API token (`srk_…`) a manager made in Settings > Integrations. A refusal says why as `{ "error": "..." }`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  const resolvePrincipal = ctx.resolvePrincipal ?? createPrincipalResolver(ctx);
  await app.register(authPlugin, {
    verifier: ctx.verifier,
    resolvePrincipal,
    apiTokens: apiTokenSignIn(ctx, resolvePrincipal),
  });
  // After the principal is known: guests get no exports and no staff names (guest-view.ts).
  await app.register(guestView);
  // Those limited to some sites see the stock there, not the store's totals (site-view.ts).
  await app.register(siteView, { db: ctx.database.db });

  await app.register(
    async (api) => {
      // JSON answers of 1 KB or more go out compressed (brotli or gzip, by Accept-Encoding).
      // Only the API: the client's files are compressed once, at build time (static-client.ts).
      await api.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
      await api.register(healthRoutes, { ctx });
      // The API reference: a readable page at /api/docs, the JSON at /api/docs/json (api-docs.ts).
      await apiDocs(api);
      await registerFeatures(api, ctx);
    },
    { prefix: '/api' },
  );

  if (ctx.clientDir) await app.register(staticClient, { root: ctx.clientDir });
  return app;
}
