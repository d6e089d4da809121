// The outbox's rules, apart from the browser wiring (outbox.ts) so unit tests run them on
// fake-indexeddb with a scripted server:
//   - a change is sent at once when online and nothing waits before it; otherwise (offline,
//     or no answer came) it waits in IndexedDB with its idempotency key and base version;
//   - waiting changes are replayed oldest first, one at a time, from one holder of the lock;
//   - no answer, 429 or 5xx: stop and keep the change (it is retried later, same key);
//   - 401: refresh the token once and go on; still 401: stop and keep it;
//   - any other refusal (409, 422, 404, 403, 400): the change moves to Conflicts with the
//     server's current value, and the replay goes on with the next change;
//   - a conflict leaves only by the user's choice: "Keep current" (dropped, recorded in
//     `resolved`) or "Apply mine" (re-queued with a new key against the current version).
import { ApiError } from '../lib/api-client';
import type { ConflictEntry, OutboxDb, OutboxEntry, OutboxRequest, ResolvedEntry } from './outbox-db';

export interface OutboxTransport {
  /** Sends the change (attempts: how many tries); rejects with an ApiError, status 0 when no answer came. */
  send(entry: OutboxEntry, attempts: number): Promise<unknown>;
  /** The current value of a thing (for Conflicts). */
  get(path: string): Promise<unknown>;
  /** Forces a new ID token (after a 401). */
  refreshToken(): Promise<void>;
}

export interface OutboxDeps {
  /** Opened on first use, so importing the module costs nothing where IndexedDB is absent. */
  db: () => Promise<OutboxDb>;
  transport: OutboxTransport;
  online: () => boolean;
  /** Runs `run` while holding the replay lock; resolves undefined at once when another tab holds it. */
  withLock: <T>(run: () => Promise<T>) => Promise<T | undefined>;
  newKey: () => string;
  now: () => number;
  /** Tells other tabs that the outbox changed. */
  announce?: () => void;
}

export interface OutboxState {
  uid: string | null;
  /** The signed-in user's changes still to send, oldest first. */
  waiting: OutboxEntry[];
  conflicts: ConflictEntry[];
  flushing: boolean;
}

export type SendResult<T> = { queued: false; data: T } | { queued: true; entry: OutboxEntry };

/** offline: no answer; auth: 401; busy: 429/5xx (try later); refused: the server said no to this change. */
export type FailureKind = 'offline' | 'auth' | 'busy' | 'refused';

export function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof ApiError) || error.status === 0) return 'offline';
  if (error.status === 401) return 'auth';
  if (error.status === 429 || error.status >= 500) return 'busy';
  return 'refused';
}

/** How a replay ended: everything sent, or why it stopped (the change that stopped it stays first). */
export interface FlushResult {
  sent: number;
  conflicts: number;
  stopped: 'done' | 'offline' | 'auth' | 'busy' | 'locked';
}

const DIRECT_ATTEMPTS = 3;
const REPLAY_ATTEMPTS = 1;

export class Outbox {
  private state: OutboxState = { uid: null, waiting: [], conflicts: [], flushing: false };
  private readonly listeners = new Set<() => void>();
  private rerun = false;

  constructor(private readonly deps: OutboxDeps) {}

  getState = (): OutboxState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private publish(patch: Partial<OutboxState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  /** Whose changes are shown and replayed (null when signed out). */
  async setUser(uid: string | null): Promise<void> {
    if (uid === this.state.uid) return;
    this.state = { ...this.state, uid };
    await this.reload();
  }

  /** Re-reads the database (after this or another tab changed it). */
  async reload(): Promise<void> {
    const uid = this.state.uid;
    if (!uid) return this.publish({ waiting: [], conflicts: [] });
    const db = await this.deps.db();
    const [waiting, conflicts] = await Promise.all([db.getAllFromIndex('outbox', 'uid', uid), db.getAll('conflicts')]);
    waiting.sort((a, b) => a.seq - b.seq);
    this.publish({ waiting, conflicts: conflicts.filter((c) => c.entry.uid === uid) });
  }

  private changed = async (): Promise<void> => {
    await this.reload();
    this.deps.announce?.();
  };

  private requireUser(): string {
    if (!this.state.uid) throw new Error('Sign in to make changes');
    return this.state.uid;
  }

  /** Puts a change at the end of the outbox. */
  async enqueue(request: OutboxRequest, lastError: string | null = null): Promise<OutboxEntry> {
    const uid = this.requireUser();
    const db = await this.deps.db();
    const draft = {
      ...request,
      idempotencyKey: request.idempotencyKey ?? this.deps.newKey(),
      uid,
      createdAt: this.deps.now(),
      attempts: 0,
      lastError,
    } as OutboxEntry;
    const seq = await db.add('outbox', draft);
    await this.changed();
    return { ...draft, seq };
  }

  /**
   * Sends the change now, or queues it: when offline, when earlier changes still wait (order
   * is kept), or when no answer comes. A refusal from the server (4xx) is thrown as usual,
   * so the screen that made the change can show it.
   */
  async sendOrQueue<T = unknown>(request: OutboxRequest): Promise<SendResult<T>> {
    this.requireUser();
    const keyed = { ...request, idempotencyKey: request.idempotencyKey ?? this.deps.newKey() };
    if (!this.deps.online() || this.state.waiting.length > 0 || this.state.flushing) {
      const entry = await this.enqueue(keyed, this.deps.online() ? null : 'Offline');
      if (this.deps.online()) void this.flush();
      return { queued: true, entry };
    }
    try {
      const probe = {
        ...keyed,
        seq: 0,
        uid: this.state.uid!,
        createdAt: this.deps.now(),
        attempts: 0,
        lastError: null,
      } as OutboxEntry;
      const data = (await this.deps.transport.send(probe, DIRECT_ATTEMPTS)) as T;
      return { queued: false, data };
    } catch (error) {
      if (classifyFailure(error) !== 'offline') throw error;
      return { queued: true, entry: await this.enqueue(keyed, 'No answer from the server') };
    }
  }

  /** Replays the signed-in user's waiting changes in order, one at a time, in one tab at a time. */
  async flush(): Promise<FlushResult> {
    const uid = this.state.uid;
    if (uid && this.state.flushing) this.rerun = true; // a change queued as the replay ends is not left behind
    if (!uid || this.state.flushing) return { sent: 0, conflicts: 0, stopped: 'locked' };
    if (!this.deps.online()) return { sent: 0, conflicts: 0, stopped: 'offline' };
    this.publish({ flushing: true });
    try {
      let result: FlushResult | undefined;
      do {
        this.rerun = false;
        result = await this.deps.withLock(() => this.replay(uid));
      } while (this.rerun && result?.stopped === 'done');
      return result ?? { sent: 0, conflicts: 0, stopped: 'locked' };
    } finally {
      this.publish({ flushing: false });
      await this.reload();
    }
  }

  private async replay(uid: string): Promise<FlushResult> {
    const db = await this.deps.db();
    const result: FlushResult = { sent: 0, conflicts: 0, stopped: 'done' };
    let refreshed = false;
    for (;;) {
      // Read from the database, not memory: another tab may have sent or added changes.
      const first = (await db.getAllFromIndex('outbox', 'uid', uid)).sort((a, b) => a.seq - b.seq)[0];
      if (!first) return result;
      try {
        await this.deps.transport.send(first, REPLAY_ATTEMPTS);
        await db.delete('outbox', first.seq);
        result.sent += 1;
        refreshed = false;
        await this.changed();
      } catch (error) {
        const kind = classifyFailure(error);
        if (kind === 'auth' && !refreshed) {
          refreshed = true;
          await this.deps.transport.refreshToken().catch(() => undefined);
          continue;
        }
        if (kind === 'refused') {
          await this.moveToConflicts(first, error as ApiError);
          result.conflicts += 1;
          continue;
        }
        const message =
          kind === 'auth'
            ? 'Sign in again to send'
            : kind === 'busy'
              ? 'The server is busy'
              : 'Waiting for the network';
        await db.put('outbox', { ...first, attempts: first.attempts + 1, lastError: message });
        await this.changed();
        result.stopped = kind;
        return result;
      }
    }
  }

  private async moveToConflicts(entry: OutboxEntry, error: ApiError): Promise<void> {
    const fromBody = (error.body as { current?: unknown } | null)?.current;
    const current =
      fromBody ?? (entry.currentPath ? await this.deps.transport.get(entry.currentPath).catch(() => null) : null);
    const db = await this.deps.db();
    const tx = db.transaction(['outbox', 'conflicts'], 'readwrite');
    await Promise.all([
      tx
        .objectStore('conflicts')
        .put({ seq: entry.seq, entry, status: error.status, message: error.message, current, at: this.deps.now() }),
      tx.objectStore('outbox').delete(entry.seq),
      tx.done,
    ]);
    await this.changed();
  }

  private async resolve(seq: number, decision: ResolvedEntry['decision']): Promise<ConflictEntry> {
    const db = await this.deps.db();
    const conflict = await db.get('conflicts', seq);
    if (!conflict) throw new Error('This conflict was already resolved');
    const tx = db.transaction(['conflicts', 'resolved'], 'readwrite');
    await Promise.all([
      tx.objectStore('conflicts').delete(seq),
      tx
        .objectStore('resolved')
        .add({ entry: conflict.entry, decision, current: conflict.current, at: this.deps.now() }),
      tx.done,
    ]);
    return conflict;
  }

  /** Drops the user's change in favour of the current value; the choice is recorded. */
  async keepCurrent(seq: number): Promise<void> {
    await this.resolve(seq, 'kept-current');
    await this.changed();
  }

  /** Sends the user's change again, as a new request against the current version. */
  async applyMine(seq: number): Promise<OutboxEntry> {
    const conflict = await this.resolve(seq, 'applied-mine');
    const currentVersion = (conflict.current as { version?: unknown } | null)?.version;
    const { entry } = conflict;
    const request: OutboxRequest = {
      kind: entry.kind,
      method: entry.method,
      path: entry.path,
      body: entry.body,
      label: entry.label,
      ...(entry.ifMatch !== undefined ? { ifMatch: entry.ifMatch } : {}),
      ...(entry.itemId ? { itemId: entry.itemId } : {}),
      ...(entry.currentPath ? { currentPath: entry.currentPath } : {}),
      baseVersion: typeof currentVersion === 'number' ? currentVersion : entry.baseVersion,
    };
    const queued = await this.enqueue(request);
    if (this.deps.online()) void this.flush();
    return queued;
  }

  /** The choices made on conflicts so far (newest last). */
  async resolvedLog(): Promise<ResolvedEntry[]> {
    return (await this.deps.db()).getAll('resolved');
  }
}
