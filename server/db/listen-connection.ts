// A dedicated LISTEN connection that outlives the database: when it drops (restart,
// failover, pg_terminate_backend, a cut network) it reconnects with backoff until it is
// back, and then calls onNotify once, because notifications sent while it was away are
// lost and the reader must look for what it missed. Its errors are handled here: an
// unhandled 'error' on a pg client would take the whole process down.
import pg from 'pg';

export interface ListenOptions {
  connect: () => pg.Client;
  channel: string;
  onNotify: () => void;
  onError?: (error: unknown) => void;
  /** First retry delay; doubles up to maxDelayMs. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface ListenConnection {
  /** Resolves once the first LISTEN is in place (or rejects if the first attempt fails; retries go on). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export function openListenConnection(options: ListenOptions): ListenConnection {
  const { channel, onNotify, onError = () => undefined, minDelayMs = 250, maxDelayMs = 5000 } = options;
  let client: pg.Client | null = null;
  let stopped = false;
  let attempt = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let everConnected = false;

  const scheduleRetry = () => {
    if (stopped || retryTimer) return;
    const delay = Math.min(maxDelayMs, minDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect().catch(() => undefined);
    }, delay);
    retryTimer.unref();
  };

  async function connect(): Promise<void> {
    const next = options.connect();
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (error) onError(error);
      if (client === next) client = null;
      next.end().catch(() => undefined);
      scheduleRetry();
    };
    next.on('notification', (n) => n.channel === channel && onNotify());
    next.on('error', (error) => drop(error));
    next.on('end', () => drop());
    try {
      await next.connect();
      await next.query(`listen "${channel}"`);
    } catch (error) {
      drop(error);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    attempt = 0;
    // Anything committed while we were not listening.
    if (everConnected) onNotify();
    everConnected = true;
  }

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
