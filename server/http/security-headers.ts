// Helmet's security headers on every response, worked out once at start-up.
// @fastify/helmet builds a fresh helmet middleware for every request, parsing the whole
// Content-Security-Policy again each time: that cost more than the item read it guarded.
// Our options are static, so its answer is too: the headers @fastify/helmet sets are
// recorded once, from @fastify/helmet itself on a throwaway instance (so the values stay
// exactly its own), and every request gets the recorded copy.
import Fastify from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';

/** What @fastify/helmet adds to a response, with these options. */
export async function recordHelmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const csp = options.contentSecurityPolicy;
  const directives = (typeof csp === 'object' ? csp.directives : undefined) ?? {};
  if (
    Object.values(directives).some(
      (value) => typeof value === 'function' || (Array.isArray(value) && value.some((v) => typeof v === 'function')),
    )
  ) {
    throw new Error(
      'security headers are recorded once: Content-Security-Policy directives must not depend on the request',
    );
  }
  const probe = Fastify();
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const bare = Fastify();
  bare.get('/', async () => '');
  try {
    const [withHelmet, without] = await Promise.all([probe.inject('/'), bare.inject('/')]);
    return Object.fromEntries(
      Object.entries(withHelmet.headers)
        .filter(([name, value]) => without.headers[name] === undefined && value !== undefined)
        .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
    );
  } finally {
    await Promise.all([probe.close(), bare.close()]);
  }
}

export const securityHeaders = fp<FastifyHelmetOptions>(
  async (app, options) => {
    const headers = await recordHelmetHeaders(options);
    // onRequest, as @fastify/helmet's own hook: 404s, errors and refusals carry them too.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'stockroom-security-headers' },
);
