// What rides along with a batch of commands without being the domain's business: the HTTP
// layer's stored answers to Idempotency-Keys (http/answer-hook.ts), the auth layer's check of
// cached principals (auth/principal-check.ts). A hook adds a column to the statement that
// locks the batch's streams, looks at it before each of its commands is decided, adds a CTE
// to the statement that appends the events, and hears when they are committed: what it needs
// costs no round trip of its own. The batch runner (batched-commands.ts) calls them; each
// command carries its own part for each hook it uses (`withHook`).
import type { RawBuilder } from 'kysely';
import type { EventMetadata, Transaction } from './types.js';

/** A command that got an answer, as a hook sees it: its part, and the answer. */
export interface Answered<P, R> {
  part: P;
  answer: R;
}

export interface BatchHook<P, R = unknown> {
  /** Names its CTE in the append statement (unique among the hooks). */
  readonly name: string;
  /** A column for the lock statement, for the parts of the batch's commands; none: nothing to read. */
  column?(parts: P[]): RawBuilder<unknown> | undefined;
  /**
   * Runs before a command carrying `part` is decided, with a row of the lock statement (its
   * columns): throws to refuse the command (it fails alone), or returns the metadata to
   * decide it with.
   */
  before?(
    part: P,
    row: object,
    trx: Transaction,
    metadata: EventMetadata,
  ): EventMetadata | void | Promise<EventMetadata | void>;
  /**
   * A data-modifying CTE for the append statement, for the commands that got an answer (none
   * may have). Its text must not vary with the batch: the append runs as a prepared statement.
   */
  write?(answered: Array<Answered<P, R>>): RawBuilder<unknown>;
  /** After the commit, for the same commands. */
  committed?(answered: Array<Answered<P, R>>): void;
}

/** One command's use of a hook. */
export interface HookUse<R = unknown> {
  readonly hook: BatchHook<unknown, R>;
  readonly part: unknown;
}

export function withHook<P, R>(hook: BatchHook<P, R>, part: P): HookUse<R> {
  return { hook: hook as BatchHook<unknown, R>, part };
}
