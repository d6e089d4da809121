// One HTTP attempt at a webhook message: signed per Standard Webhooks, bounded by a
// timeout, and classified the way the retry policy needs it. Never throws.
//
// The deliverer calls it in its sender thread (sender-thread.ts), off the app's event loop.
// Requests go over node:http(s) with keep-alive agents, so a busy endpoint reuses a few
// warm connections instead of opening one per message (and costs less CPU than fetch).
// Idle connections close after a few seconds, before a typical server's own keep-alive
// timeout, and a request that meets a connection the receiver closed meanwhile
// is sent once more on a fresh one (Node's documented pattern for that race).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';

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

const IDLE_SOCKET_MS = 4000;
const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

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

class TimedOut extends Error {}

interface Answer {
  status: number;
  retryAfter: string | null;
}

/**
 * Sends `message` to `url`. A stopping instance does not wait for the answer: the sender
 * thread's owner (webhook-sender.ts) reports such sends as abandoned.
 */
export async function sendWebhook(url: string, secret: string, message: Message, timeoutMs: number): Promise<Attempt> {
  const timestamp = new Date();
  const signature = signWebhook(secret, message.id, timestamp, message.body);
  const body = Buffer.from(message.body);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'Stockroom-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  try {
    let answer: Answer;
    try {
      answer = await post(url, headers, body, deadline);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
      answer = await post(url, headers, body, deadline);
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
      error: error instanceof TimedOut ? `Timed out after ${timeoutMs} ms` : `Network error: ${e.code ?? e.message}`,
    };
  }
}

/** One POST; the answer's body is read (and dropped) within the deadline so the connection can be reused. */
function post(url: string, headers: Record<string, string>, body: Buffer, deadline: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const agent = agents[target.protocol as keyof typeof agents];
    if (!agent) return reject(new Error(`Unsupported protocol ${target.protocol}`));
    const req = client.request(target, { method: 'POST', headers, agent });
    let settled = false;
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        req.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const timer = setTimeout(() => finish(new TimedOut()), Math.max(0, deadline - Date.now()));
    req.on('error', (error: Error & { reusedSocket?: boolean }) => {
      // No answer at all on a kept-alive connection: the receiver closed it as we sent.
      const code = (error as NodeJS.ErrnoException).code;
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) error.reusedSocket = true;
      finish(error);
    });
    req.on('response', (res) => {
      res.on('error', (error) => finish(error));
      res.on('close', () => finish(new Error('the answer was cut off')));
      res.on('end', () => finish(null, { status: res.statusCode ?? 0, retryAfter: header(res.headers['retry-after']) }));
      res.resume();
    });
    req.end(body);
  });
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
