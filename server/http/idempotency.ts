// Idempotency-Key on writes: the first answer (status and body) to a key is stored and
// replayed for the same key and request; the same key with another request gets 422.
// The key also reaches the event store, which makes concurrent duplicates write once.
// A route marked `config: { idempotency: 'by-handler' }` looks its key up and records its
// answer in its own statements (stock adjustments, whose batches do it for many requests at
// once); this plugin then only checks the key and records the answers the handler did not.
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { UnprocessableError, ValidationError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Scoped to the user; passed to the event store as the append's idempotency key. */
    idempotencyKey?: string;
    idempotencyHash?: string;
    /** Set by a handler that stored its answer itself. */
    idempotencyRecorded?: boolean;
  }
  interface FastifyContextConfig {
    idempotency?: 'by-handler';
  }
}

/** A stored answer to an Idempotency-Key. */
export interface StoredAnswer {
  request_hash: string;
  status: number;
  body: string;
}

/** Answers a request with the stored answer to its key: 422 if the key was used for another request. */
export function replayAnswer(request: FastifyRequest, reply: FastifyReply, prior: StoredAnswer) {
  if (prior.request_hash !== request.idempotencyHash) throw new UnprocessableError('Idempotency-Key was already used for a different request');
  reply.header('idempotent-replayed', 'true').status(prior.status);
  if (prior.body) reply.type('application/json');
  return reply.send(prior.body || undefined);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\w.:-]{1,200}$/;
/** Kept at least 24 hours, as promised; older ones are swept now and then. */
const KEEP_HOURS = 48;

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)} ${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** Adds `hook` to a route's own hooks of that kind, before those the route declares. */
function prependHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [hook, ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing])];
}

export const idempotencyPlugin = fp<{ db: Kysely<DB> }>(async (app, { db }) => {
  let writes = 0;
  // Route hooks of the write routes only: reads (the busiest requests) never run them.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => WRITE_METHODS.has(method))) return;
    route.preHandler = prependHook(route.preHandler, checkKey);
    route.onSend = prependHook(route.onSend, recordAnswer);
  });

  async function checkKey(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key'];
    if (!WRITE_METHODS.has(request.method) || key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new ValidationError('Idempotency-Key must be 1-200 letters, digits or . : _ -');
    }
    const userId = request.principal?.uid ?? 'anonymous';
    request.idempotencyKey = `${userId}:${key}`;
    request.idempotencyHash = requestHash(request);
    if (request.routeOptions.config?.idempotency === 'by-handler') return;
    const rows = await sql<StoredAnswer>`select request_hash, status, body
      from http_idempotency where user_id = ${userId} and key = ${key}`.execute(db);
    const prior = rows.rows[0];
    if (prior) return replayAnswer(request, reply, prior);
  }

  async function recordAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (!request.idempotencyHash || request.idempotencyRecorded || reply.statusCode >= 500 || reply.getHeader('idempotent-replayed')) {
      return payload;
    }
    const [userId, ...rest] = request.idempotencyKey!.split(':');
    const body = typeof payload === 'string' ? payload : '';
    try {
      await sql`insert into http_idempotency (user_id, key, request_hash, status, body)
        values (${userId}, ${rest.join(':')}, ${request.idempotencyHash}, ${reply.statusCode}, ${body})
        on conflict do nothing`.execute(db);
      if (++writes % 1000 === 0) {
        await sql`delete from http_idempotency where created_at < now() - make_interval(hours => ${KEEP_HOURS})`.execute(db);
      }
    } catch (error) {
      // The change itself is committed; if the database dropped just now, the user still gets
      // its answer, and a retry with this key is answered by the event store's own record.
      request.log.warn({ err: error }, 'could not record the idempotent answer');
    }
    return payload;
  }
});
