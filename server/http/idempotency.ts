// Idempotency-Key on writes: the first answer (status and body) to a key is stored and
// replayed for the same key and request; the same key with another request gets 422.
// The key also reaches the event store, which makes concurrent duplicates write once.
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { UnprocessableError, ValidationError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Scoped to the user; passed to the event store as the append's idempotency key. */
    idempotencyKey?: string;
    idempotencyHash?: string;
  }
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

export const idempotencyPlugin = fp<{ db: Kysely<DB> }>(async (app, { db }) => {
  let writes = 0;
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!WRITE_METHODS.has(request.method) || key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new ValidationError('Idempotency-Key must be 1-200 letters, digits or . : _ -');
    }
    const userId = request.principal?.uid ?? 'anonymous';
    const hash = requestHash(request);
    const rows = await sql<{ request_hash: string; status: number; body: string }>`select request_hash, status, body
      from http_idempotency where user_id = ${userId} and key = ${key}`.execute(db);
    const prior = rows.rows[0];
    if (prior) {
      if (prior.request_hash !== hash) throw new UnprocessableError('Idempotency-Key was already used for a different request');
      reply.header('idempotent-replayed', 'true').status(prior.status);
      if (prior.body) reply.type('application/json');
      return reply.send(prior.body || undefined);
    }
    request.idempotencyKey = `${userId}:${key}`;
    request.idempotencyHash = hash;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.idempotencyHash || reply.statusCode >= 500 || reply.getHeader('idempotent-replayed')) return payload;
    const [userId, ...rest] = request.idempotencyKey!.split(':');
    const body = typeof payload === 'string' ? payload : '';
    await sql`insert into http_idempotency (user_id, key, request_hash, status, body)
      values (${userId}, ${rest.join(':')}, ${request.idempotencyHash}, ${reply.statusCode}, ${body})
      on conflict do nothing`.execute(db);
    if (++writes % 1000 === 0) {
      await sql`delete from http_idempotency where created_at < now() - make_interval(hours => ${KEEP_HOURS})`.execute(db);
    }
    return payload;
  });
});
