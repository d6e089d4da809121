// Request budgets for the API: RATE_LIMIT_PER_MINUTE per signed-in user (uid) for
// authenticated calls, and per address for everything else (public routes, failed sign-ins,
// unknown /api paths), so ten staff behind one shop router never share a budget.
// Static files and /api/health are never counted: a page load fetches dozens of assets,
// and a load balancer's health checks must not lock out the shop.
//
// @fastify/rate-limit counts (its store and window), these hooks decide when and under which
// key. A request is counted once, at the first point its key is known:
//   - onRequest, before the auth check, when it carries no bearer token (key: address);
//   - preParsing, after the auth check, otherwise (key: uid, or address on a public route),
//     so a refused request costs neither a body read nor any work;
//   - onSend, for a request whose sign-in failed (the auth check threw, so the hooks above
//     never ran): counted against its address, and answered 429 instead once that is spent.
// An API token (srk_) is looked up in the database, so guessing them would cost a query
// each: once an address has spent its budget (failed sign-ins spend it), its srk_ requests
// are counted against it in onRequest, before the auth check, and answered 429 there with no
// lookup at all. A valid token from an address in good standing is counted as its own.
// Register this plugin before the auth plugin, so its onRequest hook runs first.
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_TOKEN_PREFIX } from '../../shared/api-tokens.js';
import { bearerToken } from '../auth/auth-plugin.js';

export interface RateLimitOptions {
  perMinute: number;
}

const WINDOW_MS = 60_000;
const EXEMPT_ROUTES = new Set(['/api/health']);
/** Addresses remembered as having spent their budget (the oldest are forgotten first). */
const SPENT_ADDRESSES = 20_000;

declare module 'fastify' {
  interface FastifyRequest {
    rateLimitCounted: boolean;
  }
}

/** The budget a request is counted against: an API token has its own, apart from its owner's. */
export function rateLimitKey(request: FastifyRequest): string {
  if (request.principal?.apiToken) return `token:${request.principal.apiToken.id}`;
  return request.principal ? `uid:${request.principal.uid}` : `ip:${request.ip}`;
}

function isLimited(request: FastifyRequest): boolean {
  const path = request.url;
  if (!(path === '/api' || path.startsWith('/api/') || path.startsWith('/api?'))) return false;
  return !EXEMPT_ROUTES.has(request.routeOptions.url ?? '');
}

function tooManyRequests(ttlInSeconds: number): FastifyError {
  const error = new Error(`Too many requests. Try again in ${ttlInSeconds} seconds`) as FastifyError;
  error.statusCode = 429;
  return error;
}

export const rateLimits = fp<RateLimitOptions>(
  async (app, { perMinute }) => {
    // global: false — no route hooks of the library's own; the hooks below call it.
    // cache: how many budgets (users and addresses) the in-memory store keeps.
    await app.register(rateLimit, {
      global: false,
      max: perMinute,
      timeWindow: WINDOW_MS,
      keyGenerator: rateLimitKey,
      cache: 20_000,
    });
    const count = app.createRateLimit();
    app.decorateRequest('rateLimitCounted', false);
    /** Address -> when its spent budget renews (ms), for the srk_ check before the lookup. */
    const spent = new Map<string, number>();
    const isSpent = (ip: string) => {
      const until = spent.get(ip);
      if (until === undefined) return false;
      if (until > Date.now()) return true;
      spent.delete(ip);
      return false;
    };

    /** Counts the request; returns the seconds to wait when its budget is spent, else null. */
    async function take(request: FastifyRequest, reply: FastifyReply): Promise<number | null> {
      request.rateLimitCounted = true;
      const result = await count(request);
      if (result.isAllowed) return null;
      reply.header('x-ratelimit-limit', result.max);
      reply.header('x-ratelimit-remaining', result.remaining);
      reply.header('x-ratelimit-reset', result.ttlInSeconds);
      // An address that has just used its last request (or is past it): its next srk_ request is refused unlooked.
      if (!request.principal && (result.isExceeded || result.remaining === 0)) {
        spent.delete(request.ip); // re-inserted last: the map forgets the longest-spent first
        spent.set(request.ip, Date.now() + result.ttlInSeconds * 1000);
        if (spent.size > SPENT_ADDRESSES) spent.delete(spent.keys().next().value!);
      }
      if (!result.isExceeded) return null;
      reply.header('retry-after', result.ttlInSeconds);
      return result.ttlInSeconds;
    }

    /** Counted before the auth check: no bearer token, or an API token from an address that spent its budget. */
    function countsBeforeSignIn(request: FastifyRequest): boolean {
      const token = bearerToken(request.headers.authorization);
      return !token || (token.startsWith(API_TOKEN_PREFIX) && isSpent(request.ip));
    }

    // Callback-style hooks: a request a hook has nothing to do for passes it without a
    // promise of its own (every API request passes two of the three).
    app.addHook('onRequest', (request, reply, done) => {
      if (!isLimited(request) || !countsBeforeSignIn(request)) return done();
      take(request, reply).then((wait) => done(wait === null ? undefined : tooManyRequests(wait)), done);
    });

    app.addHook('preParsing', (request, reply, payload, done) => {
      if (request.rateLimitCounted || !isLimited(request)) return done(null, payload);
      take(request, reply).then((wait) => (wait === null ? done(null, payload) : done(tooManyRequests(wait))), done);
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.rateLimitCounted || !isLimited(request)) return done(null, payload);
      take(request, reply).then((wait) => {
        if (wait === null) return done(null, payload);
        reply.code(429).type('application/json; charset=utf-8');
        done(null, JSON.stringify({ error: tooManyRequests(wait).message }));
      }, done);
    });
  },
  { name: 'stockroom-rate-limits' },
);
