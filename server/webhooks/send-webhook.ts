// One HTTP attempt at a webhook message: signed per Standard Webhooks, bounded by a
// timeout, and classified the way the retry policy needs it. Never throws.
//
// Requests go through undici (the client behind Node's fetch), one Agent per connect guard:
// kept-alive connections per origin, closed after 4 s idle, before a typical server's own
// keep-alive timeout. Every new connection first passes the guard (connect-guard.ts): the
// host is resolved and checked before any socket exists, and the socket gets exactly those
// addresses.
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { checkedAddresses, fixedLookup, RefusedAddress, type ConnectGuard } from './connect-guard.js';

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

const ABANDONED = 'Stopped before the receiver answered';

/** A connection's lookup and handshake may not take longer (undici's own default). */
const CONNECT_TIMEOUT_MS = 10_000;
/** The receiver closed a kept-alive connection as the request went out: sent once more on a fresh one. */
const RESET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

class Stopped extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'timed out' : ABANDONED);
  }
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

const agents = new WeakMap<ConnectGuard, Agent>();
function agentFor(guard: ConnectGuard): Agent {
  let agent = agents.get(guard);
  if (!agent) {
    agent = new Agent({
      keepAliveTimeout: 4000,
      connect: (options, callback) => {
        // Nothing opens a socket before every address of the host has passed the guard.
        let waiting = true;
        const fail = (error: Error) => waiting && ((waiting = false), callback(error, null));
        const timer = setTimeout(
          () => fail(Object.assign(new Error('connect timed out'), { code: 'UND_ERR_CONNECT_TIMEOUT' })),
          CONNECT_TIMEOUT_MS,
        );
        checkedAddresses(options.hostname, guard)
          .then((addresses) => {
            if (!waiting) return;
            waiting = false;
            buildConnector({ lookup: fixedLookup(addresses), timeout: CONNECT_TIMEOUT_MS })(options, callback);
          }, fail)
          .finally(() => clearTimeout(timer));
      },
    });
    agents.set(guard, agent);
  }
  return agent;
}

/** Closes the guard's connections (a stopping deliverer, tests). */
export async function closeConnections(guard: ConnectGuard): Promise<void> {
  const agent = agents.get(guard);
  agents.delete(guard);
  await agent?.destroy();
}

/**
 * POSTs and reads the answer. The timer runs from the start: undici's own timeouts do not
 * count the wait for a connection, nor abort a request still waiting for one.
 */
function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ status: number; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let stopped: Stopped | null = null;
    let answer = { status: 0, retryAfter: null as string | null };
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (timedOut: boolean) => {
      stopped ??= new Stopped(timedOut);
      controller?.abort(stopped);
      finish();
      reject(stopped);
    };
    const onAbort = () => stop(false);
    const timer = setTimeout(() => stop(true), timeoutMs);
    if (signal?.aborted) return stop(false);
    signal?.addEventListener('abort', onAbort);
    agent.dispatch(
      { origin: url.origin, path: url.pathname + url.search, method: 'POST', headers, body },
      {
        onRequestStart(c) {
          controller = c;
          if (stopped) c.abort(stopped);
        },
        onResponseStart(_c, status, responseHeaders) {
          const retryAfter = responseHeaders['retry-after'];
          answer = { status, retryAfter: typeof retryAfter === 'string' ? retryAfter : null };
        },
        onResponseEnd() {
          finish();
          // undici frees the connection in a setImmediate it queues just after this call: ours
          // comes after it, so the endpoint's next message reuses the connection, not a new one.
          process.nextTick(() => setImmediate(() => resolve(answer)));
        },
        onResponseError(_c, error) {
          finish();
          reject(error);
        },
      },
    );
  });
}

/**
 * Sends `message` to `url`, connecting only where `guard` allows (connect-guard.ts). When
 * `signal` aborts (the instance is stopping), the attempt ends at once as ABANDONED.
 */
export async function sendWebhook(
  url: string,
  secret: string,
  message: Message,
  timeoutMs: number,
  guard: ConnectGuard,
  signal?: AbortSignal,
): Promise<Attempt> {
  const timestamp = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Stockroom-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signWebhook(secret, message.id, timestamp, message.body),
  };
  const started = performance.now();
  const failed = (error: string) => ({
    ok: false,
    retryable: true,
    status: null,
    latencyMs: Math.round(performance.now() - started),
    retryAfterMs: null,
    error,
  });
  let answer: { status: number; retryAfter: string | null };
  try {
    const target = new URL(url);
    const agent = agentFor(guard);
    try {
      answer = await post(agent, target, headers, message.body, timeoutMs, signal);
    } catch (error) {
      if (!RESET.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      answer = await post(agent, target, headers, message.body, timeoutMs - (performance.now() - started), signal);
    }
  } catch (error) {
    // A refused target is retried like a network error (its DNS may be fixed), and the
    // endpoint is switched off once it has failed for the whole retry window.
    if (error instanceof RefusedAddress) return failed(error.message);
    if (error instanceof Stopped) return failed(error.timedOut ? `Timed out after ${timeoutMs} ms` : ABANDONED);
    const e = error as NodeJS.ErrnoException;
    return failed(`Network error: ${e.code ?? e.message}`);
  }
  const ok = answer.status >= 200 && answer.status < 300;
  return {
    ok,
    retryable: !ok && (answer.status === 429 || answer.status >= 500),
    status: answer.status,
    latencyMs: Math.round(performance.now() - started),
    retryAfterMs: ok ? null : retryAfterMs(answer.retryAfter),
    error: ok ? null : `Receiver answered ${answer.status}`,
  };
}

export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
