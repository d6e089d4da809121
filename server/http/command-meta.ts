// The metadata every event written by a request carries (actor, correlation id, idempotency
// key), and what a batched command carries for its request (commandHooks).
import type { FastifyRequest } from 'fastify';
import { principalStampOf } from '../auth/principal-check.js';
import { actorOf } from '../auth/principal.js';
import type { HookUse } from '../eventstore/batch-hooks.js';
import type { EventMetadata } from '../eventstore/types.js';
import { ValidationError } from '../errors.js';

export function commandMeta(request: FastifyRequest): EventMetadata {
  return {
    actor: actorOf(request.principal),
    correlationId: String(request.id),
    ...(request.idempotencyKey ? { idempotencyKey: `${request.idempotencyKey}:${request.idempotencyHash}` } : {}),
  };
}

/**
 * The hooks a batched command runs with for its request: the check of a cached principal
 * (auth/principal-check.ts), then the Idempotency-Key's stored answer (answer-hook.ts).
 */
export function commandHooks(request: FastifyRequest): HookUse[] {
  return request.answerHook ? [principalStampOf(request), request.answerHook] : [principalStampOf(request)];
}

/** The version the client loaded: If-Match (3, "3" or W/"3") or expected_version in the body. */
export function expectedVersionOf(request: FastifyRequest, bodyVersion?: number): number | undefined {
  const header = request.headers['if-match'];
  if (header !== undefined) {
    const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(String(header).trim());
    if (!match) throw new ValidationError('If-Match must be the item version, for example "3"');
    return Number(match[1]);
  }
  return bodyVersion;
}
