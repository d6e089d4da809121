// The answers stored for Idempotency-Keys (table http_idempotency): how long they count, how
// one is stored, how one is replayed. Shared by the plugin (idempotency.ts) and the batch hook
// of routes whose batches store their answers themselves (answer-hook.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { UnprocessableError } from '../errors.js';

/** A stored answer to an Idempotency-Key. */
export interface StoredAnswer {
  request_hash: string;
  status: number;
  body: string;
}

/** Answers a request with the stored answer to its key: 422 if the key was used for another request. */
export function replayAnswer(request: FastifyRequest, reply: FastifyReply, prior: StoredAnswer) {
  if (prior.request_hash !== request.idempotencyHash)
    throw new UnprocessableError('Idempotency-Key was already used for a different request');
  reply.header('idempotent-replayed', 'true').status(prior.status);
  if (prior.body) reply.type('application/json');
  return reply.send(prior.body || undefined);
}

/** Only answers younger than the keep period are replayed: an older one is gone, swept or not. */
export const freshAnswer = (keepHours: number) =>
  sql`http_idempotency.created_at > now() - make_interval(hours => ${keepHours})`;
export const expiredAnswer = (keepHours: number) =>
  sql`http_idempotency.created_at <= now() - make_interval(hours => ${keepHours})`;

/** Stores an answer; an expired one under the same key (not swept yet) gives way to it. */
export const keepAnswer = (keepHours: number) => sql`on conflict (user_id, key) do update
  set request_hash = excluded.request_hash, status = excluded.status, body = excluded.body, created_at = excluded.created_at
  where ${expiredAnswer(keepHours)}`;
