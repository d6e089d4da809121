// Stored answers to Idempotency-Keys for a route whose commands run in the event store's
// batches (`config: { idempotency: 'by-handler' }`: stock adjustments). The batch's lock
// statement looks up the answers stored for its requests' keys, and its append statement
// stores the answers it gives: an answer is stored exactly when its change commits, at no
// statement or commit of its own. A request answered before is not decided again: it fails
// with AnsweredBefore, which `replayIfAnswered` turns into the stored answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { BatchHook } from '../eventstore/batch-hooks.js';
import { freshAnswer, keepAnswer, replayAnswer, type StoredAnswer } from './stored-answers.js';

/** A request's Idempotency-Key, as its batch looks up and stores its answer. */
export interface AnswerKey {
  userId: string;
  key: string;
  hash: string;
  /** Called once the answer is stored. */
  recorded(): void;
}

/** The request was answered before: its stored answer goes back as it was (or 422 for another request). */
export class AnsweredBefore extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('answered before');
  }
}

const COLUMN = 'stored_answers';
type StoredRow = [userId: string, key: string, hash: string, status: number, body: string];

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Stores answers (a JSON list of user_id, key, request_hash, body) as status 200; a key
 * answered meanwhile keeps its answer, one whose answer expired (not swept yet) gets this one.
 * One row per key: an update on conflict may not meet a row its own statement inserted (two
 * requests with one key in a batch both have an answer).
 */
const storeAnswers = (
  rows: string,
  keepHours: number,
) => sql`insert into http_idempotency (user_id, key, request_hash, status, body)
  select distinct on (a.user_id, a.key) a.user_id, a.key, a.request_hash, 200, a.body
  from jsonb_to_recordset(${rows}::jsonb) as a (user_id text, key text, request_hash text, body text)
  order by a.user_id, a.key
  ${keepAnswer(keepHours)}`;

export function answerHook(keepHours: number): BatchHook<AnswerKey> {
  return {
    name: 'http_answers',
    column: (keys) =>
      sql`(select coalesce(json_agg(json_build_array(user_id, key, request_hash, status, body)), '[]')
        from http_idempotency where (user_id, key) in (${sql.join(keys.map((k) => sql`(${k.userId}, ${k.key})`))})
        and ${freshAnswer(keepHours)}) as ${sql.id(COLUMN)}`,
    before(key, row) {
      const value = (row as Record<string, unknown>)[COLUMN];
      const stored = (typeof value === 'string' ? JSON.parse(value) : value) as StoredRow[] | undefined;
      const prior = stored?.find(([userId, k]) => userId === key.userId && k === key.key);
      if (prior) throw new AnsweredBefore({ request_hash: prior[2], status: prior[3], body: prior[4] });
    },
    // Always the same statement, an empty list when none (the append is a prepared statement).
    // Sorted by key, so concurrent batches wait for each other's keys in the same order.
    write: (answered) => {
      const rows = answered
        .map(({ part, answer }) => ({
          user_id: part.userId,
          key: part.key,
          request_hash: part.hash,
          body: JSON.stringify(answer),
        }))
        .sort((a, b) => (a.user_id === b.user_id ? cmp(a.key, b.key) : cmp(a.user_id, b.user_id)));
      return storeAnswers(JSON.stringify(rows), keepHours);
    },
    committed: (answered) => {
      for (const { part } of answered) part.recorded();
    },
  };
}

/** Runs a `by-handler` route's command; a request answered before gets its stored answer instead. */
export async function replayIfAnswered<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AnsweredBefore) return replayAnswer(request, reply, error.answer);
    throw error;
  }
}
