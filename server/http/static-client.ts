// Serves the built React app's files; app.ts answers other non-API paths with index.html.
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export const staticClient = fp<{ root: string }>(async (app, { root }) => {
  await app.register(fastifyStatic, { root, wildcard: false, index: ['index.html'] });
}) as FastifyPluginAsync<{ root: string }>;
