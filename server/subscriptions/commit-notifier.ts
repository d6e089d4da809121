// Tells other server instances that events were committed: `pg_notify` with an empty
// payload, sent after the commit (never inside the write transaction, where NOTIFY takes a
// database-wide lock at commit and caps write throughput) and coalesced: at most one in
// flight, and however many commits arrive meanwhile, exactly one more after it.

export const EVENTS_CHANNEL = 'stockroom_events';

export interface CommitNotifier {
  /** Called after each commit; cheap and synchronous. */
  poke(): void;
  /** Resolves once nothing is in flight (for shutdown). */
  idle(): Promise<void>;
}

export function createCommitNotifier(send: () => Promise<void>, onError: (error: unknown) => void): CommitNotifier {
  let running: Promise<void> | null = null;
  let pending = false;

  async function drain(): Promise<void> {
    while (pending) {
      pending = false;
      try {
        await send();
      } catch (error) {
        // A lost notification only delays the other instances until their backstop poll.
        onError(error);
      }
    }
    running = null;
  }

  return {
    poke() {
      pending = true;
      running ??= drain();
    },
    async idle() {
      while (running) await running;
    },
  };
}
