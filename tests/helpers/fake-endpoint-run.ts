// An endpoint run (server/webhooks/endpoint-run.ts) over an in-memory log, with the
// database and the HTTP attempt stubbed: what it reads, what it sends, and what progress it
// writes down (cursor, delivery log rows, retry time) are recorded for the test.
import type { WebhookConfig } from '../../server/config.js';
import type { EventStore } from '../../server/eventstore/event-store.js';
import type { Cursor, StoredEvent } from '../../server/eventstore/types.js';
import type { CursorMove, CursorStore, DueEndpoint } from '../../server/webhooks/cursor-store.js';
import { EndpointRun, type RunHost } from '../../server/webhooks/endpoint-run.js';
import type { Attempt, Message } from '../../server/webhooks/send-webhook.js';

export const START: Cursor = { txId: '0', position: 0 };
export const OK: Attempt = { ok: true, retryable: false, status: 200, latencyMs: 1, retryAfterMs: null, error: null };

/** A StockAdjusted event at `position` (id e<position>) of `stream`. */
export function logEvent(position: number, stream = `item-${position % 3}`): StoredEvent {
  return {
    position,
    txId: String(1000 + position),
    streamId: stream,
    streamType: 'item',
    streamVersion: position,
    eventId: `e${position}`,
    type: 'StockAdjusted',
    data: { delta: -1 },
    metadata: { actor: { uid: 'u', name: 'U' }, correlationId: 'c' },
    createdAt: new Date(),
  };
}
export const cursorOf = (e: StoredEvent): Cursor => ({ txId: e.txId, position: e.position });

export function fakeEndpointRun(send: (message: Message) => Promise<Attempt>, inFlight = 16) {
  const log: StoredEvent[] = [];
  const reads: Cursor[] = [];
  const moves: CursorMove[] = [];
  const config = {
    allowLocalHttp: true,
    timeoutMs: 1000,
    retryBaseMs: 100,
    retryMaxMs: 1000,
    retryForMs: 60_000,
    leaseMs: 60_000,
    pollMs: 2000,
    concurrency: 4,
    inFlight,
    logKeep: 10_000,
    logRetentionMs: 86_400_000,
    logTrimEveryMs: 3_600_000,
  } satisfies WebhookConfig;
  const host: RunHost = {
    store: {
      readAfter: async (cursor: Cursor, limit: number) => {
        reads.push(cursor);
        return log.filter((e) => e.position > cursor.position).slice(0, limit);
      },
    } as unknown as EventStore,
    db: null as never,
    config,
    log: { warn: () => undefined } as never,
    cursors: {
      claim: async () => true,
      loggedAfter: async () => ({ done: new Set<string>(), ownRows: new Set<string>() }),
      move: async (_id: string, _generation: number, move: CursorMove) => {
        moves.push(move);
        return true;
      },
    } as unknown as CursorStore,
    batchSize: 200,
    signal: new AbortController().signal,
    isStopped: () => false,
    send: (_url, _secret, message) => send(message),
    query: (work) => work(),
    wake: () => undefined,
    disable: async () => undefined,
    openSecret: (endpoint) => endpoint.secret,
  };
  const endpoint: DueEndpoint = {
    id: 'ep',
    url: 'http://127.0.0.1:1/',
    secret: 'whsec_x',
    cursor: START,
    generation: 0,
    attempts: 0,
    failingSince: null,
    eventTypes: ['*'],
    categoryIds: [],
  };
  const run = new EndpointRun(host, endpoint);
  return {
    run,
    reads,
    moves,
    /** The last cursor written down. */
    moved: () => moves.at(-1)?.cursor ?? START,
    /** Appends events at these positions (of their default streams, or the given ones) to the log. */
    append(from: number, to: number, streams?: string[]): StoredEvent[] {
      const added: StoredEvent[] = [];
      for (let p = from; p <= to; p++) added.push(logEvent(p, streams?.[p - from]));
      log.push(...added);
      return added;
    },
  };
}

export async function untilTrue(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
