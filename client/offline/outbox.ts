// The app's offline outbox: writes that must not be lost when the network is.
//
// HOW TO USE IT (stock adjustments, counts, item edits; e.g. the stocktake's offline counts):
//
//   import { sendOrQueue } from '../../offline/outbox';
//   const result = await sendOrQueue<Count>({
//     kind: 'count',                        // 'adjust' | 'count' | 'edit'
//     method: 'POST',
//     path: `/stocktakes/${sessionId}/counts`, // API path without /api
//     body: { itemId, counted, countedAt: new Date().toISOString() },
//     idempotencyKey: crypto.randomUUID(),  // optional; keep it if you retry yourself
//     baseVersion: item.version,            // what the user saw (sent as If-Match for 'edit')
//     label: `Count of ${item.name}: ${counted}`, // shown in the header list and in Conflicts
//     itemId: item.id,                      // optional: pending marks on the item's screens
//     currentPath: `/inventory/${item.id}`, // optional: the value shown against it in Conflicts
//   });
//   if (result.queued) { /* show it as pending; it is sent when the connection returns */ }
//   else { /* result.data is the server's answer */ }
//
// - Online with nothing waiting, it is sent at once (3 tries). A refusal (4xx) is thrown as an
//   ApiError, as api.post would, so your screen shows it. Offline, or when no answer comes,
//   or when earlier changes still wait (order is kept), it is queued in IndexedDB.
// - Queued changes are replayed oldest first, one at a time, from one tab (navigator.locks),
//   on the `online` event, when the feed reconnects, and at app start; a refusal on replay
//   lands in Conflicts (/outbox) for the user to settle. Nothing is dropped.
// - For a count, put the moment of counting in the body (countedAt): a replay may arrive
//   hours later, and the server must apply the count as of then. An adjustment gets its
//   moment added here (occurredAt, see withMoment).
// - useOutbox() (use-outbox.ts) gives the waiting changes and conflicts to render; pending.ts
//   sums what waits per item.
import { ADJUST_MAX_AGE_MS } from '../../shared/inventory';
import { api } from '../lib/api-client';
import { onFeed } from '../lib/realtime';
import { groupToast, toast } from '../lib/toasts';
import { Outbox, type FlushResult, type SendResult } from './outbox-core';
import { openOutboxDb, type OutboxDb, type OutboxEntry, type OutboxRequest } from './outbox-db';

export type { OutboxRequest, OutboxEntry, SendResult };

const LOCK_NAME = 'stockroom-outbox';
const CHANNEL_NAME = 'stockroom-outbox';
/** Retry waits while the browser says online but nothing answers (or the server is busy). */
const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

let dbPromise: Promise<OutboxDb> | null = null;
let refreshToken: () => Promise<void> = async () => undefined;
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL_NAME);
// In Node (unit tests importing a screen's machine) the channel must not keep the process alive.
(channel as { unref?: () => void } | null)?.unref?.();

function withLock<T>(run: () => Promise<T>): Promise<T | undefined> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // Without Web Locks (old browsers) two tabs may replay at once; idempotency keys keep each
  // change applied once, only the order between tabs is lost.
  if (!locks) return run();
  return locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => (lock ? run() : undefined)) as Promise<
    T | undefined
  >;
}

/**
 * An adjustment says when it was made (`occurredAt`, this device's clock): a stocktake then
 * takes an offline sale made before a count as already on the shelf, though it reaches the
 * server after the count. Stamped once, when the change is made, so every send of one
 * Idempotency-Key carries the same body (the server refuses a key reused for another body).
 */
export function withMoment(request: OutboxRequest, now = Date.now()): OutboxRequest {
  const { body } = request;
  if (request.kind !== 'adjust' || typeof body !== 'object' || body === null || 'occurredAt' in body) return request;
  return { ...request, body: { ...body, occurredAt: new Date(now).toISOString() } };
}

/** Sent as made now: the server refuses moments older than ADJUST_MAX_AGE_MS (kept an hour clear of it). */
const STALE_MOMENT_MS = ADJUST_MAX_AGE_MS - 3_600_000;

/**
 * The body sent for a change: as made, except that an adjustment that waited longer than the
 * server accepts a moment for (a week) is sent without it, as made now, instead of being
 * refused again on every "Apply mine".
 */
export function bodyToSend(entry: OutboxRequest, now = Date.now()): unknown {
  const body = entry.body as { occurredAt?: unknown } | null | undefined;
  if (entry.kind !== 'adjust' || typeof body?.occurredAt !== 'string') return entry.body;
  if (now - new Date(body.occurredAt).getTime() <= STALE_MOMENT_MS) return body;
  const { occurredAt: _stale, ...rest } = body;
  return rest;
}

export const outbox = new Outbox({
  // A failed open (storage blocked) is tried again next time instead of failing for good.
  db: () =>
    (dbPromise ??= openOutboxDb().catch((error: unknown) => {
      dbPromise = null;
      throw error;
    })),
  transport: {
    send: (entry, attempts) =>
      api
        .request(entry.method, entry.path, {
          body: bodyToSend(entry),
          idempotencyKey: entry.idempotencyKey,
          attempts,
          ...((entry.ifMatch ?? entry.kind === 'edit') && entry.baseVersion !== undefined
            ? { ifMatch: entry.baseVersion }
            : {}),
        })
        .then((response) => response.data),
    get: (path) => api.get(path),
    refreshToken: () => refreshToken(),
  },
  online: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  withLock,
  newKey: () => crypto.randomUUID(),
  now: () => Date.now(),
  announce: () => channel?.postMessage('changed'),
});

channel?.addEventListener('message', () => void outbox.reload());

/** Sends a write now or keeps it for later: see the top of this file. */
export function sendOrQueue<T = unknown>(request: OutboxRequest): Promise<SendResult<T>> {
  return outbox.sendOrQueue<T>(withMoment(request));
}

/** Thrown by sendOrThrowQueued when the change was kept for later instead of sent. */
export class QueuedOffline extends Error {
  constructor(readonly entry: OutboxEntry) {
    super(`Saved on this device: ${entry.label}. It will be sent when you are back online.`);
    this.name = 'QueuedOffline';
  }
}

/**
 * sendOrQueue for code written for api.post/put, which expects the server's answer: a queued
 * change rejects with QueuedOffline (wrap the call in orQueued to get null instead).
 */
export async function sendOrThrowQueued<T>(request: OutboxRequest): Promise<T> {
  const result = await sendOrQueue<T>(request);
  if (result.queued) throw new QueuedOffline(result.entry);
  return result.data;
}

/** What the toast says for changes kept offline: one alone by its label, several by their number. */
export function queuedMessage(entries: OutboxEntry[]): string {
  if (entries.length === 1) return new QueuedOffline(entries[0]!).message;
  return `${entries.length} changes saved on this device: they are sent when you are back online.`;
}

/**
 * The call's answer, or null (with a toast saying so) when its change was queued for later.
 * Changes queued in a row share one toast (a +1 tapped five times offline is one toast).
 */
export async function orQueued<T>(send: () => Promise<T>): Promise<T | null> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof QueuedOffline)) throw error;
    groupToast({ group: 'outbox-queued', entry: error.entry, render: queuedMessage });
    return null;
  }
}

let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryIndex = 0;

async function flushNow(): Promise<void> {
  clearTimeout(retryTimer);
  let result: FlushResult;
  try {
    result = await outbox.flush();
  } catch (error) {
    console.error('Outbox replay failed', error);
    result = { sent: 0, conflicts: 0, stopped: 'busy' };
  }
  // The browser says online, yet nothing answered or the server was busy: try again later.
  // Offline waits for the `online` event instead; 'auth' waits for a new sign-in.
  // 'locked': another tab (or a replay finishing here) holds the lock; a change added just as
  // it finished would otherwise wait for the next trigger.
  const stuck = result.stopped === 'locked' && outbox.getState().waiting.length > 0;
  if ((result.stopped === 'busy' || result.stopped === 'offline' || stuck) && navigator.onLine) {
    retryTimer = setTimeout(() => void flushNow(), RETRY_MS[Math.min(retryIndex++, RETRY_MS.length - 1)]);
  } else if (result.stopped === 'done') {
    retryIndex = 0;
  }
}

/**
 * Starts replaying for the signed-in user (the signed-in shell calls this): at once, on the
 * `online` event and when the live feed reconnects. Returns the stop function.
 */
export function startOutbox(uid: string, tokenRefresher: () => Promise<void>): () => void {
  refreshToken = tokenRefresher;
  const onOnline = () => void flushNow();
  window.addEventListener('online', onOnline);
  const offFeed = onFeed('connected', () => void flushNow());
  outbox
    .setUser(uid)
    .then(flushNow)
    .catch((error: unknown) => console.error('The offline outbox could not start', error));
  return () => {
    window.removeEventListener('online', onOnline);
    offFeed();
    clearTimeout(retryTimer);
    // Signing out keeps this user's waiting changes on the device (never dropped): say so.
    const left = outbox.getState().waiting.length;
    if (left > 0)
      toast.info(
        `${left === 1 ? '1 change' : `${left} changes`} not sent yet: kept on this device until you are back in the app.`,
      );
    void outbox.setUser(null);
  };
}
