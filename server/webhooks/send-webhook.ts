// One HTTP attempt at a webhook message: signed per Standard Webhooks, bounded by a
// timeout, and classified the way the retry policy needs it. Never throws.
//
// The deliverer calls it in its sender thread (sender-thread.ts), off the app's event loop.
// Requests go over webhook-http.ts's lean HTTP/1.1 client with kept-alive connections, so a
// busy endpoint reuses a few warm connections instead of opening one per message (half the
// CPU per message of node:http's client, which cost less than fetch). Idle connections
// close after a few seconds, before a typical server's own keep-alive timeout, and a
// request that meets a connection the receiver closed meanwhile is sent once more on a
// fresh one (Node's documented pattern for that race).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { RefusedAddress, type ConnectGuard } from './connect-guard.js';
import { postJson, TimedOut, type Answer } from './webhook-http.js';

export interface Attempt {
  ok: boolean;
  /** Worth trying again later: a timeout, a network error, 429 or 5xx. */
  retryable: boolean;
  status: number | null;
  latencyMs: number;
  /** Seconds (or a date) the receiver asked us to wait, from Retry-After. */
  retryAfterMs: number | null;
  error: string | null;
}

export interface Message {
  id: string;
  body: string;
}

/** Signing keys by secret: decoded (and checked) once by the Standard Webhooks library, not per message. */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size > 1000) keys.clear();
    key = createSecretKey((new Webhook(secret) as unknown as { key: Uint8Array }).key);
    keys.set(secret, key);
  }
  return key;
}

/**
 * The Standard Webhooks signature (what `Webhook.sign` returns), with node:crypto's HMAC:
 * the library's pure-JavaScript SHA-256 cost several times more CPU per message.
 */
export function signWebhook(secret: string, id: string, timestamp: Date, body: string): string {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${seconds}.${body}`).digest('base64')}`;
}

/**
 * Sends `message` to `url`, connecting only where `guard` allows (connect-guard.ts). A
 * stopping instance does not wait for the answer: the sender thread's owner
 * (webhook-sender.ts) reports such sends as abandoned.
 */
export async function sendWebhook(url: string, secret: string, message: Message, timeoutMs: number, guard: ConnectGuard): Promise<Attempt> {
  const timestamp = new Date();
  const headers: Array<[string, string]> = [
    ['user-agent', 'Stockroom-Webhooks/1'],
    ['webhook-id', message.id],
    ['webhook-timestamp', String(Math.floor(timestamp.getTime() / 1000))],
    ['webhook-signature', signWebhook(secret, message.id, timestamp, message.body)],
  ];
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  try {
    let answer: Answer;
    try {
      answer = await postJson(url, headers, message.body, deadline, guard);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
      answer = await postJson(url, headers, message.body, deadline, guard, true);
    }
    const latencyMs = Math.round(performance.now() - started);
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      retryable: !ok && (answer.status === 429 || answer.status >= 500),
      status: answer.status,
      latencyMs,
      retryAfterMs: ok ? null : retryAfterMs(answer.retryAfter),
      error: ok ? null : `Receiver answered ${answer.status}`,
    };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const e = error as NodeJS.ErrnoException;
    return {
      ok: false,
      retryable: true,
      status: null,
      latencyMs,
      retryAfterMs: null,
      // A refused target is retried like a network error (its DNS may be fixed), and the
      // endpoint is switched off once it has failed for the whole retry window.
      error: error instanceof RefusedAddress ? error.message : error instanceof TimedOut ? `Timed out after ${timeoutMs} ms` : `Network error: ${e.code ?? e.message}`,
    };
  }
}

export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
