// Serves the built React app's files the way production sites do. Vite names everything in
// assets/ by content hash, so those are cached for a year and never revalidated; everything
// else (index.html, robots.txt, favicon, and the offline app's sw.js and
// manifest.webmanifest) is `no-cache`: the browser keeps it but asks (ETag) before each use,
// so a deploy shows up on the next load (for sw.js: as the "Update available" prompt). The
// build writes .br and .gz copies beside each file (vite.config.ts); they are sent by
// Accept-Encoding.
// app.ts answers other non-API GETs (client routes such as /inventory) with index.html.
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
/** Vite's assetsDir: every file in it carries a content hash in its name. */
const HASHED_PREFIX = '/assets/';

function setCacheHeaders(res: SetHeadersResponse, filePath: string): void {
  // filePath is the file actually sent (maybe index.html.br); the policy depends on the folder.
  const hashed = filePath.replaceAll('\\', '/').includes(HASHED_PREFIX);
  res.setHeader('cache-control', hashed ? IMMUTABLE : REVALIDATE);
  // The same URL answers differently by Accept-Encoding: caches must key on it.
  res.setHeader('vary', 'Accept-Encoding');
}

export const staticClient = fp<{ root: string }>(async (app, { root }) => {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The policy is set per file in setHeaders; send's own header would overwrite it.
    cacheControl: false,
    setHeaders: setCacheHeaders,
    // The compressed copies are found beside their originals; they need no routes of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
  });
}) as FastifyPluginAsync<{ root: string }>;

/**
 * Whether a request that matched no route is a client-side route (answered with index.html).
 * A missing hashed asset is a 404, not the page: a stale tab asking for last deploy's chunk
 * must get an error it can act on, not HTML under a script's name.
 */
export function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url;
  return !url.startsWith('/api') && !url.startsWith(HASHED_PREFIX);
}

export function sendIndexHtml(reply: FastifyReply): FastifyReply {
  return reply.type('text/html; charset=utf-8').sendFile('index.html');
}
