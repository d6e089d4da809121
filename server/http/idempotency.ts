// Idempotency-Key on writes: the first answer (status and body) to a key is stored and
// replayed for the same key and request; the same key with another request gets 422.
// The key also reaches the event store, which makes concurrent duplicates write once.
// A route marked `config: { idempotency: 'by-handler' }` gets its key's lookup and storing as
// a hook for its batch of commands (`request.answerHook`, answer-hook.ts: stock adjustments,
// whose batches do it for many requests at once); this plugin then only checks the key and
// records the answers the handler did not.
// A route whose answer carries a secret shown once (an API token, a signing secret) names its
// fields in `config: { secretFields: [...] }`: the stored answer has them set to null and says
// `secretShownOnce: true`, so neither the table nor a replay ever holds the secret.
// Answers are replayed for keepHours (never longer, even before they are deleted) and a
// timer deletes older ones, whether or not anyone writes.
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ValidationError } from '../errors.js';
import { withHook, type HookUse } from '../eventstore/batch-hooks.js';
import { answerHook } from './answer-hook.js';
import { expiredAnswer, freshAnswer, keepAnswer, replayAnswer, type StoredAnswer } from './stored-answers.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Scoped to the user; passed to the event store as the append's idempotency key. */
    idempotencyKey?: string;
    idempotencyHash?: string;
    /** Set by a handler that stored its answer itself. */
    idempotencyRecorded?: boolean;
    /** A `by-handler` route's key: the hook that looks up and stores its answer in the command's batch. */
    answerHook?: HookUse;
  }
  interface FastifyContextConfig {
    idempotency?: 'by-handler';
    /** Top-level answer fields holding a secret shown once: never stored, never replayed. */
    secretFields?: readonly string[];
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\w.:-]{1,200}$/;
/** Expired answers deleted per statement: a long backlog goes in steps, other statements run between them. */
const SWEEP_BATCH = 5000;

/** An answer as it may be stored: every secret field set to null, and a note that it was shown once. */
export function withoutSecrets(body: string, fields: readonly string[] | undefined): string {
  if (!fields?.length || !body) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
  const answer = parsed as Record<string, unknown>;
  if (!fields.some((field) => field in answer)) return body;
  const stripped: Record<string, unknown> = { ...answer, secretShownOnce: true };
  for (const field of fields) if (field in stripped) stripped[field] = null;
  return JSON.stringify(stripped);
}

export interface IdempotencyOptions {
  db: Kysely<DB>;
  keepHours: number;
  sweepEveryMs: number;
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(
      `${request.method} ${request.routeOptions.url} ${JSON.stringify(request.params)} ${JSON.stringify(request.body ?? null)}`,
    )
    .digest('hex');
}

/** Adds `hook` to a route's own hooks of that kind, before those the route declares. */
function prependHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [hook, ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing])];
}

export const idempotencyPlugin = fp<IdempotencyOptions>(async (app, { db, keepHours, sweepEveryMs }) => {
  const answers = answerHook(keepHours);
  let sweeping: Promise<void> | null = null;
  let closing = false;
  const sweep = async () => {
    try {
      for (;;) {
        const result = await sql`delete from http_idempotency where (user_id, key) in (
            select user_id, key from http_idempotency where ${expiredAnswer(keepHours)} limit ${SWEEP_BATCH})`.execute(
          db,
        );
        if (Number(result.numAffectedRows ?? 0) < SWEEP_BATCH || closing) break;
      }
    } catch (error) {
      // The database restarting: the next round deletes them, and lookups skip them meanwhile.
      app.log.warn({ err: error }, 'could not delete expired idempotent answers');
    }
  };
  const timer = setInterval(() => {
    sweeping ??= sweep().finally(() => (sweeping = null));
  }, sweepEveryMs);
  timer.unref();
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(timer);
    await sweeping;
  });
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
    if (request.routeOptions.config?.idempotency === 'by-handler') {
      const hash = request.idempotencyHash;
      request.answerHook = withHook(answers, {
        userId,
        key,
        hash,
        recorded: () => (request.idempotencyRecorded = true),
      });
      return;
    }
    const rows = await sql<StoredAnswer>`select request_hash, status, body
      from http_idempotency where user_id = ${userId} and key = ${key} and ${freshAnswer(keepHours)}`.execute(db);
    const prior = rows.rows[0];
    if (prior) return replayAnswer(request, reply, prior);
  }

  async function recordAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    if (
      !request.idempotencyHash ||
      request.idempotencyRecorded ||
      reply.statusCode >= 500 ||
      reply.getHeader('idempotent-replayed')
    ) {
      return payload;
    }
    const [userId, ...rest] = request.idempotencyKey!.split(':');
    const body = withoutSecrets(typeof payload === 'string' ? payload : '', request.routeOptions.config?.secretFields);
    try {
      await sql`insert into http_idempotency (user_id, key, request_hash, status, body)
        values (${userId}, ${rest.join(':')}, ${request.idempotencyHash}, ${reply.statusCode}, ${body})
        ${keepAnswer(keepHours)}`.execute(db);
    } catch (error) {
      // The change itself is committed; if the database dropped just now, the user still gets
      // its answer, and a retry with this key is answered by the event store's own record.
      request.log.warn({ err: error }, 'could not record the idempotent answer');
    }
    return payload;
  }
});
