// Builds the Fastify app: plugins, routes, and the one error handler. main.ts and the
// tests both call buildApp, so tests exercise exactly what production runs.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { EventStore } from './eventstore/event-store.js';
import { DomainError } from './errors.js';
import { authPlugin } from './auth/auth-plugin.js';
import type { PrincipalResolver } from './auth/principal.js';
import type { TokenVerifier } from './auth/verify-token.js';
import { describeValidationError, validatorCompiler } from './http/validation.js';
import { healthRoutes } from './http/health-routes.js';
import { staticClient } from './http/static-client.js';
import { createPrincipalResolver, registerFeatures } from './features.js';

export interface AppContext {
  config: Config;
  database: Database;
  store: EventStore;
  verifier: TokenVerifier;
  resolvePrincipal?: PrincipalResolver;
  /** Folder of the built client; unset = API only. */
  clientDir?: string;
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: ctx.config.logLevel,
      // Tokens and passwords never reach the log.
      redact: ['req.headers.authorization', 'req.headers["sec-websocket-protocol"]', '*.password', '*.token'],
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // Long path ids reach the schema (a clear 400) instead of the router's bare 414.
    routerOptions: { maxParamLength: 1000 },
    ajv: { customOptions: { removeAdditional: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSchemaErrorFormatter((errors, part) => new Error(describeValidationError(errors as any, part)));

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
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
    // Client-side routes (any GET outside /api) get the app's index.html.
    if (ctx.clientDir && request.method === 'GET' && !request.url.startsWith('/api')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Not found' });
  });

  await app.register(helmet, {
    // Google sign-in hands its result back from a popup: the page must keep its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    contentSecurityPolicy: {
      directives: {
        // Local http (emulator, dev) must not be rewritten to https; production sits behind TLS anyway.
        upgradeInsecureRequests: ctx.config.authEmulatorHost ? null : [],
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:', 'http://127.0.0.1:*', 'http://localhost:*', 'https://*.googleapis.com'],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        frameSrc: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*', 'https://*.firebaseapp.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", 'https://apis.google.com'],
      },
    },
  });
  await app.register(rateLimit, {
    max: ctx.config.rateLimitPerMinute,
    timeWindow: '1 minute',
    errorResponseBuilder: (_request, context) => {
      const error = new Error(`Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds`) as FastifyError;
      error.statusCode = 429;
      return error;
    },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Stockroom API', version: ctx.config.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(authPlugin, {
    verifier: ctx.verifier,
    resolvePrincipal: ctx.resolvePrincipal ?? createPrincipalResolver(ctx),
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { ctx });
      api.get('/docs', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
      await registerFeatures(api, ctx);
    },
    { prefix: '/api' },
  );

  if (ctx.clientDir) await app.register(staticClient, { root: ctx.clientDir });
  return app;
}
