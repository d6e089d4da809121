// The security headers recorded once at start-up are exactly the ones @fastify/helmet sets
// on each request, and every kind of response carries them (a route, a 404, an error).
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../server/http/security-headers.js';

const options = {
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' as const },
  contentSecurityPolicy: {
    directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", "'wasm-unsafe-eval'"], upgradeInsecureRequests: null },
  },
};

async function headersOf(plugin: 'helmet' | 'recorded', url: string) {
  const app = Fastify();
  await app.register(plugin === 'helmet' ? helmet : securityHeaders, options);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  const response = await app.inject(url);
  await app.close();
  const { date: _date, ...headers } = response.headers;
  return { status: response.statusCode, headers };
}

describe('security headers', () => {
  it.each(['/ok', '/missing', '/fails'])('on %s are the ones @fastify/helmet sets', async (url) => {
    const recorded = await headersOf('recorded', url);
    expect(recorded).toEqual(await headersOf('helmet', url));
    expect(recorded.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(recorded.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses directives that depend on the request (a recorded copy could not follow them)', async () => {
    const app = Fastify();
    await expect(
      app.register(securityHeaders, { contentSecurityPolicy: { directives: { scriptSrc: [() => "'nonce-x'"] } } }),
    ).rejects.toThrow(/must not depend on the request/);
  });
});
