// One command on one stream, in one transaction, in the shape every handler shares: load the
// state (locking what the decision depends on), decide (pure), append the events at the
// version the state was loaded at. A command retried with its idempotency key after it was
// made is not decided again: it gets what the first one appended. (Commands that come in
// bursts share transactions instead: batched-commands.ts.)
import type { EventStore } from './event-store.js';
import type { AppendResult, EventMetadata, ExpectedVersion, NewEvent, StreamRef, Transaction } from './types.js';

export interface StreamCommand<S> {
  stream: StreamRef;
  /**
   * Locks and reads the state the decision needs. The idempotency check comes after it, so a
   * retry still in flight waits here for the first try, then finds it made.
   */
  load(trx: Transaction): Promise<S>;
  /** Refusals that need the database beyond the state (a name another row has taken), before deciding. */
  check?(trx: Transaction, state: S): Promise<void>;
  /** Pure: the command's events on this state (none: nothing changes). */
  decide(state: S): NewEvent[];
  /** The version the stream must be at: the one the state was loaded at. */
  version(state: S): ExpectedVersion;
}

/** Runs the command; its append's result (the first one's for a retry), or null when it changed nothing. */
export function handleCommand<S>(
  store: EventStore,
  command: StreamCommand<S>,
  metadata: EventMetadata,
): Promise<AppendResult | null> {
  return store.transact(async (trx, append) => {
    const state = await command.load(trx);
    const prior = await store.priorResult(trx, metadata.idempotencyKey);
    if (prior) return prior;
    await command.check?.(trx, state);
    const events = command.decide(state);
    return events.length ? append(command.stream, command.version(state), events, metadata) : null;
  });
}
